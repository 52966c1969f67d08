"""One evaluation, one question at a time: what a worker runs, stores and resumes from.

A worker (or ``manage.py evaluate``) calls ``evaluate_question`` for each question of
the set and keeps each ``QuestionOutcome`` (plain JSON, ``to_json``/``from_json``), so
a run that stops part-way resumes from the questions it has not stored;
``report_from_outcomes`` turns the stored outcomes into the report, in any order.

Every arm comes from debates the engine runs (docs/engine.md, "Evaluation harness"):
one council debate per question gives ``single`` (agent 0's round-0 position),
``vote`` (the plurality of the round-0 positions), ``council`` (the plurality of the
final verdicts) and ``synthesis`` (the synthesis's recommendation); ``adversarial``
is one adversarial debate per free-number question. With ``spec.panel_models`` a
second council debate per question seats those models round-robin and gives the mixed
arms, ``mixed_vote`` and ``mixed_council`` (docs/engine.md, "The mixed arms"). With
``spec.sim_accuracy`` the debates run on the simulated model, their agents scripted to
answer what the simulated population says, so the whole path is exercised against
known accuracies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..llm.capabilities import is_simulated
from ..prompts import PROMPT_VERSION
from ..schemas import MAX_AGENTS, MIN_AGENTS
from .arms import Read, adversarial_reading, council_reading, one_model_of
from .population import BeliefUpdate, SimulatedPopulation
from .report import (
    COUNCIL,
    MIXED_COUNCIL,
    MIXED_VOTE,
    VOTE,
    ArmResult,
    EvaluationReport,
    PairedResult,
)
from .sets import LabelledSet, Question, generate
from .stats import (
    ConfidentAnswer,
    accuracy,
    brier_score,
    flips,
    paired_table,
    reliability_table,
    total_cost,
)

SINGLE, ADVERSARIAL = "single", "adversarial"
# The council's ``confidence`` decision rule on the independent positions (votes.py).
CONFIDENCE = "confidence"
# The mixed arms read a second council debate, its seats on the panel's models: each
# mixed arm and the reading of that debate it is.
MIXED_ARMS = {MIXED_VOTE: VOTE, MIXED_COUNCIL: COUNCIL}
ARMS = (SINGLE, VOTE, CONFIDENCE, COUNCIL, MIXED_VOTE, MIXED_COUNCIL, ADVERSARIAL)
DEFAULT_ARMS = (SINGLE, VOTE, COUNCIL)
# Reported whenever the council runs, after it: the synthesis's recommendation.
SYNTHESIS = "synthesis"
# The arms one council debate answers.
COUNCIL_ARMS = (SINGLE, VOTE, CONFIDENCE, COUNCIL)


UPDATES = ("martingale", "corrective", "herding")


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
    strength: float = 0.0  # corrective and herding
    rounds: int = 1  # the population's cross-examination rounds
    correctors: int = 0  # the population's last agents, who never look at a peer
    correction: float = 0.0  # a corrector's chance of adopting the right answer
    # One a seat; with ``panel_models``, one a listed model; empty: ``sim_accuracy`` for
    # every agent.
    sim_accuracies: tuple[float, ...] = ()
    # The mixed arms' panel, seated round-robin; empty: no mixed arm.
    panel_models: tuple[str, ...] = ()
    # The simulated mixed panel's herding weight for a peer on another model.
    cross_herding: float = 0.5

    def __post_init__(self) -> None:
        unknown = [a for a in self.arms if a not in ARMS]
        if unknown or not self.arms:
            raise ValueError(f"unknown arms {unknown}; known: {', '.join(ARMS)}")
        if self.sim_accuracy is not None and not 0 <= self.sim_accuracy <= 1:
            raise ValueError(f"sim accuracy {self.sim_accuracy} is not a probability")
        if self.update not in UPDATES:
            raise ValueError(f"unknown update {self.update!r}; known: {', '.join(UPDATES)}")
        BeliefUpdate(self.update, self.strength,  # type: ignore[arg-type]  # checks them
                     correctors=self.correctors, correction=self.correction)
        self._check_panel_models()
        if self.sim_accuracy is not None:
            population_of(self)  # checks the accuracies against the panel
            if self.panel_models:
                mixed_population_of(self)
        if self.rounds < 0:
            raise ValueError("the rounds must not be negative")
        if not MIN_AGENTS <= self.agents <= MAX_AGENTS:
            raise ValueError(f"{self.agents} agents; a debate has {MIN_AGENTS} to {MAX_AGENTS}")

    def _check_panel_models(self) -> None:
        mixed = [a for a in self.arms if a in MIXED_ARMS]
        if mixed and len(set(self.panel_models)) < 2:
            raise ValueError(f"{', '.join(mixed)} need a panel of at least two different "
                             "models (panel models a,b)")
        if self.panel_models and not mixed:
            raise ValueError("panel models are read only by the mixed arms: ask for "
                             f"{' or '.join(MIXED_ARMS)}")
        if len(self.panel_models) > self.agents:
            raise ValueError(f"{len(self.panel_models)} panel models for {self.agents} agents")
        if not 0 <= self.cross_herding <= 1:
            raise ValueError(f"cross-model herding {self.cross_herding} is not a probability")
        if self.sim_accuracy is not None:
            real = [m for m in self.panel_models if not is_simulated(m)]
            if real:
                raise ValueError("a simulated population runs on simulated models (sim/a, "
                                 f"sim/b ...), not {', '.join(real)}")
            if self.panel_models and self.sim_accuracies and \
                    len(self.sim_accuracies) != len(self.panel_models):
                raise ValueError(f"{len(self.sim_accuracies)} accuracies for "
                                 f"{len(self.panel_models)} panel models (one a model)")

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "arms": list(self.arms),
                "sim_accuracies": list(self.sim_accuracies),
                "panel_models": list(self.panel_models)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EvaluationSpec:
        return cls(**{**data, "arms": tuple(data.get("arms", DEFAULT_ARMS)),
                      "sim_accuracies": tuple(data.get("sim_accuracies", ())),
                      "panel_models": tuple(data.get("panel_models", ()))})


@dataclass(frozen=True)
class ArmAnswer:
    """One arm's answer to one question and what it cost."""

    answer: str | None  # None: no answer (the arm's calls failed)
    confidence: float | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0  # None: unknown (a model without a price), not $0
    seconds: float = 0.0


@dataclass(frozen=True)
class QuestionOutcome:
    question_id: str
    arms: Mapping[str, ArmAnswer]
    note: str = ""  # why an arm has no answer, in words; "" when all answered
    detail: Mapping[str, Any] = field(default_factory=dict)  # e.g. each agent's answers
    # The prompts' wording the debates used (PROMPT_VERSION): a run resumed after a
    # deploy may span versions, and the report says so. "" when not recorded (an
    # outcome stored before this field, or a question that failed before any prompt).
    prompt_version: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"question_id": self.question_id, "note": self.note,
                "detail": dict(self.detail), "prompt_version": self.prompt_version,
                "arms": {name: asdict(arm) for name, arm in self.arms.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> QuestionOutcome:
        return cls(data["question_id"],
                   {name: ArmAnswer(**arm) for name, arm in data["arms"].items()},
                   data.get("note", ""), data.get("detail", {}),
                   data.get("prompt_version", ""))


def questions_for(spec: EvaluationSpec) -> LabelledSet:
    """A generated set's questions (an upload or the decisions are given by the caller)."""
    return generate(spec.set_name, spec.n, spec.seed)


def _update_of(spec: EvaluationSpec) -> BeliefUpdate:
    return BeliefUpdate(spec.update, spec.strength,  # type: ignore[arg-type]
                        correctors=spec.correctors, correction=spec.correction)


def model_accuracies(spec: EvaluationSpec) -> tuple[float, ...]:
    """With panel models on a simulated population: each listed model's accuracy."""
    assert spec.sim_accuracy is not None
    return spec.sim_accuracies or (spec.sim_accuracy,) * len(spec.panel_models)


def population_of(spec: EvaluationSpec) -> SimulatedPopulation:
    """The one-model panel's population; with panel models, copies of the first
    listed model (its accuracy on every seat)."""
    assert spec.sim_accuracy is not None
    if spec.panel_models:
        return SimulatedPopulation(model_accuracies(spec)[0], spec.agents, _update_of(spec),
                                   spec.rounds, spec.seed)
    return SimulatedPopulation(spec.sim_accuracy, spec.agents, _update_of(spec), spec.rounds,
                               spec.seed, accuracies=spec.sim_accuracies)


def mixed_population_of(spec: EvaluationSpec) -> SimulatedPopulation:
    """The mixed panel's population: seat i on listed model i mod k, at that model's
    accuracy, herding on a peer of another model at ``cross_herding``'s weight. The
    same seed as the one-model panel's: the same draws, so the two differ only by the
    seats' profiles (docs/engine.md, "The mixed arms")."""
    assert spec.sim_accuracy is not None and spec.panel_models
    per_model = model_accuracies(spec)
    k = len(spec.panel_models)
    return SimulatedPopulation(
        spec.sim_accuracy, spec.agents, _update_of(spec), spec.rounds, spec.seed,
        accuracies=tuple(per_model[i % k] for i in range(spec.agents)),
        models=tuple(spec.panel_models[i % k] for i in range(spec.agents)),
        cross_herding=spec.cross_herding)


def arm_models(spec: EvaluationSpec, arm: str) -> tuple[str, ...]:
    """The models an arm's answers come from, one a seat for a mixed arm."""
    if arm in MIXED_ARMS:
        k = len(spec.panel_models)
        return tuple(spec.panel_models[i % k] for i in range(spec.agents))
    if arm == ADVERSARIAL:
        return (spec.model,)
    return (one_model_of(spec),)


async def evaluate_question(question: Question, spec: EvaluationSpec) -> QuestionOutcome:
    """Runs the debates ``spec``'s arms read, for one question; never raises for a
    debate that fails (its arms have no answer, ``note`` says why)."""
    population = population_of(spec) if spec.sim_accuracy is not None else None
    simulated = population.debate(question) if population is not None else None
    arms: dict[str, ArmAnswer] = {}
    notes: list[str] = []
    detail: dict[str, Any] = {}
    if any(arm in spec.arms for arm in COUNCIL_ARMS):
        reading = await council_reading(question, spec, simulated, population)
        wanted = [arm for arm in COUNCIL_ARMS if arm in spec.arms]
        if COUNCIL in spec.arms:
            wanted.append(SYNTHESIS)
        arms.update({arm: _arm_answer(reading.arms[arm]) for arm in wanted})
        notes += reading.notes
        notes += [f"{arm}: {reading.arms[arm].note}" for arm in wanted if reading.arms[arm].note]
        detail.update(reading.detail)
    if ADVERSARIAL in spec.arms and question.is_numeric:
        if simulated is not None:
            # The population models a panel's answers, not a proposer refining one.
            notes.append("adversarial: not run on a simulated population")
        else:
            read = await adversarial_reading(question, spec)
            arms[ADVERSARIAL] = _arm_answer(read)
            if read.note:
                notes.append(f"adversarial: {read.note}")
    if simulated is not None:
        detail["population"] = {"first": list(simulated.first), "final": list(simulated.final)}
    if any(arm in spec.arms for arm in MIXED_ARMS):
        await _mixed_arms(question, spec, arms, notes, detail)
    return QuestionOutcome(question.id, arms, "; ".join(notes), detail, PROMPT_VERSION)


async def _mixed_arms(question: Question, spec: EvaluationSpec, arms: dict[str, ArmAnswer],
                      notes: list[str], detail: dict[str, Any]) -> None:
    """The second debate, its seats on the panel's models: the mixed arms' answers,
    its notes prefixed "mixed", its detail (each seat's model too) under "mixed"."""
    population = mixed_population_of(spec) if spec.sim_accuracy is not None else None
    simulated = population.debate(question) if population is not None else None
    reading = await council_reading(question, spec, simulated, population,
                                    panel_models=spec.panel_models)
    wanted = [arm for arm in MIXED_ARMS if arm in spec.arms]
    arms.update({arm: _arm_answer(reading.arms[MIXED_ARMS[arm]]) for arm in wanted})
    notes += [f"mixed: {note}" for note in reading.notes]
    notes += [f"{arm}: {reading.arms[MIXED_ARMS[arm]].note}" for arm in wanted
              if reading.arms[MIXED_ARMS[arm]].note]
    detail["mixed"] = dict(reading.detail)
    if simulated is not None:
        detail["mixed"]["population"] = {"first": list(simulated.first),
                                         "final": list(simulated.final)}


def _arm_answer(read: Read) -> ArmAnswer:
    c = read.costs
    return ArmAnswer(read.answer, read.confidence, c.prompt_tokens, c.completion_tokens,
                     c.cost_usd, c.seconds)


def reported_arms(spec: EvaluationSpec) -> tuple[str, ...]:
    """The spec's arms in its order, the synthesis after the council."""
    arms: list[str] = []
    for arm in spec.arms:
        arms.append(arm)
        if arm == COUNCIL:
            arms.append(SYNTHESIS)
    return tuple(arms)


def _arm_result(name: str, pairs: Sequence[tuple[Question, QuestionOutcome]],
                models: tuple[str, ...] = ()) -> ArmResult:
    answers = [(q, o.arms[name]) for q, o in pairs if name in o.arms]
    rights = [q.is_right(a.answer) for q, a in answers]
    confident = [ConfidentAnswer(a.confidence, right)
                 for (_, a), right in zip(answers, rights, strict=True)
                 if a.confidence is not None]
    return ArmResult(
        accuracy(rights),
        prompt_tokens=sum(a.prompt_tokens for _, a in answers),
        completion_tokens=sum(a.completion_tokens for _, a in answers),
        cost_usd=total_cost(a.cost_usd for _, a in answers),
        seconds=sum(a.seconds for _, a in answers),
        brier=brier_score(confident),
        reliability=tuple(reliability_table(confident)) if confident else (),
        models=models)


# The paired comparisons the mixed arms add, when both arms were asked for: each
# debate against its own vote, and each mixed arm against its one-model arm.
MIXED_PAIRS = ((MIXED_COUNCIL, MIXED_VOTE), (MIXED_COUNCIL, COUNCIL), (MIXED_VOTE, VOTE))


def _paired(first: str, second: str, pairs: Sequence[tuple[Question, QuestionOutcome]]
            ) -> PairedResult:
    both = [(q, o) for q, o in pairs if first in o.arms and second in o.arms]
    firsts = [q.canonical(o.arms[first].answer) for q, o in both]
    seconds = [q.canonical(o.arms[second].answer) for q, o in both]
    answers = [q.answer for q, _ in both]
    return PairedResult(
        paired_table([q.is_right(o.arms[first].answer) for q, o in both],
                     [q.is_right(o.arms[second].answer) for q, o in both]),
        flips(seconds, firsts, answers), first, second)


def report_from_outcomes(labelled: LabelledSet, spec: EvaluationSpec,
                         outcomes: Sequence[QuestionOutcome]) -> EvaluationReport:
    """The report over the questions that have an outcome (a run in progress reports
    what it has); arms in the spec's order, each naming its models."""
    by_id = {o.question_id: o for o in outcomes}
    pairs = [(q, by_id[q.id]) for q in labelled.questions if q.id in by_id]
    arms = {name: _arm_result(name, pairs, arm_models(spec, name))
            for name in reported_arms(spec)}
    paired = _paired(COUNCIL, VOTE, pairs) if COUNCIL in spec.arms and VOTE in spec.arms \
        else None
    more = tuple(_paired(first, second, pairs) for first, second in MIXED_PAIRS
                 if first in spec.arms and second in spec.arms)
    settings = {k: v for k, v in spec.to_json().items() if k not in ("set_name", "arms")}
    versions = Counter(o.prompt_version for _, o in pairs if o.prompt_version)
    return EvaluationReport(labelled.name, arms, paired, settings, more,
                            dict(sorted(versions.items())))
