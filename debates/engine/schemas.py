"""Typed shapes every protocol shares: personas, a debate's configuration, its phases
and stored turns, the call ledger, the verifier's and the judge's answers, and the head
every result has (``ProtocolResult``). A protocol's own shapes are in its package
(``protocols/council/schemas.py``, ...).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from enum import StrEnum
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    computed_field,
    create_model,
    field_validator,
    model_serializer,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import core_schema

from .loading import plugins_needed

NonEmpty = Annotated[str, Field(min_length=1)]
# How answers are constrained (docs/models.md); ``auto`` picks per model.
OutputMode = Literal["json_schema", "json_object", "tools", "prompt"]
ModeSetting = Literal["auto", "json_schema", "json_object", "tools", "prompt"]
Confidence = Annotated[float, Field(ge=0.0, le=1.0)]


class Strict(BaseModel):
    """Unknown fields are rejected: a typo in a persona file must not pass silently."""

    model_config = ConfigDict(extra="forbid")


# The field a turn that may cite lists the passage ids it rests on in (docs/engine.md,
# "Sources"): a small model that writes no "[S1.2] "quote"" still names its passages.
PASSAGES_FIELD = "passages"
PASSAGES_DESCRIPTION = ("ids of the source passages this answer rests on, e.g. "
                        "[\"S1.2\", \"S2.5\"]; [] when none")


def _passage_ids(value: Any) -> Any:
    # A small model writes "S1.2, S1.5", ["[S1.2]"] or a number: read, never refused
    # (a turn is not lost to its list of ids); the evidence check reads the ids.
    if value is None:
        return []
    if isinstance(value, str):
        value = re.split(r"[,;\s]+", value)
    if not isinstance(value, list):
        value = [value]
    return [text for item in value if (text := str(item).strip())]


PassageIds = Annotated[list[str], BeforeValidator(_passage_ids)]


class MayCite(Strict):
    """A turn that may rest on the debate's sources. Its ``passages`` field is asked
    for only when the debate has sources (``citing``): hidden from the schema and left
    out of a dump otherwise, so a debate without sources is asked what it was before."""

    passages: SkipJsonSchema[PassageIds] = Field(default_factory=list, exclude=True)


@cache
def citing(schema: type[BaseModel]) -> type[BaseModel]:
    """``schema`` with its ``passages`` field asked for and kept, under the same name
    (prompts, the simulator and the ledger know a schema by it); a schema that cannot
    cite as it is."""
    if not issubclass(schema, MayCite):
        return schema
    model: type[BaseModel] = create_model(
        schema.__name__, __base__=schema, __module__=schema.__module__,
        passages=(PassageIds, Field(default_factory=list, description=PASSAGES_DESCRIPTION)))
    return model


# --------------------------------------------------------------------------- LLM outputs


# Persona field limits. Every way a persona enters (files, forms, API, composed by an
# LLM) validates this model, so these are the one place the limits live: a name fits a
# table cell, a description a paragraph; a 12-agent panel then stays far below any
# context window (12 x 4 x 2,000 characters is under 30k tokens).
PERSONA_NAME_MAX = 80
PERSONA_TEXT_MAX = 2_000
PERSONA_MODEL_MAX = 200
PersonaField = Annotated[str, Field(min_length=1, max_length=PERSONA_TEXT_MAX)]


class PersonaText(Strict):
    """What a model may write about a persona: text, never settings."""

    name: Annotated[str, Field(min_length=1, max_length=PERSONA_NAME_MAX)]
    background: PersonaField
    expertise: PersonaField
    approach: PersonaField
    bias: PersonaField

    @field_validator("name", "background", "expertise", "approach", "bias")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("must not be blank")
        return value


class Persona(PersonaText):
    """A panel member. ``model`` and ``temperature`` come from the user (persona files,
    libraries), never from a model's output."""

    model: Annotated[str, Field(max_length=PERSONA_MODEL_MAX)] | None = None
    temperature: Annotated[float, Field(ge=0.0, le=2.0)] | None = None


PERSONA_TEXT_FIELDS = tuple(PersonaText.model_fields)


def text_fields_only(value: Any) -> Any:
    # A model that fills every optional field (or invents one) must not choose which
    # model runs: whatever is not persona text is dropped before validation.
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k in PERSONA_TEXT_FIELDS}
    return value


class ClaimType(StrEnum):
    PRICE = "price"
    STATISTIC = "statistic"
    DATE = "date"
    AVAILABILITY = "availability"
    PRODUCT_BEHAVIOUR = "product_behaviour"
    OTHER = "other"


class UnverifiedClaim(Strict):
    quote: NonEmpty
    type: ClaimType
    why: NonEmpty


class VerifierReport(Strict):
    claims: list[UnverifiedClaim] = Field(default_factory=list)


class JudgeGrade(Strict):
    """The optional judge's grade of a synthesis (docs/engine.md, "Content checks")."""

    grade: Literal["good", "fair", "poor"]
    reason: NonEmpty


# --------------------------------------------------------------------------- configuration


class Mode(StrEnum):
    QUICK = "quick"
    MEDIUM = "medium"
    DEEP = "deep"


class ModeDefaults(BaseModel):
    agents: int
    threshold: float
    max_rounds: int


MODE_DEFAULTS: dict[Mode, ModeDefaults] = {
    Mode.QUICK: ModeDefaults(agents=3, threshold=0.15, max_rounds=2),
    Mode.MEDIUM: ModeDefaults(agents=5, threshold=0.10, max_rounds=4),
    Mode.DEEP: ModeDefaults(agents=7, threshold=0.08, max_rounds=4),
}

class DecisionRule(StrEnum):
    """Which vote a council's recommendation follows (docs/protocols.md 1.9, "The
    decision rule"): the independent positions' plurality, the final plurality after
    cross-examination, or a vote of the independent positions weighted by each
    agent's confidence rank within that round."""

    VOTE = "vote"
    DEBATE = "debate"
    CONFIDENCE = "confidence"


MIN_AGENTS, MAX_AGENTS = 2, 12
MIN_ROUNDS, MAX_ROUNDS = 1, 10
MAX_QUESTION_CHARS = 20_000


class SimulatorOptions(Strict):
    """Settings of the built-in simulated model, carried with the debate so every
    worker process simulates the same way. Environment variables give the defaults."""

    latency_ms: Annotated[int, Field(ge=0)] = 0
    faults: dict[str, Annotated[float, Field(ge=0.0, le=1.0)]] = Field(default_factory=dict)
    script: dict[str, Any] | None = None
    seed: int = 0


class DebateConfig(Strict):
    """Every setting of one debate; recorded with the result for reproducibility.

    Plain data: validating one checks types and ranges only, so loading a stored
    config asks no registry. Settings as a user gives them (mode defaults to fill in,
    options to parse, a protocol name and its options to check) become a config
    through ``configure.resolve_config``; ``agents``, ``threshold`` and ``max_rounds``
    are None only before that."""

    # A registered protocol's name (checked by configure.resolve_config).
    protocol: str = "council"
    # Settings only one protocol reads (e.g. the adversarial protocol's team-defined
    # domains); that protocol validates them.
    protocol_options: dict[str, Any] = Field(default_factory=dict)
    mode: Mode = Mode.MEDIUM
    agents: Annotated[int, Field(ge=MIN_AGENTS, le=MAX_AGENTS)] | None = None
    threshold: Annotated[float, Field(gt=0.0, lt=1.0)] | None = None
    max_rounds: Annotated[int, Field(ge=MIN_ROUNDS, le=MAX_ROUNDS)] | None = None
    model: str = "sim/default"
    # A mixed panel: models given, round-robin by seat, to the agents whose persona names
    # none (docs/engine.md, "Mixed panels"). Stored only when set, so configs stored
    # before it dump as they were.
    panel_models: list[Annotated[str, Field(min_length=1, max_length=PERSONA_MODEL_MAX)]] = \
        Field(default_factory=list, max_length=MAX_AGENTS, exclude_if=lambda value: not value)
    phase_models: dict[str, str] = Field(default_factory=dict)
    fallback_model: str | None = None
    temperature: Annotated[float, Field(ge=0.0, le=2.0)] = 0.7
    seed: int = 7
    anonymize_peers: bool = False
    concurrency: Annotated[int, Field(ge=1, le=32)] = 8
    call_timeout_s: Annotated[float, Field(gt=0)] = 120.0
    # Per attempt on a local server (Ollama, llama.cpp, a loopback api_base ...).
    local_call_timeout_s: Annotated[float, Field(gt=0)] = 60.0
    # Wall time of one turn over all its attempts; blank = attempt timeout x (1 + retries).
    turn_budget_s: Annotated[float, Field(gt=0)] | None = None
    # How answers are constrained; auto picks per model (see docs/models.md).
    output_mode: ModeSetting = "auto"
    max_retries: Annotated[int, Field(ge=0, le=6)] = 2
    retry_backoff_s: Annotated[float, Field(ge=0.0, le=30.0)] = 0.5
    novelty_threshold: Annotated[float, Field(gt=0.0, le=1.0)] = 0.5
    # The options verdicts choose from, as the user fixed them; None = automatic (the
    # compose call's, else derived from the question).
    options: list[str] | None = None
    context_limit_tokens: Annotated[int, Field(ge=512)] | None = None
    simulator: SimulatorOptions = Field(default_factory=SimulatorOptions)
    # A model that grades the synthesis after the verifier (docs/engine.md, "Content
    # checks"); None = no judge, no extra call.
    # Configs stored before the judge existed dump as they were stored: the key appears
    # only when a judge is set.
    judge_model: Annotated[str, Field(min_length=1, max_length=PERSONA_MODEL_MAX)] | None = \
        Field(default=None, exclude_if=lambda value: value is None)
    # Which vote the recommendation follows (a protocol with a vote: the council);
    # None = the default: ``vote`` when every agent runs one model, ``debate`` when the
    # panel's models differ (docs/protocols.md 1.9). Stored configs dump as before.
    decision_rule: DecisionRule | None = Field(default=None,
                                               exclude_if=lambda value: value is None)

    @property
    def n_agents(self) -> int:
        assert self.agents is not None
        return self.agents

    @property
    def convergence_threshold(self) -> float:
        assert self.threshold is not None
        return self.threshold

    @property
    def round_cap(self) -> int:
        assert self.max_rounds is not None
        return self.max_rounds

    def model_for(self, phase: str, persona: Persona | None = None, agent: int = -1) -> str:
        """The model a call of ``phase`` goes to: the judge's, else the persona's own,
        else seat ``agent``'s panel model, else the phase's, else the debate's."""
        if phase == Phase.JUDGE.value and self.judge_model:
            return self.judge_model
        if persona is not None and persona.model:
            return persona.model
        if agent >= 0 and self.panel_models:
            return self.panel_models[agent % len(self.panel_models)]
        return self.phase_models.get(phase, self.model)

    def seated(self, personas: Sequence[Persona]) -> list[Persona]:
        """``personas`` with the panel's models given to those that name none, by seat,
        so every page, ledger and call sees each agent's model on its persona."""
        if not self.panel_models:
            return list(personas)
        return [p if p.model else p.model_copy(update={
            "model": self.panel_models[i % len(self.panel_models)]})
            for i, p in enumerate(personas)]

    def is_mixed(self, personas: Sequence[Persona]) -> bool:
        """Whether the panel's agents answer on more than one model: peers are then
        anonymised and see arguments, not tallies (docs/engine.md, "Mixed panels")."""
        return len({p.model or self.model for p in self.seated(personas)}) > 1

    def with_fresh_seed(self) -> DebateConfig:
        """A copy with a new random seed (model and simulator alike): a new debate or
        a re-run should be a new draw, and the seed it got is recorded for replays."""
        seed = secrets.randbelow(2**31)
        return self.model_copy(update={
            "seed": seed, "simulator": self.simulator.model_copy(update={"seed": seed})})


# --------------------------------------------------------------------------- stored state


class Phase(str):
    """The phase of a step: a name each protocol registers for its own steps
    (``Phase.register``), so a protocol from a plugin brings phases of its own. Stored
    turns and ledger rows keep the plain name; reading one back accepts only a
    registered name. The same name registered twice is the same phase."""

    __slots__ = ()
    _registered: ClassVar[dict[str, Phase]] = {}

    # The phases every protocol shares; each protocol registers its own in its package
    # (``protocols/<name>/phases.py``) and lists its steps' order (``DebateProtocol.phases``).
    SYNTHESIS: ClassVar[Phase]
    VERIFY: ClassVar[Phase]
    JUDGE: ClassVar[Phase]

    def __new__(cls, name: str) -> Phase:
        phase = cls._registered.get(str(name))
        if phase is None:
            plugins_needed()  # a plugin's protocol registers its phases when it loads
            phase = cls._registered.get(str(name))
        if phase is None:
            raise ValueError(f"unknown phase {name!r} "
                             f"(registered: {', '.join(cls._registered)})")
        return phase

    @classmethod
    def register(cls, name: str) -> Phase:
        """The phase called ``name``, registered on first use (a snake_case word)."""
        if not (name.replace("_", "").isalpha() and name.islower()) or len(name) > 20:
            raise ValueError(f"a phase is a lower-case snake_case name of at most 20 "
                             f"characters, not {name!r}")
        if name not in cls._registered:
            cls._registered[name] = str.__new__(cls, name)
        return cls._registered[name]

    @classmethod
    def registered(cls) -> list[Phase]:
        """Every phase, in the order it was registered."""
        return list(cls._registered.values())

    @property
    def value(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Phase({str(self)!r})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        return core_schema.no_info_after_validator_function(
            cls, core_schema.str_schema(),
            serialization=core_schema.plain_serializer_function_ser_schema(str, when_used="json"))

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: Any) -> dict[str, Any]:
        return {"type": "string", "enum": [str(p) for p in cls.registered()]}


Phase.SYNTHESIS = Phase.register("synthesis")
Phase.VERIFY = Phase.register("verify")
Phase.JUDGE = Phase.register("judge")


class TurnStatus(StrEnum):
    OK = "ok"
    FAILED = "failed"


class Turn(BaseModel):
    """One agent output (or its recorded failure). ``agent`` is -1 for panel-wide calls."""

    phase: Phase
    round: int = 0
    agent: int = -1
    status: TurnStatus = TurnStatus.OK
    payload: dict[str, Any] | None = None
    error: str | None = None
    model: str | None = None
    # How far the prompt was shortened to fit the context (0 = not at all).
    compaction: int = 0
    # The ids of the source passages the call was shown (docs/engine.md, "Sources").
    offered: list[str] = Field(default_factory=list)
    # The payload's text fields cut at the bound the server was sent, by path (each
    # ends in "…"; docs/models.md, "Text bounds from the context").
    cut: list[str] = Field(default_factory=list)
    # None: no content repair asked; True: the payload is the repaired answer; False:
    # one was asked and did not give what was missing (docs/engine.md, "Content checks").
    repaired: bool | None = None

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.phase.value, self.round, self.agent)


class CallRecord(BaseModel):
    """One attempt at one LLM call: the ledger row."""

    phase: Phase
    round: int = 0
    agent: int = -1
    attempt: int
    # "superseded": a paid answer to a turn another delivery of the step had already
    # stored (a worker that lost its lease); kept in the ledger, never used.
    purpose: Literal["call", "repair", "superseded"] = "call"
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Of the prompt tokens, those the provider's prompt cache served (priced lower).
    cached_prompt_tokens: int = 0
    cost_usd: float | None = None
    latency_ms: int = 0
    ok: bool
    error_class: str | None = None
    error: str | None = None


class StopReason(StrEnum):
    CONVERGED = "converged"
    GENUINE_DISAGREEMENT = "genuine_disagreement"
    DIMINISHING_RETURNS = "diminishing_returns"
    MAX_ROUNDS = "max_rounds"
    STOPPED_BY_USER = "stopped_by_user"


class EngineEventKind(StrEnum):
    """What an ``EngineEvent`` reports (hooks.EngineEvent)."""

    STEP_STARTED = "step_started"
    TURN_COMPLETED = "turn_completed"
    TURN_FAILED = "turn_failed"
    STEP_COMPLETED = "step_completed"


# --------------------------------------------------------------------------- result


class Severity(StrEnum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class Usage(BaseModel):
    calls: int = 0
    failed_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True
    wall_time_s: float = 0.0
    # Of the prompt tokens, those served from a provider's prompt cache.
    cached_prompt_tokens: int = 0


# Every value a result summary's stop_reason takes (docs/api.md, "The result summary"):
class Quality(StrEnum):
    """Whether a result's words carry content (docs/engine.md, "Content checks").
    Convergence measures agreement; this says whether there was anything to agree on."""

    SOUND = "sound"
    DOUBTFUL = "doubtful"
    UNUSABLE = "unusable"


class QualityReason(BaseModel):
    """One content check that fired: which rule, where, and the text that tripped it."""

    rule: str = Field(description="The rule's name, e.g. degenerate_text.digit_run.")
    severity: Literal["doubtful", "unusable"]
    where: str = Field(description="Where it fired, in words: a turn, a field, the synthesis.")
    evidence: str = Field(description="The offending text or figures, shortened.")
    # The turn it fired on, for markers on the transcript; None for debate-wide rules.
    phase: str | None = None
    round: int | None = None
    agent: int | None = None


# the council and the adversarial protocol stop on a StopReason; the workflow runs fixed
# phases and ends on its convergence check instead.
SummaryStopReason = Literal[
    "converged", "genuine_disagreement", "diminishing_returns", "max_rounds",
    "stopped_by_user", "partially_converged", "divergent"]


class ResultSummary(BaseModel):
    """The same few fields at the top of every protocol's result, so a reader (an agent,
    the list, an export) need not know each protocol's shape to learn how it ended."""

    protocol: str
    stop_reason: SummaryStopReason = Field(description=(
        "How the debate ended. converged: the panel (or proposer and critic) agree; "
        "genuine_disagreement: stable camps, read divergence; diminishing_returns or "
        "max_rounds: no clean convergence, the decision is tentative; stopped_by_user: "
        "cut short; workflow only: converged, partially_converged or divergent."))
    stop_explanation: str
    decision: str | None = Field(description=(
        "What the debate recommends (council: recommended_path.recommendation; "
        "adversarial: final_solution; workflow: the synthesis summary). Null when the "
        "panel genuinely disagrees: then divergence says why."))
    divergence: str | None = Field(description=(
        "Why there is no single recommendation (council: divergence_report.summary; "
        "workflow: the remaining tension when divergent); null when there is a decision."))
    degraded: bool = Field(description="Calls failed or fell back: a weaker result.")
    simulated: bool = Field(description="No real model answered: never advice.")
    quality: Quality = Field(default=Quality.SOUND, description=(
        "Read this first. sound: the content checks found nothing; doubtful: some turns or "
        "the synthesis look like noise, read with care; unusable: the words carry no "
        "content, act on nothing here. quality_reasons says which rule fired where."))
    quality_reasons: list[QualityReason] = Field(default_factory=list)


def _schema_with_summary(schema: dict[str, Any]) -> None:
    """The result's JSON schema lists its computed ``summary`` (a validation-mode
    schema leaves computed fields out; the serializer's ``Any`` hides everything in
    serialization mode), first, as the JSON has it."""
    summary = {**_inline_refs(ResultSummary.model_json_schema()), "readOnly": True}
    schema["properties"] = {"summary": summary, **schema.get("properties", {})}


def _inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its own ``$defs`` written in place of each reference: nested in
    another model's schema, a "#/$defs/..." reference would point at the outer one's."""
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                rest = {k: v for k, v in node.items() if k != "$ref"}
                return {**inline(defs[ref.removeprefix("#/$defs/")]), **rest}
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return inline(schema)


class CheckedCitation(BaseModel):
    """One citation of a passage in an answer, checked against the passage's text
    (docs/engine.md, "Sources")."""

    passage: str  # "S2.14"
    quote: str  # the words quoted ("" when none were)
    where: str  # the step and who cited it, as the report names them
    agent: int = -1  # -1: a panel-wide call (the synthesis)
    known: bool  # the id names a passage of the debate's sources
    # The quote is in that passage (whitespace, case, punctuation and a typo aside); for
    # an id given in the passages field, that the passage exists.
    found: bool
    offered: bool  # the passage had been shown to whoever cited it
    # How the passage was cited: "cited" ([S1.2] "quote"), "listed" (its id in the
    # turn's passages field), "quoted" (a quote without an id, found in it), "copied"
    # (a figure or five words copied from it alone, counted as used, not as a
    # citation). Results stored before read as cited.
    way: Literal["cited", "listed", "quoted", "copied"] = "cited"


class EvidenceUse(BaseModel):
    """A passage cited with a quote found in it, and who cited it."""

    passage: str
    source: str  # the title of its source
    quotes: list[str] = Field(default_factory=list)
    cited_by: list[str] = Field(default_factory=list)


class PassageOffer(BaseModel):
    """The passages one call was shown: its step, who made it, the passage ids."""

    where: str
    agent: int = -1
    passages: list[str] = Field(default_factory=list)


class EvidenceReport(BaseModel):
    """What the panel's answers rest on in the debate's sources: every citation
    checked, the passages used and contested, the synthesis's claims that cite none,
    and how many of the passages cited had been shown to whoever cited them."""

    sources: list[str] = Field(default_factory=list)  # "S1: title", in order
    passages: int = 0
    citations: list[CheckedCitation] = Field(default_factory=list)
    used: list[EvidenceUse] = Field(default_factory=list)
    contested: list[EvidenceUse] = Field(default_factory=list)
    unsupported_claims: list[str] = Field(default_factory=list)
    # Distinct (who cited, passage) pairs, and those whose passage was offered to them.
    cited_pairs: int = 0
    offered_pairs: int = 0
    # What each call was shown, in the order the debate ran (Turn.offered).
    offers: list[PassageOffer] = Field(default_factory=list)

    @property
    def offered_share(self) -> float | None:
        return self.offered_pairs / self.cited_pairs if self.cited_pairs else None

    @property
    def not_found(self) -> list[CheckedCitation]:
        return [c for c in self.citations if not (c.known and c.found)]


class ContentRepair(BaseModel):
    """An answer that lacked what its step must hold (a synthesis without its decision)
    and got one repair call (docs/engine.md, "Content checks")."""

    step: str = Field(description="The turn repaired, in words.")
    taken: bool = Field(description=(
        "Whether the repaired answer is the one used; false: it still lacked it and "
        "the first answer was kept."))


class ProtocolResult(BaseModel):
    """What every protocol's typed result holds: the question and settings it ran with,
    and the verifier, degradation and usage that close it.

    The JSON keeps the key order the results had before they shared this base: the
    head fields first (``json_head``), the protocol's own fields, then the shared tail
    (``json_tail``), so stored results and exports keep their shape."""

    question: str
    language: str
    protocol: str
    config: DebateConfig
    prompt_version: str
    simulated: bool
    unverified_claims: list[UnverifiedClaim]
    verifier_ok: bool
    degraded: bool
    degraded_notes: list[str]
    synthesis_model: str
    usage: Usage
    # Filled by the content checks when the debate closes; results stored before them
    # load as sound with no reasons.
    quality: Quality = Quality.SOUND
    quality_reasons: list[QualityReason] = Field(default_factory=list)
    # The sources' evidence (None: the debate had no sources).
    evidence: EvidenceReport | None = None
    # Every content repair the debate made; left out of the JSON when there was none,
    # so results read as they did before repairs.
    repairs: list[ContentRepair] = Field(default_factory=list,
                                         exclude_if=lambda value: not value)

    model_config = ConfigDict(json_schema_extra=_schema_with_summary)

    json_head: ClassVar[tuple[str, ...]] = (
        "question", "language", "protocol", "config", "prompt_version", "simulated")
    json_tail: ClassVar[tuple[str, ...]] = (
        "unverified_claims", "verifier_ok", "degraded", "degraded_notes", "synthesis_model",
        "usage", "repairs", "quality", "quality_reasons")

    @computed_field(  # type: ignore[prop-decorator]
        description="How the debate ended, in the same fields under every protocol.")
    @property
    def summary(self) -> ResultSummary:
        return self.summarize().model_copy(update={
            "quality": self.quality, "quality_reasons": self.quality_reasons})

    def summarize(self) -> ResultSummary:
        """The protocol's reading of its own result (``summary``)."""
        raise NotImplementedError

    @model_serializer(mode="wrap")
    def _in_json_order(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if not isinstance(data, dict):
            return data
        # The summary first: it is what a reader needs before anything else.
        summary = {"summary": data.pop("summary")} if "summary" in data else {}
        head = {k: data.pop(k) for k in self.json_head if k in data}
        tail = {k: data.pop(k) for k in self.json_tail if k in data}
        # After the protocol's own fields; left out of a debate without sources, whose
        # result reads as it did before there were any.
        evidence = data.pop("evidence", None)
        more = {"evidence": evidence} if evidence is not None else {}
        return {**summary, **head, **data, **more, **tail}


# What a decision on a debate names (record_decision's ``option``), on every protocol's
# result: the options given, else the composed ones (council), else those the question
# names, else for, against, conditional.
DECISION_OPTIONS = "The options a decision on this debate can name (record_decision's option)."


def decision_options_field() -> Any:
    return Field(default_factory=list, description=DECISION_OPTIONS)


class CallTag(BaseModel):
    """Which turn a call belongs to; copied into every ledger record."""

    phase: Phase
    round: int = 0
    agent: int = -1
    agent_name: str | None = None
