"""The new-debate and re-run forms: user input in, a ``DebateSpec`` (new debate) or
settings overrides (re-run) out.

The forms check each field (type, range, the engine's ``clean_question`` and
``check_model``) so a mistake shows next to its field; ``debates.services.debate_start``
owns the rest (personas, settings defaults, limits) and its refusals become
non-field errors.
"""

from __future__ import annotations

from typing import Any, get_args

from django import forms
from django.conf import settings
from django.utils.functional import lazy
from pydantic import ValidationError

from accounts.models import Team
from debates.debate_sources import debate_sources
from debates.engine import (
    MAX_AGENTS,
    MAX_ROUNDS,
    MIN_AGENTS,
    MIN_ROUNDS,
    MODE_DEFAULTS,
    DebateConfig,
    InputError,
    Mode,
    ModeSetting,
    check_agents,
    check_decision_rule,
    check_model,
    clean_question,
    get_protocol,
    known_protocols,
    options_from_question,
    parse_options,
    parse_panel_models,
    resolve_config,
)
from debates.engine import choices as protocol_choices
from debates.models import Debate
from debates.page_words import PageWords
from debates.persona_sources import persona_source
from debates.services import MAX_CONTEXT_CHARS, DebateSpec, RerunPanel
from view_kit.site_words import ui, ui_lazy

# --------------------------------------------------------------------- persona libraries
#
# The personas app owns libraries (and registers itself as their source); the form
# only offers their personas, and the field stays hidden for a team without any.


def library_persona_choices(team: Team) -> list[tuple[str, list[tuple[str, str]]]]:
    """The usable personas of ``team``'s libraries, grouped by library (the picker
    shows one group per library): [(library name, [(persona code, name), ...]), ...]."""
    return persona_source().choices(team=team)


# --------------------------------------------------------------------- forms


def _first_pydantic_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {err['msg']}" if where else err["msg"]


def _mode_choice(mode: str, agents: int, rounds: int) -> str:
    """A mode's radio label in the request's language: its name (the engine's
    catalogue, as the debate's head line says it) and what it runs."""
    return (f"{PageWords()(f'mode.{mode}')} · "
            f"{ui('site.new.mode_detail', agents=agents, rounds=rounds)}")


_mode_choice_lazy = lazy(_mode_choice, str)


class SettingsForm(forms.Form):
    """The settings a debate and its re-runs share. Labels, help and errors are the
    site catalogue's, read when the form renders (docs/web.md, "Languages")."""

    mode = forms.ChoiceField(
        label=ui_lazy("site.new.mode"),
        choices=[(m.value, _mode_choice_lazy(m.value, d.agents, d.max_rounds))
                 for m, d in MODE_DEFAULTS.items()],
        initial=Mode.MEDIUM.value, widget=forms.RadioSelect,
    )
    model = forms.CharField(
        label=ui_lazy("site.new.model"), max_length=200,
        help_text=ui_lazy("site.new.model_help"),
    )
    panel_models = forms.CharField(
        label=ui_lazy("site.new.panel_models"), required=False, max_length=2000,
        widget=forms.TextInput(attrs={"placeholder": ui_lazy("site.new.panel_models_placeholder")}),
        help_text=ui_lazy("site.new.panel_models_help"),
    )
    agents = forms.IntegerField(
        label=ui_lazy("site.new.agents"), required=False, min_value=MIN_AGENTS,
        max_value=MAX_AGENTS,
        help_text=ui_lazy("site.new.agents_help", low=MIN_AGENTS, high=MAX_AGENTS),
    )
    max_rounds = forms.IntegerField(
        label=ui_lazy("site.new.max_rounds"), required=False, min_value=MIN_ROUNDS,
        max_value=MAX_ROUNDS,
        help_text=ui_lazy("site.new.max_rounds_help", low=MIN_ROUNDS, high=MAX_ROUNDS),
    )
    threshold = forms.FloatField(
        label=ui_lazy("site.new.threshold"), required=False, min_value=0.01, max_value=0.99,
        help_text=ui_lazy("site.new.threshold_help"),
    )
    anonymize_peers = forms.BooleanField(
        label=ui_lazy("site.new.anonymize_peers"), required=False,
    )
    # Which vote a council's recommendation follows (docs/protocols.md 1.9, "The
    # decision rule"); blank = the default, by the panel's models.
    decision_rule = forms.ChoiceField(
        label=ui_lazy("site.new.decision_rule"), required=False,
        choices=[("", ui_lazy("site.new.decision_rule.default")),
                 ("vote", ui_lazy("site.new.decision_rule.vote")),
                 ("debate", ui_lazy("site.new.decision_rule.debate")),
                 ("confidence", ui_lazy("site.new.decision_rule.confidence"))],
        help_text=ui_lazy("site.new.decision_rule_help"),
    )
    # Advanced: for models behind the team's own server (docs/models.md). Its values
    # are the settings' own names, written the same in every language.
    output_mode = forms.ChoiceField(
        label=ui_lazy("site.new.output_mode"), required=False, initial="auto",
        choices=[(m, m) for m in get_args(ModeSetting)],
        help_text=ui_lazy("site.new.output_mode_help"),
    )
    context_limit_tokens = forms.IntegerField(
        label=ui_lazy("site.new.context_limit"), required=False, min_value=512,
        help_text=ui_lazy("site.new.context_limit_help"),
    )
    options = forms.CharField(
        label=ui_lazy("site.new.options"), required=False, max_length=700,
        widget=forms.TextInput(attrs={"placeholder": ui_lazy("site.new.options_placeholder")}),
        help_text=ui_lazy("site.new.options_help"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["model"].initial = settings.COUNCIL_MODEL
        self.config: DebateConfig | None = None

    @staticmethod
    def default_config() -> DebateConfig:
        return resolve_config(model=settings.COUNCIL_MODEL)

    def clean_model(self) -> str:
        try:
            return check_model(self.cleaned_data["model"])
        except InputError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean_panel_models(self) -> list[str]:
        try:
            return parse_panel_models(self.cleaned_data.get("panel_models") or "")
        except InputError as exc:
            raise forms.ValidationError(
                ui("site.new.error.panel_models", reason=exc)) from None

    def automatic_options(self) -> list[str]:
        """The options a blank field gives for the question typed so far (the compose
        call may name the alternatives more precisely)."""
        question = self.data.get("question") or self.initial.get("question") or ""
        return options_from_question(str(question))

    def clean_options(self) -> list[str] | None:
        try:
            return parse_options(self.cleaned_data.get("options") or "")
        except ValueError as exc:
            raise forms.ValidationError(ui("site.new.error.options", reason=exc)) from None

    def settings_overrides(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "mode": data["mode"],
            # None lets the mode fill the value in (resolve_config).
            "agents": data.get("agents"),
            "max_rounds": data.get("max_rounds"),
            "threshold": data.get("threshold"),
            "model": data["model"],
            "panel_models": data.get("panel_models") or [],
            "anonymize_peers": bool(data.get("anonymize_peers")),
            "output_mode": data.get("output_mode") or "auto",
            "context_limit_tokens": data.get("context_limit_tokens"),
            "options": data.get("options"),
            # A body without the field (an API re-run) keeps the base's rule.
            **({"decision_rule": data.get("decision_rule") or None}
               if "decision_rule" in self.data else {}),
        }

    def build_config(self, base: dict[str, Any]) -> DebateConfig | None:
        try:
            self.config = resolve_config({**base, **self.settings_overrides()})
        except ValidationError as exc:
            self.add_error(None, _first_pydantic_error(exc))
            return None
        return self.config


class DebateForm(SettingsForm):
    question = forms.CharField(
        label=ui_lazy("site.new.question"),
        widget=forms.Textarea(attrs={"rows": 4, "placeholder":
                                     ui_lazy("site.new.question_placeholder")}),
        strip=False,
    )
    context = forms.CharField(
        label=ui_lazy("site.new.context_optional"), required=False, strip=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder":
                                     ui_lazy("site.new.context_placeholder")}),
    )
    # Every registered protocol; blank means the default (the council, registered first).
    protocol = forms.ChoiceField(label=ui_lazy("site.new.protocol"), choices=protocol_choices,
                                 initial="council",
                                 required=False, widget=forms.RadioSelect)
    library_personas = forms.MultipleChoiceField(
        label=ui_lazy("site.new.library_personas"), required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=ui_lazy("site.new.library_personas_help"),
    )
    # Files come in request.FILES ("source_files"), stored by the view (docs/web.md,
    # "Sources"); these are the team's library sources, by code.
    library_sources = forms.MultipleChoiceField(
        label=ui_lazy("site.new.library_sources"), required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=ui_lazy("site.new.library_sources_help"),
    )

    field_order = ["question", "context", "protocol", "library_personas", "library_sources",
                   "options", "mode",
                   "model", "panel_models", "agents", "max_rounds", "threshold",
                   "anonymize_peers", "decision_rule", "output_mode", "context_limit_tokens"]

    def __init__(self, *args: Any, team: Team, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.team = team
        self.library_field.choices = library_persona_choices(team)
        sources = self.fields["library_sources"]
        assert isinstance(sources, forms.MultipleChoiceField)
        sources.choices = debate_sources().choices(team=team)
        # An unknown protocol (API, MCP) is told which ones there are, as the CLI does.
        self.fields["protocol"].error_messages["invalid_choice"] = ui(
            "site.new.error.protocol", known=", ".join(known_protocols()))

    @property
    def library_field(self) -> forms.MultipleChoiceField:
        """This form's copy of ``library_personas`` (``self.fields`` types it as a Field)."""
        field = self.fields["library_personas"]
        assert isinstance(field, forms.MultipleChoiceField)
        return field

    @property
    def has_library(self) -> bool:
        return bool(self.library_field.choices)

    @property
    def protocol_radios(self) -> list[tuple[Any, str]]:
        """Each protocol's radio, its name and one-line description in the request's
        language where the pages' catalogue has them (the built-ins), else the registry's."""
        words = PageWords()
        radios = []
        for radio in self["protocol"]:
            name = radio.data["value"]
            if f"protocol.{name}" in words:
                radio.data["label"] = words(f"protocol.{name}")
            key = f"protocol_description.{name}"
            radios.append((radio, words(key) if key in words
                           else get_protocol(name).description))
        return radios

    def clean_question(self) -> str:
        try:
            return clean_question(self.cleaned_data.get("question"))
        except InputError as exc:
            raise forms.ValidationError(ui("site.new.error.question", reason=exc)) from None

    def clean_context(self) -> str:
        text = (self.cleaned_data.get("context") or "").strip()
        if len(text) > MAX_CONTEXT_CHARS:
            raise forms.ValidationError(ui("site.new.error.context_length",
                                           chars=f"{len(text):,}",
                                           limit=f"{MAX_CONTEXT_CHARS:,}"))
        return text

    def clean(self) -> dict[str, Any] | None:
        data = super().clean() or {}
        if "protocol" in data:  # a valid protocol (blank: the council)
            try:
                check_agents(data["protocol"] or "council", data.get("agents"))
            except ValueError as exc:
                self.add_error("agents", ui("site.new.error.agents", reason=exc))
            try:
                check_decision_rule(data["protocol"] or "council", data.get("decision_rule")
                                    or None)
            except ValueError as exc:
                self.add_error("decision_rule", ui("site.new.error.decision_rule",
                                                   reason=exc))
        return data

    def spec(self) -> DebateSpec:
        """The debate asked for; call after ``is_valid()``. Blank settings stay None,
        so the service fills them in (the mode's values, COUNCIL_* defaults)."""
        data = self.cleaned_data
        return DebateSpec(
            question=data["question"], context=data["context"], mode=data["mode"],
            protocol=data.get("protocol") or None,
            model=data["model"], panel_models=data.get("panel_models") or None,
            agents=data.get("agents"),
            max_rounds=data.get("max_rounds"), threshold=data.get("threshold"),
            anonymize_peers=bool(data.get("anonymize_peers")),
            options=data.get("options"),
            decision_rule=data.get("decision_rule") or None,
            library_personas=list(data.get("library_personas") or []),
            sources=list(data.get("library_sources") or []),
        )


class RerunForm(SettingsForm):
    """Same or edited settings, prefilled from the parent debate."""

    question = forms.CharField(label=ui_lazy("site.new.question"),
                               widget=forms.Textarea(attrs={"rows": 4}), strip=False)
    context = forms.CharField(
        label=ui_lazy("site.rerun.context"), required=False, strip=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=ui_lazy("site.rerun.context_help"))
    panel = forms.ChoiceField(
        choices=[(RerunPanel.SAME, ui_lazy("site.rerun.panel.same")),
                 (RerunPanel.FRESH, ui_lazy("site.rerun.panel.fresh"))],
        initial=RerunPanel.SAME, widget=forms.RadioSelect,
        label=ui_lazy("site.rerun.panel"), required=False,
        help_text=ui_lazy("site.rerun.panel_help"))

    keep_sources = forms.MultipleChoiceField(
        label=ui_lazy("site.rerun.sources"), required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=ui_lazy("site.rerun.keep_sources_help"))
    library_sources = forms.MultipleChoiceField(
        label=ui_lazy("site.rerun.library_sources"), required=False,
        widget=forms.CheckboxSelectMultiple)

    field_order = ["question", "context", "panel", "keep_sources", "library_sources",
                   "options", "mode", "model", "panel_models", "agents",
                   "max_rounds", "threshold", "anonymize_peers", "decision_rule",
                   "output_mode", "context_limit_tokens"]

    def __init__(self, *args: Any, debate: Debate, **kwargs: Any) -> None:
        self.debate = debate
        cfg = DebateConfig.model_validate(debate.settings)
        initial: dict[str, object] = {
            "question": debate.question, "context": debate.context,
            "panel": RerunPanel.SAME, "mode": cfg.mode.value, "model": cfg.model,
            "panel_models": ", ".join(cfg.panel_models),
            "agents": cfg.agents, "max_rounds": cfg.max_rounds, "threshold": cfg.threshold,
            "anonymize_peers": cfg.anonymize_peers,
            "decision_rule": cfg.decision_rule.value if cfg.decision_rule else "",
            "output_mode": cfg.output_mode, "context_limit_tokens": cfg.context_limit_tokens,
            "options": ", ".join(cfg.options or []),
        }
        initial.update(kwargs.pop("initial", None) or {})
        port = debate_sources()
        self.kept_choices = [(link.version, f"{link.id} · {link.title}")
                             for link in port.links(debate=debate) if link.version]
        initial["keep_sources"] = [code for code, _ in self.kept_choices]
        super().__init__(*args, initial=initial, **kwargs)
        self.fields["model"].initial = cfg.model
        keep, library = self.fields["keep_sources"], self.fields["library_sources"]
        assert isinstance(keep, forms.MultipleChoiceField)
        assert isinstance(library, forms.MultipleChoiceField)
        keep.choices = self.kept_choices
        library.choices = port.choices(team=debate.team)

    def sources(self) -> list[str] | None:
        """The re-run's sources (kept, then added from the library); None keeps the
        parent's (a page, or an API body, from before the field)."""
        if "sources_shown" not in self.data:
            return None
        data = self.cleaned_data
        return [*(data.get("keep_sources") or []), *(data.get("library_sources") or [])]

    def clean_question(self) -> str:
        try:
            return clean_question(self.cleaned_data.get("question"))
        except InputError as exc:
            raise forms.ValidationError(ui("site.new.error.question", reason=exc)) from None

    def clean_context(self) -> str:
        if "context" not in self.data:  # a page from before the field: keep the original
            return self.debate.context
        text = (self.cleaned_data.get("context") or "").strip()
        if len(text) > MAX_CONTEXT_CHARS:
            raise forms.ValidationError(ui("site.new.error.context_length",
                                           chars=f"{len(text):,}",
                                           limit=f"{MAX_CONTEXT_CHARS:,}"))
        return text

    def clean_panel(self) -> str:
        return self.cleaned_data.get("panel") or RerunPanel.SAME

    def clean(self) -> dict[str, Any] | None:
        data = super().clean()
        if not self.errors:
            self.build_config(self.debate.settings)
        return data

