from __future__ import annotations

from django import forms
from pydantic import ValidationError

from debates.engine import (
    MAX_PERSONA_FILE_CHARS,
    PERSONA_MODEL_MAX,
    PERSONA_NAME_MAX,
    PERSONA_TEXT_MAX,
    Persona,
)
from view_kit.site_words import ui, ui_lazy

# The file's limit is in characters (MAX_PERSONA_FILE_CHARS, checked when it is read);
# UTF-8 takes at most 4 bytes a character, so a larger upload cannot be within it and
# is refused before it is read.
MAX_IMPORT_BYTES = 4 * MAX_PERSONA_FILE_CHARS


class LibraryForm(forms.Form):
    name = forms.CharField(max_length=200, label=ui_lazy("site.personas.field.name"))
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False,
                                  label=ui_lazy("site.personas.col.description"))


class PersonaForm(forms.Form):
    # The engine's Persona limits, so the browser stops typing where the engine would refuse.
    name = forms.CharField(max_length=PERSONA_NAME_MAX, label=ui_lazy("site.personas.field.name"))
    background = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}),
                                 max_length=PERSONA_TEXT_MAX,
                                 label=ui_lazy("site.personas.field.background"))
    expertise = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}),
                                max_length=PERSONA_TEXT_MAX,
                                label=ui_lazy("site.personas.field.expertise"))
    approach = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}),
                               max_length=PERSONA_TEXT_MAX,
                               label=ui_lazy("site.personas.field.approach"))
    bias = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=PERSONA_TEXT_MAX,
                           label=ui_lazy("site.personas.field.bias"))
    model = forms.CharField(max_length=PERSONA_MODEL_MAX, required=False,
                            label=ui_lazy("site.personas.field.model"),
                            help_text=ui_lazy("site.personas.model_help"))
    temperature = forms.FloatField(required=False, min_value=0.0, max_value=2.0,
                                   label=ui_lazy("site.personas.field.temperature"))

    def persona(self) -> Persona | None:
        """The engine persona, or None with the problems added as form errors."""
        data = {k: v for k, v in self.cleaned_data.items() if k != "note"}
        data["model"] = data.get("model") or None
        try:
            return Persona.model_validate(data)
        except ValidationError as exc:
            for error in exc.errors():
                field = str(error["loc"][0]) if error["loc"] else None
                self.add_error(field if field in self.fields else None, error["msg"])
            return None


class PersonaEditForm(PersonaForm):
    """An existing persona's fields and why they changed: a new persona has no change to
    explain, so only edits ask."""

    note = forms.CharField(max_length=300, required=False,
                           label=ui_lazy("site.personas.note"),
                           help_text=ui_lazy("site.personas.note_help"))


class ImportForm(forms.Form):
    file = forms.FileField(required=False, label=ui_lazy("site.personas.import_file"),
                           help_text=ui_lazy("site.personas.import_file_help"))
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 6}), required=False,
                           label=ui_lazy("site.personas.import_paste"))
    format = forms.ChoiceField(choices=[("yaml", "YAML"), ("json", "JSON")], initial="yaml",
                               label=ui_lazy("site.personas.import_format"))

    def source(self) -> tuple[str, str] | None:
        """(text, filename) of the upload or the pasted text, or None with an error."""
        upload = self.cleaned_data.get("file")
        if upload is not None:
            if upload.size > MAX_IMPORT_BYTES:
                self.add_error("file", ui("site.personas.import_too_long",
                                          chars=f"{MAX_PERSONA_FILE_CHARS:,}"))
                return None
            raw = upload.read()
            try:
                return raw.decode("utf-8"), upload.name
            except UnicodeDecodeError:
                self.add_error("file", ui("site.personas.import_not_utf8", name=upload.name))
                return None
        text = self.cleaned_data.get("text") or ""
        if not text.strip():
            self.add_error(None, ui("site.personas.import_empty"))
            return None
        return text, f"pasted.{self.cleaned_data.get('format') or 'yaml'}"


class ForkForm(forms.Form):
    target = forms.UUIDField(required=False,
                             help_text="Library to fork into; empty means the same library.")


class RestoreForm(forms.Form):
    number = forms.IntegerField(min_value=1)
