"""A database connection that breaks under a worker or a stream (a database restart):
the work carries on on a fresh connection instead of waiting for the sweeper's grace.
The real restart, on a PostgreSQL cluster of the test's own, is
tests/test_scaleout_postgres_restart.py."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, OperationalError, transaction

from debates.models import ACTIVE_STATUSES, Debate, DebateStatus
from debates.runtime import execution, lease, worker_loop
from debates.runtime.reconnect import retried_on_a_fresh_connection
from debates.services import debate_create
from tests.debates.test_worker_loop import config, loops  # noqa: F401 - fixture
from tests.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


class Breaks:
    """Raises what a restart makes a first query raise, ``times`` times, then calls on."""

    def __init__(self, call, times: int = 1, error: Exception | None = None) -> None:  # noqa: ANN001
        self.call, self.left, self.calls = call, times, 0
        self.error = error or OperationalError(
            "terminating connection due to administrator command")

    def __call__(self, *args, **kwargs):  # noqa: ANN002, ANN003
        self.calls += 1
        if self.left:
            self.left -= 1
            raise self.error
        return self.call(*args, **kwargs)


def test_a_claim_that_meets_a_broken_connection_is_made_again_on_the_loop(loops, monkeypatch):  # noqa: F811
    """Without the retry the claim was lost with the driver, and a debate nobody had
    claimed waited for the queue grace (60 s) before anything happened."""
    from accounts.models import Team

    monkeypatch.setattr(worker_loop, "RECONNECT_PAUSE_S", 0.05)
    broken_claim = Breaks(lease.claim, times=2)
    monkeypatch.setattr(execution, "claim", broken_claim)
    team = Team.objects.create(name="restart")
    debate = debate_create(team=team, user=None, question="Go ahead after the restart?",
                           config=config(0), start=False)
    assert loops().take(debate.code)
    wait_until(lambda: not Debate.objects.filter(pk=debate.pk,
                                                 status__in=ACTIVE_STATUSES).exists(),
               what="the debate to end")
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.SUCCEEDED
    assert broken_claim.calls > 2


def test_a_read_is_run_again_once_on_a_fresh_connection():
    read = Breaks(lambda: Debate.objects.count())
    assert retried_on_a_fresh_connection(read)() == 0
    assert read.calls == 2


def test_a_refusal_on_a_live_connection_is_not_retried():
    read = Breaks(lambda: 0, error=IntegrityError("duplicate key"))
    with pytest.raises(IntegrityError):
        retried_on_a_fresh_connection(read)()
    assert read.calls == 1


def test_a_read_inside_a_transaction_is_not_retried():
    """A fresh connection would silently drop what the transaction already wrote."""
    read = Breaks(lambda: 0)
    with pytest.raises(OperationalError), transaction.atomic():
        retried_on_a_fresh_connection(read)()
    assert read.calls == 1
