"""Calibration reads a result through its protocol (``DebateProtocol.forecasts``), so a
result the protocol's model no longer reads stops calibration with the debate's name
instead of scoring it as nothing."""

from __future__ import annotations

import logging

import pytest
from pydantic import create_model

from debates.engine import get_protocol
from debates.engine.protocols.council.schemas import DebateResult
from decisions.calibration import UnreadableResult, team_calibration
from decisions.outcomes import outcome_record
from decisions.services import decision_record
from tests.decisions.conftest import OPTIONS
from tests.decisions.panels import debate_with_verdicts as judged

NOW, Q3, STAY = OPTIONS


@pytest.fixture
def reviewed(team, owner):
    debate = judged(team, owner, [("Ana", None, STAY, 0.8), ("Ben", None, NOW, 0.6)],
                    before=NOW, after=STAY)
    decision_record(debate=debate, user=owner, option=STAY, rationale="r")
    outcome_record(debate=debate, user=owner, right_option=STAY, result="worked")
    return debate


def test_the_council_forecasts_what_its_agents_ended_on(reviewed):
    result = get_protocol("council").parse_result(reviewed.synthesis.result)
    forecasts = get_protocol("council").forecasts(result)
    assert forecasts.options == list(OPTIONS)
    assert (forecasts.initial_majority, forecasts.final_majority) == (NOW, STAY)
    assert [(f.agent, f.name, f.final_verdict, f.final_confidence)
            for f in forecasts.agents] == [(0, "Ana", STAY, 0.8), (1, "Ben", NOW, 0.6)]
    assert team_calibration(team=reviewed.team).panel.scored == 1


def test_a_field_renamed_in_the_stored_result_fails_loudly(reviewed, caplog):
    synthesis = reviewed.synthesis
    synthesis.result = {("members" if k == "agents" else k): v
                        for k, v in synthesis.result.items()}
    synthesis.save()
    with caplog.at_level(logging.ERROR, logger="decisions.calibration"), \
            pytest.raises(UnreadableResult, match=str(reviewed.code)):
        team_calibration(team=reviewed.team)
    assert str(reviewed.code) in caplog.text


def test_a_field_renamed_in_the_result_model_fails_loudly(reviewed, monkeypatch):
    # The model as it would read after renaming ``agents`` to ``members``: the stored
    # results, which say ``agents``, no longer carry a field it requires.
    renamed = create_model("DebateResult", __base__=DebateResult,
                           members=(list[dict[str, object]], ...))
    monkeypatch.setattr(type(get_protocol("council")), "result_model", renamed)
    with pytest.raises(UnreadableResult):
        team_calibration(team=reviewed.team)


@pytest.mark.parametrize("name", ["adversarial", "workflow"])
def test_a_protocol_without_verdicts_forecasts_nothing(name):
    protocol = get_protocol(name)
    assert protocol.forecasts(protocol.result_model.model_construct()).agents == []
