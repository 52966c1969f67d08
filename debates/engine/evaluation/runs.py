"""One evaluation, one question at a time: what a worker runs, stores and resumes from.

A worker (or ``manage.py evaluate``) calls ``evaluate_question`` for each question of
the set and keeps each ``QuestionOutcome`` (plain JSON, ``to_json``/``from_json``), so
a run that stops part-way resumes from the questions it has not stored;
``report_from_outcomes`` turns the stored outcomes into the report, in any order.

This first body answers from the simulated population only (``spec.sim_accuracy``);
the arms that run real debates through the engine replace it behind the same names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .population import BeliefUpdate, SimulatedPopulation, plurality
from .report import COUNCIL, VOTE, ArmResult, EvaluationReport, PairedResult
from .sets import LabelledSet, Question, generate
from .stats import ConfidentAnswer, accuracy, brier_score, flips, paired_table, reliability_table

SINGLE, ADVERSARIAL = "single", "adversarial"
ARMS = (SINGLE, VOTE, COUNCIL, ADVERSARIAL)
DEFAULT_ARMS = (SINGLE, VOTE, COUNCIL)


@dataclass(frozen=True)
class EvaluationSpec:
    """What is measured: which questions, which arms, on which model and panel."""

    set_name: str  # a generated set's name, "upload" or "decisions"
    n: int = 50
    seed: int = 7
    arms: tuple[str, ...] = DEFAULT_ARMS
    agents: int = 3
    model: str = "sim/default"
    sim_accuracy: float | None = None  # set: the simulated population answers
    update: str = "martingale"  # the population's belief update
    strength: float = 0.0  # corrective only
    rounds: int = 1  # the population's cross-examination rounds

    def __post_init__(self) -> None:
        unknown = [a for a in self.arms if a not in ARMS]
        if unknown or not self.arms:
            raise ValueError(f"unknown arms {unknown}; known: {', '.join(ARMS)}")
        if self.sim_accuracy is not None and not 0 <= self.sim_accuracy <= 1:
            raise ValueError(f"sim accuracy {self.sim_accuracy} is not a probability")

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "arms": list(self.arms)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EvaluationSpec:
        return cls(**{**data, "arms": tuple(data.get("arms", DEFAULT_ARMS))})


@dataclass(frozen=True)
class ArmAnswer:
    """One arm's answer to one question and what it cost."""

    answer: str | None  # None: no answer (the arm's calls failed)
    confidence: float | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    seconds: float = 0.0


@dataclass(frozen=True)
class QuestionOutcome:
    question_id: str
    arms: Mapping[str, ArmAnswer]
    note: str = ""  # why an arm has no answer, in words; "" when all answered
    detail: Mapping[str, Any] = field(default_factory=dict)  # e.g. each agent's answers

    def to_json(self) -> dict[str, Any]:
        return {"question_id": self.question_id, "note": self.note,
                "detail": dict(self.detail),
                "arms": {name: asdict(arm) for name, arm in self.arms.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> QuestionOutcome:
        return cls(data["question_id"],
                   {name: ArmAnswer(**arm) for name, arm in data["arms"].items()},
                   data.get("note", ""), data.get("detail", {}))


def questions_for(spec: EvaluationSpec) -> LabelledSet:
    """A generated set's questions (an upload or the decisions are given by the caller)."""
    return generate(spec.set_name, spec.n, spec.seed)


def population_of(spec: EvaluationSpec) -> SimulatedPopulation:
    assert spec.sim_accuracy is not None
    update = BeliefUpdate(spec.update, spec.strength)  # type: ignore[arg-type]
    return SimulatedPopulation(spec.sim_accuracy, spec.agents, update, spec.rounds, spec.seed)


async def evaluate_question(question: Question, spec: EvaluationSpec) -> QuestionOutcome:
    if spec.sim_accuracy is None:
        raise NotImplementedError("only the simulated population answers so far")
    debate = population_of(spec).debate(question)
    answers = {SINGLE: debate.first[0], VOTE: plurality(debate.first),
               COUNCIL: plurality(debate.final)}
    return QuestionOutcome(question.id, {arm: ArmAnswer(answers[arm]) for arm in spec.arms
                                         if arm in answers},
                           detail={"first": list(debate.first), "final": list(debate.final)})


def _arm_result(name: str, pairs: Sequence[tuple[Question, QuestionOutcome]]) -> ArmResult:
    answers = [(q, o.arms[name]) for q, o in pairs if name in o.arms]
    rights = [q.is_right(a.answer) for q, a in answers]
    confident = [ConfidentAnswer(a.confidence, right)
                 for (_, a), right in zip(answers, rights, strict=True)
                 if a.confidence is not None]
    return ArmResult(
        accuracy(rights),
        prompt_tokens=sum(a.prompt_tokens for _, a in answers),
        completion_tokens=sum(a.completion_tokens for _, a in answers),
        cost_usd=sum(a.cost_usd for _, a in answers),
        seconds=sum(a.seconds for _, a in answers),
        brier=brier_score(confident),
        reliability=tuple(reliability_table(confident)) if confident else ())


def report_from_outcomes(labelled: LabelledSet, spec: EvaluationSpec,
                         outcomes: Sequence[QuestionOutcome]) -> EvaluationReport:
    """The report over the questions that have an outcome (a run in progress reports
    what it has); arms in the spec's order."""
    by_id = {o.question_id: o for o in outcomes}
    pairs = [(q, by_id[q.id]) for q in labelled.questions if q.id in by_id]
    arms = {name: _arm_result(name, pairs) for name in spec.arms}
    paired = None
    if COUNCIL in spec.arms and VOTE in spec.arms:
        both = [(q, o) for q, o in pairs if COUNCIL in o.arms and VOTE in o.arms]
        council = [q.canonical(o.arms[COUNCIL].answer) for q, o in both]
        vote = [q.canonical(o.arms[VOTE].answer) for q, o in both]
        answers = [q.answer for q, _ in both]
        paired = PairedResult(
            paired_table([q.is_right(o.arms[COUNCIL].answer) for q, o in both],
                         [q.is_right(o.arms[VOTE].answer) for q, o in both]),
            flips(vote, council, answers))
    settings = {k: v for k, v in spec.to_json().items() if k not in ("set_name", "arms")}
    return EvaluationReport(labelled.name, arms, paired, settings)
