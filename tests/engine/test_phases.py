"""Phases are open: a protocol registers its own (docs/engine.md, "Protocols"); stored
turns keep the plain name and read back as the same registered phase."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from debates.engine import Phase, Turn


def test_a_registered_phase_is_stored_as_its_name_and_read_back_as_the_same_phase():
    toy = Phase.register("toy_tally")
    assert Phase.register("toy_tally") is toy and Phase("toy_tally") is toy
    turn = Turn(phase=toy, round=1, agent=0)
    assert turn.model_dump(mode="json")["phase"] == "toy_tally"
    assert Turn.model_validate_json(turn.model_dump_json()).phase is toy
    assert "toy_tally" in Turn.model_json_schema()["properties"]["phase"]["enum"]


def test_an_unregistered_phase_is_refused_when_read():
    with pytest.raises(ValidationError, match="unknown phase 'nope'"):
        Turn(phase="nope")


@pytest.mark.parametrize("name", ["", "Toy", "toy phase", "toy-phase", "x" * 21])
def test_a_phase_is_a_short_snake_case_name(name):
    with pytest.raises(ValueError, match="snake_case"):
        Phase.register(name)


def test_each_builtin_protocol_lists_its_own_phases_then_the_shared_ones():
    from debates.engine import get_protocol

    assert get_protocol("council").phases == (
        "compose", "premortem", "position", "cross_exam", "challenge", "challenge_answer",
        "synthesis", "verify", "judge")
    assert get_protocol("adversarial").phases[:2] == ("propose", "critique")
    assert get_protocol("workflow").phases[:3] == ("analysis", "discussion", "convergence")
    assert not hasattr(Phase, "PREMORTEM")  # a protocol's phase is its package's


def test_a_failed_agent_turn_is_placed_by_its_protocols_phase_order():
    from debates.engine import DebateState, TurnStatus, get_protocol, resolve_config
    from debates.engine.protocols.council.phases import CouncilPhase

    state = DebateState(question="Go?", config=resolve_config(mode="quick"))
    for phase in (CouncilPhase.POSITION, CouncilPhase.PREMORTEM):
        state.add(Turn(phase=phase, agent=0, status=TurnStatus.FAILED, error="x"))
    failed = get_protocol("council").failed_step(state, 0)
    assert failed is not None and failed.phase is CouncilPhase.PREMORTEM
