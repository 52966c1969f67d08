"""A mixed panel (issue 42, item 2): the panel's models go to the agents in turn, each
call goes to its agent's model (recorded per call), and peers on different models are
anonymised and shown arguments, not verdicts and confidences (docs/engine.md, "Mixed
panels")."""

from __future__ import annotations

import re

import pytest

from debates.engine import InputError, parse_panel_models, run_protocol
from debates.engine.configure import resolve_config
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.steps import agent_request
from debates.engine.schemas import Persona, SimulatorOptions
from debates.engine.state import DebateState, Step
from debates.estimates import debate_models, estimate
from tests.engine.test_fidelity import Recorder

QUESTION = "Should we move to usage-based pricing?"


def _agent(name, confidence):
    rounds = [{"remaining_disagreements": [f"{name}'s doubt about churn"]}]
    return {"name": name, "position_confidence": confidence, "rounds": rounds * 2}


async def _run(panel_models, personas=(), **config):
    agents = [_agent(n, c) for n, c in (("Ann", 0.2), ("Bo", 0.8), ("Cy", 0.5))]
    state = DebateState(question=QUESTION, given_personas=list(personas), config=resolve_config(
        mode="quick", agents=3, max_rounds=2, retry_backoff_s=0.0, panel_models=panel_models,
        simulator=SimulatorOptions(script={"agents": agents}), **config))
    hooks = Recorder()
    await run_protocol(state, hooks)
    return state, hooks


def _peer_headings(state, reader):
    _, messages, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 1), reader, 0)
    return re.findall(r"^### (.*)$", "\n".join(m["content"] for m in messages), re.M)


async def test_each_agent_answers_on_its_seat_model_and_the_ledger_records_it():
    state, hooks = await _run(["sim/alpha", "sim/beta"])
    assert [p.model for p in state.personas] == ["sim/alpha", "sim/beta", "sim/alpha"]
    per_agent = {}
    for call in hooks.calls:
        if call.agent >= 0:
            per_agent.setdefault(call.agent, set()).add(call.model)
    assert per_agent == {0: {"sim/alpha"}, 1: {"sim/beta"}, 2: {"sim/alpha"}}
    # The synthesis is not an agent's: it stays on the debate's model.
    assert {c.model for c in hooks.calls if c.agent < 0} == {"sim/default"}


async def test_a_persona_s_own_model_wins_over_its_seat():
    own = Persona(name="Dee", background="CFO", expertise="finance", approach="numbers",
                  bias="cost", model="sim/gamma")
    state, _ = await _run(["sim/alpha", "sim/beta"], personas=[own])
    assert [p.model for p in state.personas] == ["sim/gamma", "sim/beta", "sim/alpha"]


async def test_peers_on_different_models_are_anonymous_and_show_no_tally():
    state, _ = await _run(["sim/alpha", "sim/beta"])
    headings = _peer_headings(state, 0)
    # The whole panel, the reader among it, under labels with no tally.
    assert sorted(headings) == ["Agent A", "Agent B", "Agent C"], headings
    text = "\n".join(m["content"] for m in agent_request(
        state, Step(CouncilPhase.CROSS_EXAM, 1), 0, 0)[1])
    assert not re.search(r"\b(Bo|Cy)\b", text)
    # Its own verdict and confidence are told to the reader alone, after the list.
    own = re.search(r"^Above, you are (Agent [A-Z]) \(verdict .+, confidence \d\.\d\d\);",
                    text, re.M)
    assert own and text.index("### ") < own.start()


async def test_one_model_for_everyone_keeps_names_and_tallies():
    state, _ = await _run(["sim/alpha"])
    assert not state.config.is_mixed(state.personas)
    headings = _peer_headings(state, 0)
    assert {h.split(":")[0] for h in headings} == {"Ann", "Bo", "Cy"}
    assert all(re.search(r": verdict .+, confidence \d\.\d\d$", h) for h in headings)


def test_panel_models_are_checked_and_bounded():
    assert parse_panel_models(" sim/a, ,sim/b ") == ["sim/a", "sim/b"]
    assert parse_panel_models("") == [] and parse_panel_models(None) == []
    with pytest.raises(InputError) as refused:
        parse_panel_models("sim/a, nonsense-provider-xyz")
    assert refused.value.field == "panel_models"
    with pytest.raises(InputError, match="at most"):
        parse_panel_models(["sim/a"] * 13)


def test_estimates_count_the_panel_s_models():
    config = resolve_config(mode="quick", panel_models=["sim/alpha", "sim/beta"])
    assert debate_models(config)[:3] == ("sim/default", "sim/alpha", "sim/beta")
    assert estimate(config, text_chars=100).price == "simulated"


def test_stored_configs_without_a_panel_dump_as_before():
    assert "panel_models" not in resolve_config(mode="quick").model_dump()
    assert resolve_config(mode="quick", panel_models=["sim/a"]).model_dump()["panel_models"] \
        == ["sim/a"]
