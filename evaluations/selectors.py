"""Reads on evaluations, always scoped to a team (or to one evaluation the caller may
read, through evaluations.access)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from accounts.models import Team
from debates.engine import QuestionOutcome
from evaluations.models import Evaluation, QuestionResult
from evaluations.reports import build_report, labelled_set


def evaluation_list(*, team: Team) -> QuerySet[Evaluation]:
    return Evaluation.objects.filter(team=team).select_related("created_by").defer(
        "questions", "report")


def evaluation_report(evaluation: Evaluation) -> dict[str, Any] | None:
    """The stored report once the run ended; while it runs, the report so far (rebuilt
    from the stored outcomes); None before any question is stored."""
    if evaluation.report is not None:
        return evaluation.report
    if not evaluation.done:
        return None
    return build_report(evaluation)


@dataclass(frozen=True)
class QuestionRow:
    """One question of an evaluation as the exports show it."""

    position: int
    question_id: str
    text: str
    options: tuple[str, ...] | None
    answer: str
    answers: dict[str, str | None]  # by arm
    right: dict[str, bool]
    note: str
    error: str
    prompt_version: str  # "" when not recorded
    # Each seat's model in the one-model debate and in the mixed one (empty: not run).
    seat_models: tuple[str, ...] = ()
    mixed_seat_models: tuple[str, ...] = ()


def question_rows(evaluation: Evaluation) -> list[QuestionRow]:
    """The stored questions in the set's order, each with every arm's answer."""
    questions = {q.id: q for q in labelled_set(evaluation).questions}
    rows = []
    for result in QuestionResult.objects.filter(evaluation=evaluation).order_by("position"):
        outcome = QuestionOutcome.from_json(result.outcome)
        question = questions.get(result.question_id)
        if question is None:
            continue
        answers = {arm: outcome.arms[arm].answer if arm in outcome.arms else None
                   for arm in evaluation.arms}
        rows.append(QuestionRow(
            result.position + 1, question.id, question.text, question.options,
            question.answer, answers,
            {arm: question.is_right(answer) for arm, answer in answers.items()},
            outcome.note, result.error, outcome.prompt_version,
            tuple(outcome.detail.get("models", ())),
            tuple(outcome.detail.get("mixed", {}).get("models", ()))))
    return rows
