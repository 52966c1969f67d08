"""A debate that ends without a synthesis (cancelled, failed) still carries what its
ledger says it cost: paid calls count against the team's budget."""

from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.utils import timezone

from debates.engine.llm.gateway import Cancelled
from debates.engine.protocols import get_protocol
from debates.engine.schemas import SimulatorOptions
from debates.execution import run_next_step, run_to_completion, store_usage
from debates.limits import team_month_spend
from debates.models import Debate, DebateStatus, LLMCall, Turn
from debates.persistence import PersistingHooks
from debates.services import debate_cancel
from debates.stored_state import load_state
from tests.factories import make_debate

pytestmark = pytest.mark.django_db


def _paid_calls(debate: Debate, n: int, cost: float = 0.25) -> None:
    LLMCall.objects.bulk_create([
        LLMCall(debate=debate, phase="position", agent_index=i % 3, attempt=1 + i // 3,
                purpose="call", model="openai/gpt-4o", prompt_tokens=100, completion_tokens=50,
                cost_usd=cost, ok=True)
        for i in range(n)
    ])


def test_a_debate_cancelled_mid_run_costs_what_its_ledger_says(team):
    debate = make_debate(team)
    _paid_calls(debate, 10)
    debate = debate_cancel(debate=debate)
    assert debate.status == DebateStatus.CANCELLED
    assert (debate.calls, debate.prompt_tokens, debate.completion_tokens) == (10, 1000, 500)
    assert debate.cost_usd == pytest.approx(2.5)
    assert team_month_spend(team=team) == pytest.approx(2.5)


def test_calls_stored_by_the_worker_after_the_cancel_count_too(team, monkeypatch):
    debate = make_debate(team)
    _paid_calls(debate, 4)

    async def step_cancelled_midway(state, step, hooks):
        # The user cancels while the step runs; the worker stores two more answers
        # before it notices (at its next renewal) and stops.
        await sync_to_async(debate_cancel)(debate=debate)
        await sync_to_async(_paid_calls)(debate, 2)
        raise Cancelled()

    monkeypatch.setattr(get_protocol("council"), "run_step", step_cancelled_midway)
    assert run_next_step(debate.code) is False
    debate.refresh_from_db()
    assert debate.status == DebateStatus.CANCELLED
    assert debate.calls == 6 and debate.cost_usd == pytest.approx(1.5)


def test_a_debate_that_fails_in_a_step_costs_what_its_ledger_says(team, monkeypatch):
    debate = make_debate(team)

    async def crashing(state, step, hooks):
        await sync_to_async(_paid_calls)(debate, 3, 0.5)
        raise RuntimeError("boom")

    monkeypatch.setattr(get_protocol("council"), "run_step", crashing)
    assert run_next_step(debate.code) is False
    debate.refresh_from_db()
    assert debate.status == DebateStatus.FAILED
    assert debate.calls == 3 and debate.cost_usd == pytest.approx(1.5)


def test_a_finished_debate_still_totals_its_ledger(team):
    debate = make_debate(team)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED
    assert debate.calls == LLMCall.objects.filter(debate=debate).count() > 0


def test_a_cancelled_debate_no_longer_reserves_its_estimate(team):
    debate = make_debate(team)
    Debate.objects.filter(pk=debate.pk).update(estimated_cost_usd=4.0)
    assert team_month_spend(team=team) == pytest.approx(4.0)
    _paid_calls(debate, 2)
    debate_cancel(debate=debate)
    assert team_month_spend(team=team) == pytest.approx(0.5)


def test_a_stale_delivery_of_a_step_is_counted_as_spend_and_never_used(team):
    # A worker cut off mid-step comes back after another worker took the step over and
    # stored its turns: the stale worker's answers were paid for, so the ledger keeps
    # them, marked superseded; the turns stay the first copy's.
    debate = make_debate(team, simulator=SimulatorOptions(latency_ms=50))
    assert run_next_step(debate.code)  # compose
    stale = load_state(debate)
    protocol = get_protocol(stale.config.protocol)
    step = protocol.next_step(stale)
    assert step is not None
    assert run_next_step(debate.code)  # the step, by the worker that took it over
    first = list(Turn.objects.filter(debate=debate, phase=step.phase.value)
                 .order_by("agent_index").values_list("pk", flat=True))

    class CutOffWorker(PersistingHooks):
        """Held the lease when its step began; lost it before its answers came back."""

        async def on_turn(self, turn: Any) -> None:
            await sync_to_async(Debate.objects.filter(pk=debate.pk).update)(
                lease_owner="took-over")
            await super().on_turn(turn)

    Debate.objects.filter(pk=debate.pk).update(
        lease_owner="cut-off", lease_expires_at=timezone.now() + timedelta(minutes=10))
    with contextlib.suppress(Cancelled):
        async_to_sync(protocol.run_step)(stale, step, CutOffWorker(debate, stale, "cut-off"))

    assert list(Turn.objects.filter(debate=debate, phase=step.phase.value)
                .order_by("agent_index").values_list("pk", flat=True)) == first
    calls = LLMCall.objects.filter(debate=debate, phase=step.phase.value, ok=True)
    assert sorted(calls.values_list("purpose", flat=True)) == (
        ["call"] * len(first) + ["superseded"] * len(first))
    assert store_usage(debate).calls == LLMCall.objects.filter(debate=debate).count()
    # Its step began under the lease; it ended without it, so it is logged done once.
    assert debate.events.filter(kind="step_completed",
                                payload__step=protocol.step_label(step)).count() == 1
