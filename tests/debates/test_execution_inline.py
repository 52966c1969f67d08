"""A stored debate runs step by step in-process and ends with its synthesis."""

import pytest

from debates.engine.schemas import DebateConfig, Phase
from debates.execution import run_next_step, run_to_completion
from debates.models import Debate, DebateStatus, LLMCall, Turn
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
    assert debate.round_metrics.first().round == 0
    assert debate.calls == LLMCall.objects.filter(debate=debate).count() > 0


def test_each_step_is_one_call_of_run_next_step(team):
    debate = make_debate(team)
    assert run_next_step(debate.code)  # compose
    assert set(Turn.objects.filter(debate=debate).values_list("phase", flat=True)) == {
        Phase.COMPOSE.value}
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
