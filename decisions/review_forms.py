"""The outcome form: what a review of a decision found."""

from __future__ import annotations

from typing import Any

from django import forms

from decisions.models import OutcomeResult
from decisions.outcomes import MAX_NOTES
from view_kit.site_words import ui, ui_lazy

CANT_TELL = "__cant_tell__"


class OutcomeForm(forms.Form):
    """The option that proved right (radio buttons), or "can't tell yet"."""

    right_option = forms.ChoiceField(widget=forms.RadioSelect,
                                     label=ui_lazy("site.decisions.form.right_option"))
    result = forms.ChoiceField(widget=forms.RadioSelect, required=False,
                               label=ui_lazy("site.decisions.form.result"),
                               choices=[(value, ui_lazy(f"site.decisions.form.result.{value}"))
                                        for value in OutcomeResult.values])
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False,
                            max_length=MAX_NOTES, label=ui_lazy("site.decisions.form.notes"))
    review_again_on = forms.DateField(
        required=False, label=ui_lazy("site.decisions.form.again_on"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=ui_lazy("site.decisions.form.again_on_help"))

    def __init__(self, *args: Any, options: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["right_option"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [*((o, o) for o in options),
                         (CANT_TELL, ui("site.decisions.form.cant_tell"))]

    def outcome_kwargs(self) -> dict[str, Any]:
        """The service's arguments; the service checks how they fit together."""
        data = self.cleaned_data
        cant_tell = data["right_option"] == CANT_TELL
        return {"right_option": None if cant_tell else data["right_option"],
                "result": data.get("result") or "", "notes": data.get("notes") or "",
                "review_again_on": data.get("review_again_on")}
