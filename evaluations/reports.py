"""An evaluation's questions and report, rebuilt from what is stored."""

from __future__ import annotations

from typing import Any

from debates.engine import (
    EvaluationSpec,
    LabelledSet,
    QuestionOutcome,
    questions_for,
    report_from_outcomes,
    report_json,
)
from evaluations import sets
from evaluations.models import Evaluation, QuestionResult, SetKind


def spec_of(evaluation: Evaluation) -> EvaluationSpec:
    return EvaluationSpec.from_json(evaluation.spec)


def labelled_set(evaluation: Evaluation) -> LabelledSet:
    """The questions the run asks: a generated set rebuilt from its spec (name, size and
    seed fix it), an upload's or the decisions' as stored."""
    if evaluation.set_kind == SetKind.GENERATED:
        return questions_for(spec_of(evaluation))
    return sets.stored_set(evaluation.spec["set_name"], evaluation.questions)


def stored_outcomes(evaluation: Evaluation) -> list[QuestionOutcome]:
    return [QuestionOutcome.from_json(r.outcome)
            for r in QuestionResult.objects.filter(evaluation=evaluation).order_by("position")]


def build_report(evaluation: Evaluation) -> dict[str, Any]:
    """report_json of the stored outcomes (any order, any subset: a run in progress or
    cancelled reports what it has)."""
    labelled = labelled_set(evaluation)
    spec = spec_of(evaluation)
    return report_json(report_from_outcomes(labelled, spec, stored_outcomes(evaluation)))
