"""Stored debates of every registered protocol run through the durable execution:
the steps, the turns stored, the agents snapshotted and the typed result all come
from the protocol in the registry, never from the council's own modules."""

import pytest

from debates import selectors
from debates.engine.protocols import get_protocol
from debates.engine.protocols.adversarial.schemas import AdversarialResult
from debates.engine.protocols.adversarial.stopping import converged
from debates.engine.protocols.workflow.phases import WorkflowPhase
from debates.engine.protocols.workflow.schemas import WorkflowResult
from debates.engine.schemas import DebateConfig
from debates.engine.state import Step
from debates.models import Debate, DebateStatus, Turn
from debates.runtime.execution import run_next_step, run_to_completion
from debates.services import debate_create

pytestmark = pytest.mark.django_db


def make_debate(team, question, **config):
    return debate_create(team=team, user=None, question=question,
                         config=DebateConfig(**config), start=False)


def phases(debate):
    return list(Turn.objects.filter(debate=debate).order_by("id").values_list(
        "phase", "round", "agent_index"))


def test_a_stored_adversarial_debate_runs_its_own_steps_to_its_result(team):
    debate = make_debate(team, "Design the API and database schema for a multi-tenant "
                               "rate limiter", protocol="adversarial", seed=3)
    names = list(debate.agents.order_by("index").values_list("name", flat=True))
    assert [n.split(" ")[0] for n in names] == ["Proposer", "Critic"]  # roles of the domain
    run_to_completion(debate.code)
    debate = Debate.objects.get(pk=debate.pk)
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    turns = phases(debate)
    assert not {p for p, _, _ in turns} & {"compose", "premortem", "position", "cross_exam"}
    rounds = max(r for p, r, _ in turns if p == "critique")
    expected = []
    for r in range(1, rounds + 1):
        expected += [("propose", r, 0), ("critique", r, 1)]
    expected += [("synthesis", 0, -1), ("verify", 0, -1)]
    assert turns == expected
    result = selectors.debate_result(debate=debate)
    assert isinstance(result, AdversarialResult)
    assert result.rounds_completed == rounds
    assert debate.stop_reason == result.stop_reason.value
    if debate.stop_reason == "converged":
        assert converged(result.rounds[-1].tally.counts)
    else:
        assert debate.stop_reason == "max_rounds" and rounds == 5
    status_lines = [e.payload["data"]["status_line"] for e in debate.events.filter(
        kind="step_completed") if "status_line" in e.payload.get("data", {})]
    assert status_lines == [r.status_line for r in result.rounds]


@pytest.mark.parametrize("mode", ["medium", "deep"])
def test_a_stored_workflow_debate_runs_its_phases_to_its_result(team, mode):
    debate = make_debate(team, "Should we adopt a four-day week for support?",
                         protocol="workflow", mode=mode, seed=1)
    assert list(debate.agents.order_by("index").values_list("name", flat=True)) == [
        "Researcher", "Critic", "Synthesizer"]
    run_to_completion(debate.code)
    debate = Debate.objects.get(pk=debate.pk)
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    turns = phases(debate)
    assert sorted(a for p, _, a in turns if p == "analysis") == [0, 1, 2]
    assert sorted(a for p, r, a in turns if p == "discussion" and r == 1) == [0, 1, 2]
    assert [t for t in turns if t[0] == "synthesis"] == [("synthesis", 0, -1)]
    assert turns[-1] == ("verify", 0, -1)
    result = selectors.debate_result(debate=debate)
    assert isinstance(result, WorkflowResult)
    phase_2b = any(p == "discussion" and r == 2 for p, r, _ in turns)
    assert result.convergence.rounds == (2 if phase_2b else 1)
    if mode != "deep":
        assert not phase_2b
    assert debate.stop_reason == result.convergence.status


def test_a_workflow_step_is_one_call_of_run_next_step(team):
    debate = make_debate(team, "Should we adopt a four-day week for support?",
                         protocol="workflow")
    assert run_next_step(debate.code)
    assert sorted(phases(debate)) == [("analysis", 0, 0), ("analysis", 0, 1),
                                      ("analysis", 0, 2)]
    started = debate.events.filter(kind="step_started").values_list("payload", flat=True)
    assert [p["step"] for p in started] == [
        get_protocol("workflow").step_label(Step(WorkflowPhase.ANALYSIS))]
