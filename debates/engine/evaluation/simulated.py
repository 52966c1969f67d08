"""The arms run on a simulated population, end to end: what ``--sim-accuracy P`` will
print, and the check that the whole harness lands on the exact values.

``single`` is the first agent's first answer (one agent, one call), ``vote`` the
plurality of the first answers, ``council`` the plurality after cross-examination.
The simulation states no confidence and spends no tokens: Brier and cost stay empty.
"""

from __future__ import annotations

from collections.abc import Sequence

from .population import SimulatedPopulation, plurality
from .report import COUNCIL, VOTE, ArmResult, EvaluationReport, PairedResult
from .sets import LabelledSet, Question
from .stats import accuracy, flips, paired_table

SINGLE = "single"


def _rights(given: Sequence[str | None], questions: Sequence[Question]) -> list[bool]:
    return [q.is_right(g) for g, q in zip(given, questions, strict=True)]


def simulated_report(labelled: LabelledSet, population: SimulatedPopulation) -> EvaluationReport:
    debates = [population.debate(q) for q in labelled.questions]
    questions, answers = labelled.questions, [q.answer for q in labelled.questions]
    single = [d.first[0] for d in debates]
    vote = [plurality(d.first) for d in debates]
    council = [plurality(d.final) for d in debates]
    council_right, vote_right = _rights(council, questions), _rights(vote, questions)
    arms = {
        SINGLE: ArmResult(accuracy(_rights(single, questions))),
        VOTE: ArmResult(accuracy(vote_right)),
        COUNCIL: ArmResult(accuracy(council_right)),
    }
    paired = PairedResult(paired_table(council_right, vote_right),
                          flips(vote, council, answers))
    settings = {"sim_accuracy": population.accuracy, "agents": population.agents,
                "update": population.update.kind, "strength": population.update.strength,
                "rounds": population.rounds, "seed": population.seed}
    return EvaluationReport(labelled.name, arms, paired, settings)
