"""Writes on debates. Keyword-only and typed; they refuse illegal transitions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from pydantic import ValidationError

from accounts.models import Team
from audit.services import record
from debates import event_log, signals
from debates.debate_sources import DebateSourceError, debate_sources
from debates.engine import (
    PROMPT_VERSION,
    DebateConfig,
    DebateState,
    InputError,
    Persona,
    Phase,
    SimulatorOptions,
    check_decision_rule,
    check_model,
    clean_question,
    get_protocol,
    is_simulated,
    resolve_config,
    simulator_options_from_env,
)
from debates.estimates import Estimate, debate_models, estimate, estimate_more_round
from debates.limits import MORE_ROUND_EVENT, check_can_spend
from debates.models import (
    ACTIVE_STATUSES,
    Agent,
    Debate,
    DebateStatus,
    EarlierSynthesis,
    Synthesis,
)
from debates.models import Turn as TurnRow
from debates.persona_sources import PersonaSourceError, persona_source
from debates.runtime.execution import store_usage
from debates.runtime.queue import enqueue_step
from debates.runtime.state_rows import load_state, snapshot_agents

MAX_CONTEXT_CHARS = 20_000


class IllegalTransition(Exception):
    pass


# ------------------------------------------------------------------------ starting a debate


@dataclass(frozen=True, kw_only=True)
class DebateSpec:
    """What a caller asks for. Every way in (form, API, re-run, CLI --save) builds one
    and hands it to ``debate_start``, which fills in what is left open.

    A setting left None comes from ``base`` when it has it, else the default:
    ``model`` COUNCIL_MODEL, ``fallback_model`` COUNCIL_FALLBACK_MODEL, ``simulator``
    the COUNCIL_SIM_* environment (when a simulated model takes part), ``seed`` a
    fresh draw, and agents, rounds and threshold the mode's. ``base`` holds stored
    settings to start from (a re-run's parent, a ready ``DebateConfig``); an explicit
    None in it stays None (a re-run's cleared field takes the mode's value).
    """

    question: str
    context: str = ""
    mode: str | None = None
    protocol: str | None = None  # a registered protocol's name; None = the default
    model: str | None = None
    # A mixed panel's models, by seat; None = the debate's model for every agent.
    panel_models: Sequence[str] | None = None
    agents: int | None = None
    max_rounds: int | None = None
    threshold: float | None = None
    anonymize_peers: bool | None = None
    # The options verdicts choose from; None = automatic (compose, else the question).
    options: Sequence[str] | None = None
    phase_models: Mapping[str, str] | None = None
    fallback_model: str | None = None
    seed: int | None = None
    simulator: SimulatorOptions | None = None
    # Which vote the council's recommendation follows; None = the default
    # (docs/protocols.md 1.9, "The decision rule").
    decision_rule: str | None = None
    personas: Sequence[Persona] = ()
    # Codes of the team's library personas; they sit on the panel after ``personas``.
    library_personas: Sequence[str] = ()
    # Codes of the team's sources (a source: its current version; a version: that one),
    # in order: S1, S2... (docs/web.md, "Sources").
    sources: Sequence[str] = ()
    base: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DebatePlan:
    """A spec checked and completed: what ``debate_start`` saves if the limits allow."""

    question: str
    context: str
    config: DebateConfig
    personas: list[Persona]
    # The library persona each given persona came from (None for inline ones).
    sources: list[str | None]
    estimate: Estimate

    @property
    def simulated(self) -> bool:
        """Only when no call costs money: a simulated default model with personas on
        real models is a paid debate, and its cost must show."""
        return self.estimate.price == "simulated"


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {err['msg']}" if where else err["msg"]


def _invalid_config(exc: ValidationError) -> InputError:
    """A setting the config refused, named as the API names it (its first part)."""
    loc = exc.errors()[0]["loc"]
    return InputError(_first_error(exc), field=str(loc[0]) if loc else None)


def _model_fields(config: DebateConfig) -> dict[str, str]:
    """Which input set each model of ``config`` (the API's and the form's names)."""
    fields = {model: "synthesis_model" for model in config.phase_models.values()}
    fields.update({model: "panel_models" for model in config.panel_models})
    if config.fallback_model:
        fields[config.fallback_model] = "fallback_model"
    if config.judge_model:
        fields[config.judge_model] = "judge_model"
    return {**fields, config.model: "model"}


def _library_personas(team: Team, codes: Sequence[str]) -> list[Persona]:
    # The personas app sits above debates and registers itself as the source.
    try:
        return persona_source().resolve(team=team, codes=list(codes))
    except PersonaSourceError as exc:
        raise InputError(str(exc), field="personas") from None


def _config(spec: DebateSpec, personas: Sequence[Persona]) -> DebateConfig:
    given = {
        "mode": spec.mode, "protocol": spec.protocol, "model": spec.model,
        "panel_models": list(spec.panel_models) if spec.panel_models is not None else None,
        "agents": spec.agents,
        "max_rounds": spec.max_rounds, "threshold": spec.threshold,
        "anonymize_peers": spec.anonymize_peers,
        "options": list(spec.options) if spec.options is not None else None,
        "phase_models": dict(spec.phase_models) if spec.phase_models is not None else None,
        "fallback_model": spec.fallback_model,
        "decision_rule": spec.decision_rule,
    }
    raw = {**spec.base, **{k: v for k, v in given.items() if v is not None}}
    try:
        check_decision_rule(raw.get("protocol") or "council", raw.get("decision_rule"))
    except ValueError as exc:
        raise InputError(str(exc), field="decision_rule") from None
    raw.setdefault("model", settings.COUNCIL_MODEL)
    raw.setdefault("fallback_model", getattr(settings, "COUNCIL_FALLBACK_MODEL", None))
    raw.pop("seed", None)  # the spec's seed or a fresh one, below
    if spec.simulator is not None:
        raw["simulator"] = spec.simulator.model_dump()
    try:
        config = resolve_config(raw)
    except ValidationError as exc:
        raise _invalid_config(exc) from None
    fields = _model_fields(config)
    for model in debate_models(config, personas):
        # A model none of the settings names is a persona's own.
        check_model(model, field=fields.get(model, "personas"))
    if "simulator" not in raw and any(is_simulated(m) for m in debate_models(config, personas)):
        # Simulator settings travel with the debate (every worker simulates alike).
        try:
            config = config.model_copy(update={"simulator": simulator_options_from_env()})
        except ValueError as exc:
            raise InputError(f"Simulator settings: {exc}") from None
    if spec.seed is None:
        # Each debate is a new draw; the seed it got is recorded with its settings.
        return config.with_fresh_seed()
    return config.model_copy(update={
        "seed": spec.seed, "simulator": config.simulator.model_copy(update={"seed": spec.seed})})


def plan_debate(*, team: Team, spec: DebateSpec) -> DebatePlan:
    """Checks and completes ``spec`` without saving anything; ``InputError`` (with a
    message for the user) on bad input."""
    question = clean_question(spec.question)
    context = (spec.context or "").strip()
    if len(context) > MAX_CONTEXT_CHARS:
        raise InputError(f"the background is {len(context):,} characters long; the limit is "
                         f"{MAX_CONTEXT_CHARS:,}", field="context")
    library = _library_personas(team, spec.library_personas) if spec.library_personas else []
    personas = [*spec.personas, *library]
    if len({p.name.casefold() for p in personas}) != len(personas):
        raise InputError("two given personas share a name", field="personas")
    config = _config(spec, personas)
    try:
        source_chars = debate_sources().chars_of(team=team, codes=list(spec.sources))
    except DebateSourceError as exc:
        raise InputError(str(exc), field="sources") from None
    return DebatePlan(
        question=question, context=context, config=config, personas=personas,
        sources=[None] * len(spec.personas) + [str(c) for c in spec.library_personas],
        estimate=estimate(config, text_chars=len(question) + len(context), personas=personas,
                          source_chars=source_chars),
    )


def debate_start(
    *,
    team: Team,
    user: User | None,
    spec: DebateSpec,
    parent: Debate | None = None,
    start: bool = True,
) -> Debate:
    """The one way a debate is created: checks the spec, then (in one transaction,
    the team row locked) the team's limits, saves the debate with its agents linked
    to their library personas, and queues its first step when that commits. A
    refusal (``InputError``, ``LimitExceeded``) leaves nothing saved or queued."""
    plan = plan_debate(team=team, spec=spec)
    with transaction.atomic():
        # Counting the team's debates and inserting this one form one critical
        # section: check_can_spend locks the team row until this block commits.
        check_can_spend(team=team, user=user, estimated_cost_usd=plan.estimate.cost_usd,
                        unpriced_models=plan.estimate.unpriced_models)
        debate = Debate.objects.create(
            team=team,
            created_by=user,
            parent=parent,
            question=plan.question,
            context=plan.context,
            protocol=plan.config.protocol,
            mode=plan.config.mode.value,
            settings=plan.config.model_dump(mode="json"),
            given_personas=[p.model_dump(mode="json", exclude_none=True)
                            for p in plan.personas],
            prompt_version=PROMPT_VERSION,
            simulated=plan.simulated,
            estimated_cost_usd=plan.estimate.cost_usd,
        )
        snapshot_agents(debate, load_state(debate))
        for index, source in enumerate(plan.sources):
            if source is not None:
                Agent.objects.filter(debate=debate, index=index).update(
                    source_persona_id=source)
        if spec.sources:
            try:
                debate_sources().attach(debate=debate, codes=list(spec.sources))
            except DebateSourceError as exc:  # rolls the debate back with it
                raise InputError(str(exc), field="sources") from None
        event_log.append(debate, "debate_created", {"status": debate.status})
        record("debate.rerun" if parent else "debate.create", debate, user=user,
               data={"parent": str(parent.code)} if parent else {})
        if start:
            enqueue_step(debate)
    return debate


def debate_create(
    *,
    team: Team,
    user: User | None,
    question: str,
    config: DebateConfig,
    context: str = "",
    personas: list[Persona] | None = None,
    parent: Debate | None = None,
    start: bool = True,
) -> Debate:
    """``debate_start`` with every setting pinned by a ready ``DebateConfig`` (its
    seed, simulator and fallback model included): for tests and tools."""
    return debate_start(team=team, user=user, parent=parent, start=start, spec=DebateSpec(
        question=question, context=context, personas=personas or [],
        base=config.model_dump(mode="json"), seed=config.seed,
    ))


@transaction.atomic
def debate_cancel(*, debate: Debate, user: User | None = None) -> Debate:
    """Cancels a queued or running debate; the event names who did (the page says so)."""
    updated = Debate.objects.filter(pk=debate.pk, status__in=ACTIVE_STATUSES).update(
        status=DebateStatus.CANCELLED, finished_at=timezone.now(), current_step=""
    )
    if not updated:
        raise IllegalTransition(f"a {debate.status} debate cannot be cancelled")
    # What it has spent so far counts; a worker still in a step adds what follows.
    store_usage(debate)
    event_log.append(debate, "debate_cancelled", {"by": user.get_username()} if user else {})
    record("debate.cancel", debate, user=user)
    signals.debate_cancelled.send(Debate, debate=debate)
    debate.refresh_from_db()
    return debate


@transaction.atomic
def debate_stop(*, debate: Debate) -> Debate:
    """Stop debating and synthesise what there is ("stopped_by_user")."""
    updated = Debate.objects.filter(pk=debate.pk, status__in=ACTIVE_STATUSES).update(
        stop_requested=True
    )
    if not updated:
        raise IllegalTransition(f"a {debate.status} debate cannot be stopped")
    event_log.append(debate, "stop_requested", {})
    record("debate.stop", debate)
    debate.refresh_from_db()
    return debate


def more_round_estimate(*, debate: Debate, state: DebateState | None = None) -> Estimate:
    """What one more round on the finished ``debate`` would add: a round by the agents
    still taking part, each at its own model, then a new synthesis and verifier."""
    state = state or load_state(debate)
    protocol = get_protocol(state.config.protocol)
    personas = [state.personas[i] for i in protocol.more_round_agents(state)]
    return estimate_more_round(state.config, round_number=protocol.rounds_run(state) + 1,
                               personas=personas,
                               text_chars=len(debate.question) + len(debate.context),
                               source_chars=debate_sources().chars(debate=debate))


@transaction.atomic
def debate_more_round(*, debate: Debate, user: User | None = None) -> Debate:
    """Exactly one more cross-examination round after a finished debate, then a new
    synthesis; the current one is kept as an earlier version. It spends like a new
    debate, so the team's limits apply first: the round counts against the rate limit,
    its estimate against the cost cap (with what the debate has cost already) and
    the monthly budget; a refusal (``LimitExceeded``) changes and queues nothing."""
    debate = Debate.objects.select_for_update().get(pk=debate.pk)
    if debate.status != DebateStatus.SUCCEEDED:
        raise IllegalTransition("only a finished debate can have one more round")
    state = load_state(debate)
    protocol = get_protocol(state.config.protocol)
    if not protocol.more_rounds:
        raise IllegalTransition(
            f"the {state.config.protocol} protocol offers no more round")
    extra = more_round_estimate(debate=debate, state=state)
    check_can_spend(team=debate.team, user=user, estimated_cost_usd=extra.cost_usd,
                    debate_cost_usd=debate.cost_usd, what="one more round",
                    unpriced_models=extra.unpriced_models)
    rounds_run = protocol.rounds_run(state)
    protocol.request_more_round(state)
    TurnRow.objects.filter(
        debate=debate, phase__in=[Phase.SYNTHESIS.value, Phase.VERIFY.value, Phase.JUDGE.value]
    ).delete()
    # The synthesis no longer describes the debate, but it is what the team read (and
    # commented on): it stays as an earlier version.
    for old in Synthesis.objects.filter(debate=debate):
        EarlierSynthesis.objects.create(debate=debate, result=old.result,
                                        created_at=old.created_at, rounds_completed=rounds_run)
        old.delete()
    debate.forced_rounds = state.forced_rounds
    debate.stop_requested = False
    debate.status = DebateStatus.QUEUED
    debate.stop_reason = ""
    debate.stop_explanation = ""
    debate.finished_at = None
    # While it runs again, the debate reserves what it cost plus the round's estimate
    # against the monthly budget (debates.limits.team_month_spend).
    debate.estimated_cost_usd = (None if extra.cost_usd is None
                                 else debate.cost_usd + extra.cost_usd)
    debate.save()
    event_log.append(debate, MORE_ROUND_EVENT, {"round": state.forced_rounds})
    record("debate.more_round", debate, user=user, data={"round": state.forced_rounds})
    enqueue_step(debate)
    return debate


class RerunPanel:
    """Who sits on a re-run's panel."""

    # Every member of the parent's panel again, composed ones included: the default, so
    # "was the objection answered?" compares like with like.
    SAME = "same"
    # The personas the team chose stay; the composed members are drawn anew.
    FRESH = "fresh"
    CHOICES = ((SAME, "The same panel"), (FRESH, "A fresh panel"))


def rerun_personas(debate: Debate, panel: str) -> tuple[list[Persona], list[str | None]]:
    """The personas a re-run starts with, and the library persona each came from."""
    if panel not in (RerunPanel.SAME, RerunPanel.FRESH):
        raise InputError(f"unknown panel choice {panel!r}; expected same or fresh",
                         field="panel")
    given = [Persona.model_validate(p) for p in debate.given_personas]
    agents = list(debate.agents.order_by("index"))
    sources = {a.index: str(a.source_persona_id) if a.source_persona_id else None
               for a in agents}
    # Only a protocol that composes its panel has members beyond the given personas.
    composed = get_protocol(debate.protocol).composes_panel and len(agents) > len(given)
    if panel == RerunPanel.FRESH or not composed:
        return given, [sources.get(i) for i in range(len(given))]
    return ([Persona.model_validate(a.persona) for a in agents],
            [sources.get(a.index) for a in agents])


def debate_rerun(
    *, debate: Debate, user: User | None, overrides: dict[str, Any] | None = None,
    question: str | None = None, context: str | None = None, panel: str = RerunPanel.SAME,
    sources: Sequence[str] | None = None,
) -> Debate:
    """A new debate with the same (or edited) settings, question and background, linked
    to its parent, with the same panel (``panel="same"``, the default) or the composed
    members drawn anew (``"fresh"``). It gets a fresh seed unless ``overrides`` pins
    one: a re-run is a new draw. It keeps the parent's sources (the same versions)
    unless ``sources`` lists others (codes as ``DebateSpec.sources``)."""
    overrides = dict(overrides or {})
    seed = overrides.pop("seed", None)
    personas, persona_sources = rerun_personas(debate, panel)
    spec = DebateSpec(
        question=question if question is not None else debate.question,
        context=context if context is not None else debate.context,
        personas=personas,
        base={**debate.settings, **overrides}, seed=seed,
        sources=debate_sources().codes(debate=debate) if sources is None else sources,
    )
    with transaction.atomic():
        rerun = debate_start(team=debate.team, user=user, spec=spec, parent=debate)
        # Library usage figures follow the personas into the re-run.
        for index, source in enumerate(persona_sources):
            if source is not None:
                rerun.agents.filter(index=index).update(source_persona_id=source)
    return rerun
