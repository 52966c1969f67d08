"""The new-debate and re-run forms: user input in, an engine ``DebateConfig`` out.

Every refusal happens here, before anything is saved: the engine's own checks
(``clean_question``, ``check_model``) and the config's Pydantic validation are
turned into form errors with the engine's wording.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from pydantic import ValidationError

from council_site.accounts.models import Team
from debates.engine.inputs import InputError, check_model, clean_question
from debates.engine.schemas import (
    MAX_AGENTS,
    MAX_ROUNDS,
    MIN_AGENTS,
    MIN_ROUNDS,
    MODE_DEFAULTS,
    DebateConfig,
    Mode,
    Persona,
    SimulatorOptions,
)
from debates.engine.sim_config import simulator_options_from_env
from debates.models import Debate

PROTOCOLS_COMING = [("adversarial", "Adversarial (proposer vs critic)"),
                    ("workflow", "Workflow (researcher, critic, synthesizer)")]
MAX_CONTEXT_CHARS = 20_000


# --------------------------------------------------------------------- persona libraries
#
# The personas app owns libraries; the form only offers their personas, and the
# field stays hidden for a team without any.


def library_persona_choices(team: Team) -> list[tuple[str, list[tuple[str, str]]]]:
    """The usable personas of ``team``'s libraries, grouped by library (the picker
    shows one group per library): [(library name, [(persona code, name), ...]), ...]."""
    from personas.selectors import team_personas

    groups: dict[str, list[tuple[str, str]]] = {}
    for p in team_personas(team=team):
        groups.setdefault(p.library.name, []).append((str(p.code), p.name))
    return list(groups.items())


def library_personas(team: Team, codes: list[str]) -> list[Persona]:
    """The chosen library personas as engine personas, in the order given."""
    from personas.selectors import UnknownPersonas, library_personas_for_debate

    try:
        return library_personas_for_debate(team, codes)
    except UnknownPersonas as exc:
        raise forms.ValidationError(str(exc)) from None


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
    agents = forms.IntegerField(
        required=False, min_value=MIN_AGENTS, max_value=MAX_AGENTS,
        help_text=f"{MIN_AGENTS}–{MAX_AGENTS}; blank = the mode's number.",
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["model"].initial = settings.COUNCIL_MODEL
        self.config: DebateConfig | None = None

    @staticmethod
    def default_config() -> DebateConfig:
        return DebateConfig(model=settings.COUNCIL_MODEL)

    def clean_model(self) -> str:
        try:
            return check_model(self.cleaned_data["model"])
        except InputError as exc:
            raise forms.ValidationError(str(exc)) from None

    def settings_overrides(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "mode": data["mode"],
            # None lets the mode fill the value in (DebateConfig._fill_from_mode).
            "agents": data.get("agents"),
            "max_rounds": data.get("max_rounds"),
            "threshold": data.get("threshold"),
            "model": data["model"],
            "anonymize_peers": bool(data.get("anonymize_peers")),
        }

    def build_config(self, base: dict[str, Any]) -> DebateConfig | None:
        try:
            self.config = DebateConfig.model_validate({**base, **self.settings_overrides()})
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
    # Only the council protocol runs today; the others show as "coming" in the form.
    protocol = forms.ChoiceField(choices=[("council", "Council")], initial="council",
                                 required=False, widget=forms.HiddenInput)
    library_personas = forms.MultipleChoiceField(
        label="Personas from your team's library", required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Chosen personas sit on the panel first; the rest are composed.",
    )

    field_order = ["question", "context", "protocol", "library_personas", "mode", "model",
                   "agents", "max_rounds", "threshold", "anonymize_peers"]

    def __init__(self, *args: Any, team: Team, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.team = team
        self.fields["library_personas"].choices = library_persona_choices(team)
        self.personas: list[Persona] = []

    @property
    def has_library(self) -> bool:
        return bool(self.fields["library_personas"].choices)

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

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        self.personas = library_personas(self.team, data.get("library_personas") or [])
        self.build_config({"simulator": _simulator_defaults(data["model"])})
        if self.config is not None:
            # Each debate is a new draw; the seed it got is recorded with its settings.
            self.config = self.config.with_fresh_seed()
        return data


class RerunForm(SettingsForm):
    """Same or edited settings, prefilled from the parent debate."""

    question = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), strip=False)

    field_order = ["question", "mode", "model", "agents", "max_rounds", "threshold",
                   "anonymize_peers"]

    def __init__(self, *args: Any, debate: Debate, **kwargs: Any) -> None:
        self.debate = debate
        cfg = DebateConfig.model_validate(debate.settings)
        initial = {
            "question": debate.question, "mode": cfg.mode.value, "model": cfg.model,
            "agents": cfg.agents, "max_rounds": cfg.max_rounds, "threshold": cfg.threshold,
            "anonymize_peers": cfg.anonymize_peers,
        }
        initial.update(kwargs.pop("initial", None) or {})
        super().__init__(*args, initial=initial, **kwargs)
        self.fields["model"].initial = cfg.model

    def clean_question(self) -> str:
        try:
            return clean_question(self.cleaned_data.get("question"))
        except InputError as exc:
            raise forms.ValidationError(f"The question is not usable: {exc}.") from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors:
            self.build_config(self.debate.settings)
        return data


def _simulator_defaults(model: str) -> SimulatorOptions:
    """Simulator settings travel with the debate (every worker simulates alike); the
    COUNCIL_SIM_* environment of the web process gives their defaults."""
    if not model.startswith("sim/"):
        return SimulatorOptions()
    try:
        return simulator_options_from_env()
    except ValueError as exc:
        raise forms.ValidationError(f"Simulator settings: {exc}") from None

