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


def test_the_builtins_keep_their_declared_order():
    assert Phase.registered()[:4] == ["compose", "premortem", "position", "cross_exam"]
