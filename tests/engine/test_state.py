"""Derived debate state: carried-forward confidence, active agents, next step."""

import pytest

from debates.engine.configure import resolve_config
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.steps import agent_request
from debates.engine.schemas import Persona, Phase, StopReason, Turn, TurnStatus
from debates.engine.state import DebateState, Step, detect_language


def persona(name):
    return Persona(name=name, background="b", expertise="e", approach="a", bias="x")


def state_with_positions(confidences, **config):
    state = DebateState(
        question="Should we do it?",
        config=resolve_config(mode="quick", agents=len(confidences), **config),
        given_personas=[persona(n) for n in ["Ann", "Bo", "Cy", "Di"][: len(confidences)]],
    )
    for i, c in enumerate(confidences):
        state.add(Turn(phase=CouncilPhase.PREMORTEM, agent=i, payload={
            "failure_scenario": "f", "root_causes": [f"cause {i}"], "early_warning_signals": []}))
        state.add(Turn(phase=CouncilPhase.POSITION, agent=i, payload={
            "stance": f"stance {i}", "reasoning": ["r"], "confidence": c, "key_assumptions": []}))
    return state


def exam(confidence=None, position=None, disagreements=(), concessions=(), evidence=()):
    return {"concessions": list(concessions), "remaining_disagreements": list(disagreements),
            "updated_position": position, "updated_confidence": confidence,
            "reflection": "thinking", "new_evidence_needed": list(evidence)}


def add_round(state, r, payloads):
    for i, payload in enumerate(payloads):
        state.add(Turn(phase=CouncilPhase.CROSS_EXAM, round=r, agent=i, payload=payload))


def test_null_updated_confidence_carries_the_previous_value_forward():
    state = state_with_positions([0.4, 0.8])
    add_round(state, 1, [exam(confidence=0.6), exam()])
    add_round(state, 2, [exam(), exam()])
    assert state.view.confidence(0, 2) == 0.6
    assert state.view.confidence(1, 2) == 0.8
    assert round(state.view.metrics(2).mean_confidence, 6) == 0.7


def test_round_zero_is_the_positions():
    state = state_with_positions([0.4, 0.8])
    m = state.view.metrics(0)
    assert (m.round, round(m.mean_confidence, 6), round(m.dispersion, 3)) == (0, 0.6, 0.2)


def test_confidence_delta_is_against_the_previous_round():
    state = state_with_positions([0.4, 0.8])
    add_round(state, 1, [exam(confidence=0.5), exam(confidence=0.9)])
    assert round(state.view.metrics(1).confidence_delta, 6) == 0.1


def test_steps_run_in_order_and_positions_then_rounds():
    state = DebateState(question="Q?", config=resolve_config(mode="quick"))
    assert state.view.next_step() == Step(CouncilPhase.COMPOSE)
    state = state_with_positions([0.4, 0.8, 0.6])
    assert state.view.next_step() == Step(CouncilPhase.CROSS_EXAM, 1)


def test_converged_debate_goes_to_synthesis_then_verify():
    state = state_with_positions([0.6, 0.62, 0.61])
    add_round(state, 1, [exam(), exam(), exam()])
    assert state.view.stop()[0] is StopReason.CONVERGED
    assert state.view.next_step() == Step(Phase.SYNTHESIS)
    state.add(Turn(phase=Phase.SYNTHESIS, payload={}))
    assert state.view.next_step() == Step(Phase.VERIFY)
    state.add(Turn(phase=Phase.VERIFY, payload={"claims": []}))
    assert state.view.next_step() is None


def test_failed_agent_is_dropped_from_later_rounds_and_not_live_in_metrics():
    state = state_with_positions([0.2, 0.5, 0.9])
    state.add(Turn(phase=CouncilPhase.CROSS_EXAM, round=1, agent=0, status=TurnStatus.FAILED,
                   error="Timeout: slow"))
    state.add(
        Turn(phase=CouncilPhase.CROSS_EXAM, round=1, agent=1, payload=exam(disagreements=["x"]))
    )
    state.add(Turn(phase=CouncilPhase.CROSS_EXAM, round=1, agent=2,
                   payload=exam(disagreements=["y"])))
    assert state.view.metrics(1).active_agents == 2
    assert state.view.active_agents(Step(CouncilPhase.CROSS_EXAM, 2)) == [1, 2]


def test_below_quorum_fails_with_a_reason_naming_who_failed():
    state = state_with_positions([0.2, 0.5])
    state.add(Turn(phase=CouncilPhase.CROSS_EXAM, round=1, agent=0, status=TurnStatus.FAILED,
                   error="InternalServerError: boom"))
    state.add(Turn(phase=CouncilPhase.CROSS_EXAM, round=1, agent=1, payload=exam()))
    failure = state.view.failure()
    assert "below quorum" in failure and "Ann" in failure and "boom" in failure
    assert state.view.next_step() is None


def test_cross_exam_shows_each_peers_latest_position_not_the_initial_one():
    state = state_with_positions([0.4, 0.8, 0.5], max_rounds=4)
    add_round(state, 1, [exam(), exam(confidence=0.55, position="revised view of Bo",
                                      disagreements=["Bo still disputes cost"]), exam()])
    _, messages, hints = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 2), 0, 0)
    user = messages[1]["content"]
    assert "revised view of Bo" in user and "confidence 0.55" in user
    assert "Bo still disputes cost" in user
    assert "stance 1" not in user.split("### Bo")[1].split("###")[0].split("Stance:")[1][:20]
    assert hints["round"] == 2


def _round_messages(state, round_number):
    return [agent_request(state, Step(CouncilPhase.CROSS_EXAM, round_number), i, 0)[1]
            for i in range(len(state.personas))]


@pytest.mark.parametrize("anonymize_peers", [False, True])
def test_a_round_s_prompts_begin_with_the_same_text_for_every_agent(anonymize_peers):
    # docs/engine.md, "Prompt layout": the round's shared material (every agent's latest
    # position, the open points) comes before the agent's own part, byte-identical.
    state = state_with_positions([0.4, 0.8, 0.5], max_rounds=4, anonymize_peers=anonymize_peers)
    add_round(state, 1, [exam(), exam(confidence=0.55, disagreements=["Bo disputes cost"]),
                         exam(concessions=["Cy concedes the timing"])])
    for round_number in (1, 2):
        calls = _round_messages(state, round_number)
        assert len({messages[0]["content"] for messages in calls}) == 1  # system
        users = [messages[1]["content"] for messages in calls]
        shared = [user[:user.index("You are ")] for user in users]
        assert len(set(shared)) == 1
        assert all(f"stance {i}" in shared[0] for i in range(3))
        if round_number == 2:
            assert "[D1] Bo disputes cost" in shared[0]
            # What is one agent's own comes after the shared part, in its prompt only.
            assert "You conceded: Cy concedes the timing" in users[2]
            assert "Cy concedes the timing" not in shared[0]


def test_anonymised_peers_hide_names():
    state = state_with_positions([0.4, 0.8, 0.5], anonymize_peers=True)
    _, messages, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 1), 0, 0)
    user = messages[1]["content"]
    assert "Bo" not in user and "Cy" not in user
    assert "Agent B" in user and "Agent C" in user


def test_compaction_drops_peer_reasoning_but_keeps_stances():
    state = state_with_positions([0.4, 0.8, 0.5])
    _, full, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 1), 0, 0)
    _, compact, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 1), 0, 2)
    assert len(compact[1]["content"]) < len(full[1]["content"])
    assert "stance 1" in compact[1]["content"]


def test_more_rounds_after_a_stop():
    state = state_with_positions([0.6, 0.62, 0.61])
    add_round(state, 1, [exam(), exam(), exam()])
    state.add(Turn(phase=Phase.SYNTHESIS, payload={}))
    state.view.request_more_round()
    assert state.view.next_step() == Step(CouncilPhase.CROSS_EXAM, 2)


def test_one_more_round_runs_exactly_one_round_even_when_the_rule_wants_more():
    state = state_with_positions([0.6, 0.62, 0.61], max_rounds=5)
    add_round(state, 1, [exam(), exam(), exam()])
    assert state.view.stop()[0] is StopReason.CONVERGED
    state.add(Turn(phase=Phase.SYNTHESIS, payload={}))
    state.view.request_more_round()
    # Round 2 brings new points and a concession: the rule alone would go on to round 3.
    add_round(state, 2, [exam(confidence=0.3, disagreements=["cost is unknown"]),
                         exam(concessions=["fair point"]), exam(confidence=0.9)])
    reason, explanation = state.view.stop()
    assert reason is StopReason.STOPPED_BY_USER
    assert "stopped after round 2, the one more round a user asked for" in explanation
    assert state.view.next_step() == Step(Phase.SYNTHESIS)
    assert state.view.planned_rounds == 2


def test_language_detection():
    assert detect_language("我们的团队应该迁移吗？") == "zh"
    assert detect_language("Should we migrate?") == "en"


def test_a_forced_round_keeps_the_rules_verdict_in_its_explanation():
    state = state_with_positions([0.6, 0.62, 0.61])
    add_round(state, 1, [exam(), exam(), exam()])
    state.view.request_more_round()
    m = state.view.metrics(1)
    assert m.decision == "continue" and m.stop_reason is None
    assert "the rule said converged" in m.explanation


def test_stop_is_none_before_any_position_exists():
    state = DebateState(question="Q?", config=resolve_config(mode="quick"))
    assert state.view.stop() is None and state.view.all_metrics() == []
