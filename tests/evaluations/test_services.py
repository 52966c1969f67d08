"""Starting, running, resuming and cancelling evaluations (evaluations.services and
evaluations.runner) on the simulated population, whose answers are exact."""

from __future__ import annotations

from typing import Any

import pytest
from django_q.models import OrmQ

from debates.engine import EvaluationSpec, QuestionOutcome
from debates.limits import LimitExceeded
from evaluations import runner
from evaluations.models import Evaluation, EvaluationStatus, QuestionResult
from evaluations.reports import build_report
from evaluations.services import (
    EvaluationError,
    EvaluationRequest,
    IllegalTransition,
    evaluation_cancel,
    evaluation_start,
    per_question_estimate,
)


class WorkerDied(BaseException):
    """The process dies mid-question: nothing of the run's own code catches it."""


# Small: these tests check the run (queue, resume, batches, limits), not the figures,
# which tests/engine/evaluation checks on thousands of simulated questions.
N = 20
SIM = {"set_name": "compare", "n": N, "seed": 3, "agents": 3, "sim_accuracy": 0.6}


def start(team: Any, user: Any, **given: Any) -> Evaluation:
    return evaluation_start(team=team, user=user,
                            request=EvaluationRequest(**{**SIM, **given}))


def without_seconds(report: dict[str, Any]) -> dict[str, Any]:
    arms = {name: {k: v for k, v in arm.items() if k != "seconds"}
            for name, arm in report["arms"].items()}
    return {**report, "arms": arms}


def run_all(evaluation: Evaluation) -> Evaluation:
    while runner.run(evaluation.code):
        pass
    evaluation.refresh_from_db()
    return evaluation


@pytest.mark.parametrize("given, words", [
    ({"set_name": "nope"}, "Unknown set"),
    ({"n": 0}, "1 to 1,000 questions"),
    ({"n": 5000}, "1 to 1,000 questions"),
    ({"agents": 1}, "2 to 12 agents"),
    ({"arms": ("single", "debate")}, "debate is not one"),
    ({"arms": ()}, "Choose arms"),
    ({"sim_accuracy": 1.5}, "probability"),
    ({"seed": -1}, "seed"),
    ({"model": "nosuchprovider/xyz"}, ""),
    ({"set_name": "upload"}, "Choose a JSONL or CSV file"),
    ({"set_name": "decisions", "n": 3}, "no reviewed decision"),
])
def test_bad_input_saves_nothing(team, owner, given, words) -> None:
    with pytest.raises(EvaluationError if words else Exception, match=words or None):
        start(team, owner, **given)
    assert Evaluation.objects.count() == 0
    assert OrmQ.objects.count() == 0


def test_a_refused_upload_lists_every_problem_with_its_line(team, owner) -> None:
    data = (b'{"question": "Is 2 > 1?", "options": ["yes", "no"], "answer": "yes"}\n'
            b'{"question": "", "options": ["yes", "no"], "answer": "yes"}\n'
            b'{"question": "Two?", "options": ["a", "b"], "answer": "c"}\n')
    with pytest.raises(EvaluationError) as caught:
        start(team, owner, set_name="upload", upload=data, filename="mine.jsonl")
    assert "nothing was saved" in str(caught.value)
    assert [p.split(":")[0] for p in caught.value.problems] == ["line 2", "line 3"]
    assert Evaluation.objects.count() == 0


def test_an_upload_is_stored_with_its_questions(team, owner) -> None:
    data = b"question,options,answer\nIs 3 > 2?,yes|no,yes\nWhat is 2+2?,,4\n"
    evaluation = start(team, owner, set_name="upload", upload=data, filename="mine.csv", n=50)
    assert evaluation.total == 2 and evaluation.set_label == "mine.csv"
    assert [q["answer"] for q in evaluation.questions] == ["yes", "4"]
    done = run_all(evaluation)
    assert done.status == EvaluationStatus.DONE and done.report["arms"]["vote"]["n"] == 2


def test_a_start_queues_one_task_and_the_run_stores_the_report(team, owner,
                                                               django_capture_on_commit_callbacks
                                                               ) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        evaluation = start(team, owner)
    assert OrmQ.objects.count() == 1
    done = run_all(evaluation)
    assert done.status == EvaluationStatus.DONE
    assert (done.done, done.total, done.failed_questions) == (N, N, 0)
    report = done.report
    assert set(report["arms"]) == {"single", "vote", "council", "synthesis"}
    assert report["arms"]["single"]["n"] == N
    assert "council_vs_vote" in report["paired"]
    assert done.lease_owner == "" and done.finished_at is not None


def test_resume_skips_stored_questions_and_gives_the_same_report(team, owner,
                                                                 monkeypatch) -> None:
    whole = run_all(start(team, owner))
    interrupted = start(team, owner)
    asked: list[str] = []
    real = runner.evaluate_question

    async def counting(question, spec):  # noqa: ANN001, ANN202
        asked.append(question.id)
        if question.id.endswith("-15") and len(asked) == 15:
            raise WorkerDied
        return await real(question, spec)

    monkeypatch.setattr(runner, "evaluate_question", counting)
    with pytest.raises(WorkerDied):
        runner.run(interrupted.code)
    interrupted.refresh_from_db()
    assert interrupted.done == 14 and interrupted.status == EvaluationStatus.RUNNING
    # The lease runs out; the sweeper hands it on and a worker resumes.
    Evaluation.objects.filter(pk=interrupted.pk).update(lease_expires_at="2000-01-01T00:00Z")
    assert runner.resume_stalled() == 1
    asked.clear()
    resumed = run_all(interrupted)
    assert len(asked) == N - 14
    assert not set(asked) & set(QuestionResult.objects.filter(
        evaluation=resumed, position__lt=14).values_list("question_id", flat=True))
    assert resumed.status == EvaluationStatus.DONE
    # The same answers, tokens and figures; only the wall time of the calls differs.
    assert without_seconds(resumed.report) == without_seconds(whole.report)


def test_a_failing_question_does_not_kill_the_run(team, owner, monkeypatch) -> None:
    real = runner.evaluate_question

    async def flaky(question, spec):  # noqa: ANN001, ANN202
        if question.id.endswith("-7"):
            raise NotImplementedError("only the simulated population answers so far")
        return await real(question, spec)

    monkeypatch.setattr(runner, "evaluate_question", flaky)
    done = run_all(start(team, owner))
    assert done.status == EvaluationStatus.DONE and done.failed_questions == 1
    failed = QuestionResult.objects.get(evaluation=done, question_id__endswith="-7")
    assert "NotImplementedError: only the simulated" in failed.error
    outcome = QuestionOutcome.from_json(failed.outcome)
    assert all(arm.answer is None for arm in outcome.arms.values())
    assert done.report["arms"]["vote"]["n"] == N  # counted, as a miss


def test_a_real_model_question_that_the_engine_cannot_answer_is_a_failed_question(
        team, owner, monkeypatch) -> None:
    async def unanswered(question, spec):  # noqa: ANN001, ANN202
        raise NotImplementedError("only the simulated population answers so far")

    monkeypatch.setattr(runner, "evaluate_question", unanswered)
    done = run_all(start(team, owner, sim_accuracy=None, n=3))
    assert done.status == EvaluationStatus.DONE and done.failed_questions == 3


def test_batches_hand_on_and_a_redelivered_task_stores_nothing_twice(
        team, owner, django_capture_on_commit_callbacks) -> None:
    evaluation = start(team, owner)
    with django_capture_on_commit_callbacks(execute=True):
        assert runner.run(evaluation.code, budget_s=-1) is True  # one question, then on
    evaluation.refresh_from_db()
    assert evaluation.done == 1 and evaluation.lease_owner == ""
    assert OrmQ.objects.count() == 1
    done = run_all(evaluation)
    assert QuestionResult.objects.filter(evaluation=done).count() == N
    assert runner.run(done.code) is False  # a finished run is claimed by nobody


def test_cancel_keeps_what_was_measured(team, owner) -> None:
    evaluation = start(team, owner)
    runner.run(evaluation.code, budget_s=-1)
    cancelled = evaluation_cancel(evaluation=evaluation)
    assert cancelled.status == EvaluationStatus.CANCELLED
    assert cancelled.report["arms"]["single"]["n"] == 1
    assert runner.run(evaluation.code) is False
    assert QuestionResult.objects.filter(evaluation=evaluation).count() == 1
    with pytest.raises(IllegalTransition):
        evaluation_cancel(evaluation=cancelled)


def test_the_report_is_rebuilt_from_stored_outcomes(team, owner) -> None:
    done = run_all(start(team, owner))
    assert build_report(done) == done.report


def test_limits_count_an_evaluation_as_its_questions_debates(team, owner, monkeypatch) -> None:
    from evaluations import services

    monkeypatch.setattr(services, "per_question_estimate", lambda spec: (0.5, ()))
    team.monthly_budget_usd = N * 0.5 - 1  # one question short
    team.save()
    with pytest.raises(LimitExceeded, match=f"Monthly budget: {N} questions"):
        start(team, owner, sim_accuracy=None)
    team.monthly_budget_usd, team.debate_cost_cap_usd = None, 0.25
    team.save()
    with pytest.raises(LimitExceeded, match="Cost cap: each question's debate"):
        start(team, owner, sim_accuracy=None)
    assert Evaluation.objects.count() == 0


def test_an_evaluation_counts_against_the_hourly_rate(team, owner) -> None:
    team.debates_per_hour = 1
    team.save()
    start(team, owner)
    with pytest.raises(LimitExceeded, match="Rate limit"):
        start(team, owner)
    assert Evaluation.objects.count() == 1


def test_an_evaluation_reserves_its_estimate_in_the_month_spend(team, owner, monkeypatch) -> None:
    from debates.limits import team_month_spend
    from evaluations import services

    monkeypatch.setattr(services, "per_question_estimate", lambda spec: (0.01, ()))
    start(team, owner, sim_accuracy=None, n=10)
    assert team_month_spend(team=team) == pytest.approx(0.1)


def test_a_lost_queued_task_is_queued_again_once(team, owner,
                                                django_capture_on_commit_callbacks) -> None:
    evaluation = start(team, owner)  # its task never ran (no on-commit here)
    assert runner.resume_stalled() == 0  # within the grace
    Evaluation.objects.filter(pk=evaluation.pk).update(created_at="2000-01-01T00:00Z")
    with django_capture_on_commit_callbacks(execute=True):
        assert runner.resume_stalled() == 1
    assert OrmQ.objects.count() == 1
    assert runner.resume_stalled() == 0  # taken: not again before the grace passes


def test_the_mixed_arms_second_debate_is_in_the_estimate() -> None:
    one = EvaluationSpec("compare", model="openai/gpt-4o-mini")
    mixed = EvaluationSpec("compare", model="openai/gpt-4o-mini", arms=("vote", "mixed_vote"),
                           panel_models=("openai/gpt-4o-mini", "openai/gpt-4o"))
    one_cost, _ = per_question_estimate(one)
    mixed_cost, unpriced = per_question_estimate(mixed)
    assert one_cost is not None and mixed_cost is not None and unpriced == ()
    # Two debates, the second partly on a dearer model.
    assert mixed_cost > 2 * one_cost
    simulated = EvaluationSpec("compare", sim_accuracy=0.6, arms=("mixed_vote",),
                               panel_models=("sim/a", "sim/b"))
    assert per_question_estimate(simulated) == (0.0, ())
