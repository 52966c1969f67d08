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
from debates.persona_sources import persona_source
from debates.services import MAX_CONTEXT_CHARS, DebateSpec, RerunPanel

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


class SettingsForm(forms.Form):
    """The settings a debate and its re-runs share."""

    mode = forms.ChoiceField(
        choices=[(m.value, f"{m.value} · {d.agents} agents, up to {d.max_rounds} rounds")
                 for m, d in MODE_DEFAULTS.items()],
        initial=Mode.MEDIUM.value, widget=forms.RadioSelect,
    )
    model = forms.CharField(
        max_length=200, help_text="A litellm model string, e.g. openai/gpt-4o-mini; "
        "sim/default runs the offline simulator.",
    )
    panel_models = forms.CharField(
        label="Panel models", required=False, max_length=2000,
        widget=forms.TextInput(attrs={"placeholder": "the model above for every agent"}),
        help_text="A mixed panel: litellm model strings, comma-separated, given to the "
        "agents in turn (a persona's own model wins). Agents on different models see "
        "each other's arguments anonymised, without verdicts.",
    )
    agents = forms.IntegerField(
        required=False, min_value=MIN_AGENTS, max_value=MAX_AGENTS,
        help_text=f"{MIN_AGENTS}–{MAX_AGENTS}; blank = the mode's number (council only: "
        "the other protocols have fixed roles).",
    )
    max_rounds = forms.IntegerField(
        label="Max rounds", required=False, min_value=MIN_ROUNDS, max_value=MAX_ROUNDS,
        help_text=f"{MIN_ROUNDS}–{MAX_ROUNDS}; blank = the mode's cap.",
    )
    threshold = forms.FloatField(
        label="Convergence threshold", required=False, min_value=0.01, max_value=0.99,
        help_text="Dispersion below this (with a stable mean) counts as converged; "
        "blank = the mode's.",
    )
    anonymize_peers = forms.BooleanField(
        label="Anonymise peers (agents see 'Agent B', not names)", required=False,
    )
    # Which vote a council's recommendation follows (docs/protocols.md 1.9, "The
    # decision rule"); blank = the default, by the panel's models.
    decision_rule = forms.ChoiceField(
        label="Decision rule", required=False,
        choices=[("", "default: the independent vote, or the debate's on a mixed panel"),
                 ("vote", "vote: the independent positions, before any agent saw another's"),
                 ("debate", "debate: the final positions, after cross-examination"),
                 ("confidence", "confidence: the independent positions weighted by "
                                "confidence rank")],
        help_text="Which vote the council's recommendation follows (council only); the "
        "result flags a debate that overturned the independent vote.",
    )
    # Advanced: for models behind the team's own server (docs/models.md).
    output_mode = forms.ChoiceField(
        label="Structured output", required=False, initial="auto",
        choices=[(m, m) for m in get_args(ModeSetting)],
        help_text="auto picks per model; json_object suits llama.cpp, tools suits servers "
        "with function calling, prompt constrains nothing.",
    )
    context_limit_tokens = forms.IntegerField(
        label="Context limit (tokens)", required=False, min_value=512,
        help_text="blank = the model's own; prompts are compacted to fit.",
    )
    options = forms.CharField(
        label="Options", required=False, max_length=700,
        widget=forms.TextInput(attrs={"placeholder": "automatic"}),
        help_text="The answers the panel chooses between, comma-separated (e.g. Kafka, "
        "SQS, conditional); blank = automatic: for, against, conditional, or the "
        "alternatives the question names.",
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
            raise forms.ValidationError(f"Panel models: {exc}.") from None

    def automatic_options(self) -> list[str]:
        """The options a blank field gives for the question typed so far (the compose
        call may name the alternatives more precisely)."""
        question = self.data.get("question") or self.initial.get("question") or ""
        return options_from_question(str(question))

    def clean_options(self) -> list[str] | None:
        try:
            return parse_options(self.cleaned_data.get("options") or "")
        except ValueError as exc:
            raise forms.ValidationError(f"Options: {exc}.") from None

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
        widget=forms.Textarea(attrs={"rows": 4, "placeholder":
                                     "Should we split our monolith into services this year?"}),
        strip=False,
    )
    context = forms.CharField(
        label="Background (optional)", required=False, strip=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder":
                                     "Anything the panel should know: constraints, numbers, "
                                     "history."}),
    )
    # Every registered protocol; blank means the default (the council, registered first).
    protocol = forms.ChoiceField(choices=protocol_choices, initial="council",
                                 required=False, widget=forms.RadioSelect)
    library_personas = forms.MultipleChoiceField(
        label="Personas from your team's library", required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Chosen personas sit on the panel first; the rest are composed.",
    )
    # Files come in request.FILES ("source_files"), stored by the view (docs/web.md,
    # "Sources"); these are the team's library sources, by code.
    library_sources = forms.MultipleChoiceField(
        label="Sources from your team's library", required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="The panel reads these documents and cites their passages.",
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
        self.fields["protocol"].error_messages["invalid_choice"] = (
            f"Unknown protocol '%(value)s'; known protocols: {', '.join(known_protocols())}.")

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
        """Each protocol's radio with its one-line description, from the registry."""
        return [(radio, get_protocol(radio.data["value"]).description)
                for radio in self["protocol"]]

    def clean_question(self) -> str:
        try:
            return clean_question(self.cleaned_data.get("question"))
        except InputError as exc:
            raise forms.ValidationError(f"The question is not usable: {exc}.") from None

    def clean_context(self) -> str:
        text = (self.cleaned_data.get("context") or "").strip()
        if len(text) > MAX_CONTEXT_CHARS:
            raise forms.ValidationError(
                f"The background is {len(text):,} characters long; the limit is "
                f"{MAX_CONTEXT_CHARS:,}.")
        return text

    def clean(self) -> dict[str, Any] | None:
        data = super().clean() or {}
        if "protocol" in data:  # a valid protocol (blank: the council)
            try:
                check_agents(data["protocol"] or "council", data.get("agents"))
            except ValueError as exc:
                self.add_error("agents", f"Agents: {exc}.")
            try:
                check_decision_rule(data["protocol"] or "council", data.get("decision_rule")
                                    or None)
            except ValueError as exc:
                self.add_error("decision_rule", f"Decision rule: {exc}.")
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

    question = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), strip=False)
    context = forms.CharField(
        label="Background", required=False, strip=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Kept from the original; edit it to tell the panel what changed.")
    panel = forms.ChoiceField(
        choices=RerunPanel.CHOICES, initial=RerunPanel.SAME, widget=forms.RadioSelect,
        label="Panel", required=False,
        help_text="The same panel compares like with like (did the new background or the "
                  "objections change their minds?); a fresh one draws new composed members "
                  "(personas your team chose stay either way).")

    keep_sources = forms.MultipleChoiceField(
        label="Sources", required=False, widget=forms.CheckboxSelectMultiple,
        help_text="Untick a source to leave it out; add files or library sources below.")
    library_sources = forms.MultipleChoiceField(
        label="Add sources from your team's library", required=False,
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
            raise forms.ValidationError(f"The question is not usable: {exc}.") from None

    def clean_context(self) -> str:
        if "context" not in self.data:  # a page from before the field: keep the original
            return self.debate.context
        text = (self.cleaned_data.get("context") or "").strip()
        if len(text) > MAX_CONTEXT_CHARS:
            raise forms.ValidationError(
                f"The background is {len(text):,} characters long; the limit is "
                f"{MAX_CONTEXT_CHARS:,}.")
        return text

    def clean_panel(self) -> str:
        return self.cleaned_data.get("panel") or RerunPanel.SAME

    def clean(self) -> dict[str, Any] | None:
        data = super().clean()
        if not self.errors:
            self.build_config(self.debate.settings)
        return data

