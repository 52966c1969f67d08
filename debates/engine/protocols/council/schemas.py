"""The council's typed shapes (docs/protocols.md 1): what its agents and its synthesis
must return, the metrics its stopping rule reads, and its result. The shapes every
protocol shares (personas, the configuration, turns, the verifier's and the judge's
answers, the result's common head) are the engine's (``debates.engine.schemas``)."""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    Field,
    WithJsonSchema,
    computed_field,
    create_model,
    field_validator,
)

from ...i18n import option_label, translator
from ...points import normalise_items
from ...schemas import (
    Confidence,
    DecisionRule,
    MayCite,
    Mode,
    NonEmpty,
    Persona,
    PersonaText,
    ProtocolResult,
    ResultSummary,
    Severity,
    StopReason,
    Strict,
    decision_options_field,
    text_fields_only,
)
from .change import DebateChange, VoteTally, derive
from .decision import PanelDecision, RuleSource, decide, overturned
from .labels import labels


class ComposedPanel(Strict):
    """The compose step's answer. Its schema offers persona text fields only."""

    personas: list[
        Annotated[
            Persona,
            BeforeValidator(text_fields_only),
            WithJsonSchema(PersonaText.model_json_schema()),
        ]
    ]
    # The options the debate decides between (docs/protocols.md 1.4), extracted in the same
    # call; empty in panels composed before options existed.
    options: list[NonEmpty] = Field(default_factory=list)


@cache
def composed_panel_of(n: int) -> type[ComposedPanel]:
    """The compose answer for a panel of ``n``: the count is in the schema the server is
    sent, so a server that constrains decoding writes ``n`` personas (a small model
    left free wrote none), and an answer without any persona is invalid (repaired,
    else the compose step fails naming it) rather than a panel of nobody. Fewer than
    ``n`` still passes: the report notes the short panel."""
    personas = ComposedPanel.model_fields["personas"]
    assert personas.annotation is not None
    return create_model(
        # The same name: prompts, the simulator and the ledger know the schema by it.
        "ComposedPanel",
        __base__=ComposedPanel,
        personas=(
            personas.annotation,
            Field(min_length=1, json_schema_extra={"minItems": n, "maxItems": n}),
        ),
    )


class Premortem(MayCite):
    failure_scenario: NonEmpty
    root_causes: list[NonEmpty] = Field(min_length=1)
    early_warning_signals: list[NonEmpty] = Field(default_factory=list)


class Position(MayCite):
    stance: NonEmpty
    # One of the debate's options. The model is asked with the options as an enum
    # (verdicts.position_schema); None only in turns stored before verdicts existed.
    verdict: str | None = None
    reasoning: list[NonEmpty] = Field(min_length=1)
    confidence: Confidence
    key_assumptions: list[NonEmpty] = Field(default_factory=list)


class CrossExamination(MayCite):
    concessions: list[NonEmpty] = Field(default_factory=list)
    remaining_disagreements: list[NonEmpty] = Field(default_factory=list)
    updated_position: str | None = None
    updated_verdict: str | None = None  # null = unchanged, carried forward
    updated_confidence: Confidence | None = None
    reflection: NonEmpty
    new_evidence_needed: list[NonEmpty] = Field(default_factory=list)

    @field_validator("remaining_disagreements", "new_evidence_needed", mode="before")
    @classmethod
    def _items_may_cite(cls, value: Any) -> Any:
        # Citations may come as "[D3] text", "(d3): text" or {"text", "cites"}: stored
        # in one form, "[D3] text", so every reader sees plain strings (points.py).
        return normalise_items(value)

    @field_validator("updated_position")
    @classmethod
    def _blank_is_unchanged(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    @field_validator("updated_confidence", mode="before")
    @classmethod
    def _unreadable_confidence_is_unchanged(cls, value: Any) -> Any:
        # A grammar cannot bound a number (llama.cpp's and node-llama-cpp's bound only
        # its shape): SmolLM2-135M wrote 2.0, 3 and 3.033 and lost the whole turn, its
        # concessions and points with it, to a repair that failed the same way. An
        # update outside 0-1 says nothing about the scale meant: the confidence stays.
        if isinstance(value, int | float) and not isinstance(value, bool) and not 0 <= value <= 1:
            return None
        return value


class Attack(Strict):
    """One line of the devil's advocate's case against the leading view."""

    claim: NonEmpty
    # What would have to be true for the claim to sink the leading view: the test a
    # panel member's answer can meet or fail.
    would_have_to_be_true: NonEmpty


class Challenge(Strict):
    """The devil's advocate's answer (deep mode, docs/protocols.md 1.7a): the strongest
    case against the leading view. Its verdict field is one of the debate's options in
    the schema sent (``verdicts.challenge_schema``)."""

    target_verdict: str
    attacks: list[Attack] = Field(min_length=1)


class ChallengeAnswer(Strict):
    """One agent's answer to the challenge: its verdict after it (the same one to hold),
    its confidence, an answer to each attack in order, and a concession when it moves."""

    verdict: str
    confidence: Confidence
    answers: list[NonEmpty] = Field(min_length=1)
    concession: str | None = None

    @field_validator("concession")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None


class RiskStatus(StrEnum):
    MITIGATED = "mitigated"
    PARTIALLY = "partially"
    OPEN = "open"


class AgentView(Strict):
    agent: NonEmpty
    view: NonEmpty


class TopicDisagreement(Strict):
    topic: NonEmpty
    views: list[AgentView] = Field(min_length=1)


class RiskFollowUp(Strict):
    risk_id: NonEmpty
    status: RiskStatus
    note: str = ""


class RecommendedPath(Strict):
    stakes: NonEmpty
    strongest_evidence: NonEmpty
    weakest_evidence: NonEmpty
    path_dependencies: list[NonEmpty] = Field(default_factory=list)
    recommendation: NonEmpty
    risks: list[NonEmpty] = Field(default_factory=list)


class DivergenceReport(Strict):
    summary: NonEmpty
    camps: list[AgentView] = Field(min_length=1)
    what_would_resolve_it: list[NonEmpty] = Field(default_factory=list)


class SynthesisNarrative(MayCite):
    """The LLM's share of the synthesis; the rest is computed by code."""

    consensus_points: list[NonEmpty] = Field(default_factory=list)
    disagreements: list[TopicDisagreement] = Field(default_factory=list)
    recommended_path: RecommendedPath | None = None
    divergence_report: DivergenceReport | None = None
    risk_follow_up: list[RiskFollowUp] = Field(default_factory=list)


class RoundDecision(StrEnum):
    """What the stop rule said after a round when it did not stop the debate (a stop
    is a ``StopReason``); round 0 has no decision."""

    NONE = "-"
    CONTINUE = "continue"


class RoundMetrics(BaseModel):
    round: int
    # Agents live in this round: those whose own turn succeeded.
    active_agents: int
    # Agents the mean and dispersion are over: every agent that took a position, a
    # failed one with its last confidence carried forward (docs/protocols.md 1.6). None in
    # results stored before that, when it was the same as active_agents.
    counted_agents: int | None = None
    mean_confidence: float
    dispersion: float
    confidence_delta: float | None = None
    concessions: int | None = None
    new_arguments: int | None = None
    # Share of counted agents on the most common verdict, which option that is (None
    # on a tie) and the whole split; None when no agent gave a verdict.
    agreement: float | None = None
    leading_verdict: str | None = None
    verdict_counts: dict[str, int] | None = None
    decision: RoundDecision | StopReason = RoundDecision.NONE
    stop_reason: StopReason | None = None
    explanation: str = ""


class DiagnosticLabel(StrEnum):
    HEALTHY_DOUBT = "healthy_doubt"
    GENUINE_CONVERGENCE = "genuine_convergence"
    FALSE_CONSENSUS_RISK = "false_consensus_risk"
    POLARIZATION = "polarization"
    MIXED = "mixed"
    # Drew together, yet verdicts stay split or the spread stays wide (not in 1.8's
    # table: there it read as convergence next to a "genuine disagreement" stop).
    STILL_APART = "still_apart"


class Diagnostic(BaseModel):
    label: DiagnosticLabel
    mean_before: float
    mean_after: float
    dispersion_before: float
    dispersion_after: float
    mean_trend: Literal["rose", "fell", "stable"]
    dispersion_trend: Literal["widened", "narrowed", "stable"]
    # What the wording rests on besides the trends; None in results stored before.
    largest_move: float | None = None  # the largest change of one agent's confidence
    agreement_after: float | None = None  # verdict agreement in the last round
    dispersion_limit: float | None = None  # the stopping rule's disagreement limit


class ClusteredItem(BaseModel):
    id: str
    text: str
    raised_by: list[str]
    severity: Severity | None = None
    follow_up: RiskStatus | None = None
    follow_up_note: str = ""


class VerdictSplit(BaseModel):
    """How the counted agents' verdicts fall on the options at one moment."""

    counts: dict[str, int]  # option -> agents, in the options' order, zeros left out
    of: int
    supporters: int  # agents on the most common verdict
    leading: str | None  # that verdict; None when two options tie
    agreement: float  # supporters / of


class AgentResult(BaseModel):
    index: int
    persona: Persona
    model: str
    initial_stance: str | None = None
    initial_confidence: float | None = None
    final_stance: str | None = None
    final_confidence: float | None = None
    key_assumptions: list[str] = Field(default_factory=list)
    confidence_by_round: list[float | None] = Field(default_factory=list)
    initial_verdict: str | None = None
    final_verdict: str | None = None
    verdict_by_round: list[str | None] = Field(default_factory=list)
    # Whether the final verdict is the leading one (None: not live at the end, or no
    # verdict leads).
    in_final_majority: bool | None = None
    failed_in: str | None = None


class Compaction(BaseModel):
    """A prompt that was shortened to fit its model's context, and how far."""

    step: str
    agent: str | None = None
    level: int


class MovedAgent(BaseModel):
    """An agent who left the independent plurality during the debate, and why in its
    own words (docs/protocols.md 1.9, "The decision rule")."""

    agent: str
    from_verdict: str  # the independent vote's plurality, this agent's first verdict
    to_verdict: str | None  # its final verdict (None: none usable)
    # Its concessions, every round's in order: the reasons it gave for moving.
    concessions: list[str] = Field(default_factory=list)
    final_stance: str | None = None


class ChallengeResponse(BaseModel):
    """How one agent answered the challenge."""

    agent: str
    verdict_before: str | None  # its verdict after the last round
    verdict_after: str | None  # after the challenge (None: its answer failed, kept)
    confidence_before: float | None = None
    confidence_after: float | None = None
    answers: list[str] = Field(default_factory=list)
    concession: str | None = None
    moved: bool = False  # left the target verdict for another
    failed: bool = False  # its answer failed: its verdict is carried forward


class ChallengeRecord(BaseModel):
    """The deep mode's challenge round (docs/protocols.md 1.7a): whether it ran, and if
    so the devil's advocate's case, every agent's answer and who moved."""

    ran: bool
    # Why it did not run (no leading view, or the advocate's call failed), in the
    # debate's language; "" when it ran.
    skipped: str = ""
    target_verdict: str | None = None
    attacks: list[Attack] = Field(default_factory=list)
    responses: list[ChallengeResponse] = Field(default_factory=list)
    model: str | None = None

    @property
    def movers(self) -> list[ChallengeResponse]:
        return [r for r in self.responses if r.moved]

    @property
    def survived(self) -> bool:
        """Whether the leading view came through: it ran and nobody left it."""
        return self.ran and not self.movers


class DebateResult(ProtocolResult):
    mode: Mode
    agents: list[AgentResult]
    rounds_completed: int
    stop_reason: StopReason
    stop_explanation: str
    metrics: list[RoundMetrics]
    diagnostic: Diagnostic
    options: list[str] = decision_options_field()
    # The verdict split before the debate (round 0, the baseline answer) and at the end.
    verdicts_before: VerdictSplit | None = None
    verdicts_after: VerdictSplit | None = None
    pre_positional_risks: list[ClusteredItem]
    post_positional_concerns: list[ClusteredItem]
    disagreements: list[TopicDisagreement]
    consensus_points: list[str]
    recommended_path: RecommendedPath | None
    divergence_report: DivergenceReport | None
    compactions: list[Compaction] = Field(default_factory=list)
    # Which vote the recommendation follows and why (docs/protocols.md 1.9, "The
    # decision rule"); a result stored before rules existed followed the debate.
    decision_rule: DecisionRule = DecisionRule.DEBATE
    decision_rule_source: RuleSource = RuleSource.STORED_BEFORE
    # When the debate overturned the independent plurality: the agents who left it,
    # with their concessions (empty otherwise).
    overturn_movers: list[MovedAgent] = Field(default_factory=list)
    # Deep mode's challenge round (docs/protocols.md 1.7a); None in other modes and in
    # results stored before it existed. The final verdicts above are read after it.
    challenge: ChallengeRecord | None = None

    json_head = ("question", "language", "protocol", "mode", "config", "prompt_version",
                 "simulated")
    json_tail = (*ProtocolResult.json_tail, "compactions")

    @computed_field(  # type: ignore[prop-decorator]
        description="The options as the debate's language writes them, in the same "
        "order: the fixed ones (for, against, conditional) translated, named ones as "
        "given. `options` and the verdicts keep the identifiers.")
    @property
    def option_labels(self) -> list[str]:
        t = translator(self.language)
        return [option_label(option, t) for option in self.options]

    @computed_field(  # type: ignore[prop-decorator]
        description="What the debate changed: the plurality of the independent "
        "positions (round 0) against the final one, and whether the debate flipped it; "
        "null when no agent gave a verdict.")
    @property
    def debate_change(self) -> DebateChange | None:
        return derive(self)

    @computed_field(  # type: ignore[prop-decorator]
        description="The panel's independent vote: the plurality of the positions "
        "(round 0), taken before any agent saw another's; null when no agent gave a "
        "verdict.")
    @property
    def independent_vote(self) -> VoteTally | None:
        change = self.debate_change
        return change.first if change else None

    @computed_field(  # type: ignore[prop-decorator]
        description="The panel's final vote: the plurality of the final verdicts, "
        "after cross-examination; null when no agent gave a verdict.")
    @property
    def final_vote(self) -> VoteTally | None:
        change = self.debate_change
        return change.final if change else None

    @computed_field(  # type: ignore[prop-decorator]
        description="The option the recommendation follows under `decision_rule` "
        "(vote, debate or confidence), its tally, any tie and how it was broken.")
    @property
    def decision(self) -> PanelDecision:
        return decide(self.decision_rule, self.decision_rule_source, self.options,
                      self.independent_vote, self.final_vote,
                      [(a.initial_verdict, a.initial_confidence) for a in self.agents],
                      labels(self.language))

    @computed_field(  # type: ignore[prop-decorator]
        description="Whether the debate overturned the independent vote: it had a "
        "plurality and the final vote's differs (or ties). Flagged for review, with "
        "`overturn_movers`.")
    @property
    def overturned(self) -> bool:
        return overturned(self.independent_vote, self.final_vote, self.rounds_completed)

    def summarize(self) -> ResultSummary:
        path, report = self.recommended_path, self.divergence_report
        return ResultSummary(
            protocol=self.protocol, stop_reason=self.stop_reason.value,
            stop_explanation=self.stop_explanation,
            decision=path.recommendation if path else None,
            divergence=report.summary if report else None,
            degraded=self.degraded, simulated=self.simulated)
