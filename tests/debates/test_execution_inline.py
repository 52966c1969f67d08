"""A stored debate runs step by step in-process and ends with its synthesis."""

import pytest

from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.schemas import DebateConfig
from debates.models import Debate, DebateStatus, LLMCall, Turn
from debates.runtime.execution import run_next_step, run_to_completion
from debates.selectors import round_measures
from debates.services import debate_create

pytestmark = pytest.mark.django_db


def make_debate(team, **config):
    return debate_create(team=team, user=None, question="Should we adopt a four-day week?",
                         config=DebateConfig(mode="quick", **config), start=False)


def test_a_saved_debate_runs_to_a_synthesis(team):
    debate = make_debate(team)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED
    assert debate.stop_reason in {"converged", "max_rounds", "diminishing_returns",
                                  "genuine_disagreement"}
    assert debate.agents.count() == 3
    result = debate.synthesis.result
    assert result["simulated"] is True and result["rounds_completed"] >= 1
    assert round_measures(debate=debate)[0]["round"] == 0
    assert debate.calls == LLMCall.objects.filter(debate=debate).count() > 0


def test_each_step_is_one_call_of_run_next_step(team):
    debate = make_debate(team)
    assert run_next_step(debate.code)  # compose
    assert set(Turn.objects.filter(debate=debate).values_list("phase", flat=True)) == {
        CouncilPhase.COMPOSE.value}
    assert run_next_step(debate.code)  # premortem
    assert Turn.objects.filter(debate=debate, phase="premortem").count() == 3


def test_events_are_gap_free(team):
    debate = make_debate(team)
    run_to_completion(debate.code)
    seqs = list(Debate.objects.get(pk=debate.pk).events.values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_crash_inside_a_step_fails_the_debate_loudly_instead_of_looping(team, monkeypatch):
    from debates.engine.protocols import get_protocol

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    debate = make_debate(team)
    monkeypatch.setattr(get_protocol("council"), "run_step", broken)
    assert run_next_step(debate.code) is False
    debate.refresh_from_db()
    assert debate.status == DebateStatus.FAILED
    assert "internal error in compose: RuntimeError: boom" in debate.error
    assert debate.lease_owner == ""


def test_a_crash_after_the_lease_was_taken_over_leaves_the_debate_to_its_new_worker(
        team, monkeypatch):
    """A worker cut off mid-step and back after another took the debate over may crash
    on what changed meanwhile; the debate is the new worker's, not failed."""
    from asgiref.sync import sync_to_async
    from django.utils import timezone

    from debates.engine.protocols import get_protocol
    from debates.runtime.lease import claim

    debate = make_debate(team)

    def take_over() -> bool:
        Debate.objects.filter(pk=debate.pk).update(lease_expires_at=timezone.now())
        return claim(debate.code, "the-new-worker")

    async def taken_over_then_broken(*args, **kwargs):
        assert await sync_to_async(take_over)()
        raise RuntimeError("the slot this turn was for is taken")

    monkeypatch.setattr(get_protocol("council"), "run_step", taken_over_then_broken)
    assert run_next_step(debate.code, worker="the-old-worker") is False
    debate.refresh_from_db()
    assert debate.status == DebateStatus.RUNNING
    assert debate.lease_owner == "the-new-worker"
    assert debate.error == ""
    assert not debate.events.filter(kind="debate_failed").exists()


def test_a_debate_cancelled_between_two_steps_of_a_loop_is_handed_back(team):
    """The worker loop keeps the lease from one step to the next; a cancel landing in
    between makes the next claim fail, and the lease it still holds is handed back."""
    from asgiref.sync import async_to_sync

    from debates.runtime.execution import advance
    from debates.services import debate_cancel

    debate = make_debate(team)
    assert async_to_sync(advance)(debate.code, worker="loop", keep_lease=True)  # compose
    assert Debate.objects.get(pk=debate.pk).lease_owner == "loop"
    debate_cancel(debate=debate)
    assert async_to_sync(advance)(debate.code, worker="loop", keep_lease=True) is False
    debate.refresh_from_db()
    assert debate.status == DebateStatus.CANCELLED
    assert debate.lease_owner == ""


def test_a_broken_database_connection_mid_step_does_not_fail_the_debate(team, monkeypatch):
    """A lost connection is the worker's fault, not the debate's: the step is left to
    the lease and the sweeper (the three-host test's cut host hit this)."""
    from django.db import OperationalError

    from debates.engine.protocols import get_protocol

    async def connection_lost(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    debate = make_debate(team)
    monkeypatch.setattr(get_protocol("council"), "run_step", connection_lost)
    with pytest.raises(OperationalError):
        run_next_step(debate.code, worker="cut-off")
    debate.refresh_from_db()
    assert debate.status == DebateStatus.RUNNING
    assert debate.error == ""
    assert debate.lease_owner == "cut-off"  # until it runs out; then the sweeper resumes


def test_a_database_error_on_a_working_connection_is_a_bug_and_fails_the_debate(
        team, monkeypatch):
    """Only a connection that no longer answers means the worker is lost; an error the
    database raises on a live connection (a constraint, bad data) would recur."""
    from django.db import IntegrityError

    from debates.engine.protocols import get_protocol

    async def constraint_broken(*args, **kwargs):
        raise IntegrityError("UNIQUE constraint failed: debates_turn.slot")

    debate = make_debate(team)
    monkeypatch.setattr(get_protocol("council"), "run_step", constraint_broken)
    assert run_next_step(debate.code) is False
    debate.refresh_from_db()
    assert debate.status == DebateStatus.FAILED
    assert "internal error in compose: IntegrityError" in debate.error


def test_a_session_the_server_ended_counts_as_a_lost_connection():
    """PostgreSQL ending an idle transaction's session raises InternalError (SQLSTATE
    25P03), not OperationalError: it is a lost connection all the same."""
    from django.db import DataError, InternalError, OperationalError

    from debates.runtime.reconnect import connection_lost

    class PgError(Exception):
        def __init__(self, sqlstate: str) -> None:
            super().__init__(sqlstate)
            self.sqlstate = sqlstate

    def wrapped(django_error: type[Exception], sqlstate: str) -> Exception:
        error = django_error("from the server")
        error.__cause__ = PgError(sqlstate)
        return error

    assert connection_lost(wrapped(InternalError, "25P03"))
    assert connection_lost(wrapped(InternalError, "57P01"))
    assert connection_lost(wrapped(InternalError, "08006"))
    assert connection_lost(OperationalError("server closed the connection unexpectedly"))
    assert not connection_lost(wrapped(DataError, "22001"))
    assert not connection_lost(wrapped(InternalError, "XX000"))
