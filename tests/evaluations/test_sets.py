"""The decisions set: the team's reviewed decisions whose outcome names the option that
proved right, as labelled questions; and the sweeper's schedule."""

from __future__ import annotations

import pytest

from debates.models import Debate
from decisions.outcomes import outcome_record
from decisions.services import decision_record
from evaluations import runner
from evaluations.services import EvaluationError, EvaluationRequest, evaluation_start
from evaluations.sets import decision_questions
from tests.decisions.conftest import OPTIONS, finish
from tests.factories import make_debate

NOW, Q3, STAY = OPTIONS


def reviewed(team, owner, question: str, right: str | None):  # noqa: ANN001, ANN201
    debate = finish(make_debate(team, owner))
    Debate.objects.filter(pk=debate.pk).update(question=question)
    debate.refresh_from_db()
    decision_record(debate=debate, user=owner, option=NOW, rationale="r")
    outcome_record(debate=debate, user=owner, right_option=right,
                   result="worked" if right else "")
    return debate


def test_reviewed_decisions_with_a_right_option_are_the_questions(team, owner, other_team,
                                                                  outsider) -> None:
    reviewed(team, owner, "Move billing?", STAY)
    reviewed(team, owner, "Move search?", None)  # can't tell yet: no label
    finish(make_debate(team, owner))  # decided on by nobody
    reviewed(other_team, outsider, "Theirs?", NOW)
    questions = decision_questions(team=team)
    assert [(q.text, q.options, q.answer) for q in questions] == [
        ("Move billing?", tuple(OPTIONS), STAY)]


def test_an_evaluation_on_the_decisions_stores_them_and_runs(team, owner) -> None:
    reviewed(team, owner, "Move billing?", STAY)
    reviewed(team, owner, "Move search?", Q3)
    with pytest.raises(EvaluationError, match="only 2 reviewed decisions.*3 were asked"):
        evaluation_start(team=team, user=owner, request=EvaluationRequest(
            set_name="decisions", n=3, sim_accuracy=0.6))
    evaluation = evaluation_start(team=team, user=owner, request=EvaluationRequest(
        set_name="decisions", n=2, sim_accuracy=0.6))
    assert evaluation.set_kind == "decisions"
    assert sorted(q["answer"] for q in evaluation.questions) == [Q3, STAY]
    while runner.run(evaluation.code):
        pass
    evaluation.refresh_from_db()
    assert evaluation.status == "done" and evaluation.report["arms"]["vote"]["n"] == 2


def test_the_sweeper_is_scheduled_every_minute(db) -> None:
    from django.core.management import call_command
    from django_q.models import Schedule

    call_command("migrate", "evaluations", verbosity=0)
    schedule = Schedule.objects.get(name="council-evaluations-resume-stalled")
    assert schedule.func == "evaluations.tasks.resume_stalled"
    assert schedule.schedule_type == Schedule.MINUTES and schedule.minutes == 1
