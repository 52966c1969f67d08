"""The oracle of the evaluation tests: the arms computed straight from a simulated
population's answers, without the engine. ``manage.py evaluate --sim-accuracy P`` runs
the population through real debates (debates/engine/evaluation/arms.py); its report
must equal this one, and this one must land on the exact values.

``single`` is the first agent's first answer (one agent, one call), ``vote`` the
plurality of the first answers, ``council`` the plurality after cross-examination.
The simulation states no confidence and spends no tokens: Brier and cost stay empty.
"""

from __future__ import annotations

from collections.abc import Sequence

from debates.engine.evaluation.population import SimulatedPopulation, plurality
from debates.engine.evaluation.report import (
    COUNCIL,
    VOTE,
    ArmResult,
    EvaluationReport,
    PairedResult,
)
from debates.engine.evaluation.sets import LabelledSet, Question
from debates.engine.evaluation.stats import accuracy, flips, paired_table

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
