"""A stored debate keeps what its turns say of repairs and cuts (migration 0015): the
synthesis's one content repair and the text fields cut at their sent bound survive a
worker's reload of the state (docs/engine.md, "Content checks")."""

import pytest

from debates.engine.schemas import DebateConfig, Phase, SimulatorOptions
from debates.models import LLMCall, Turn
from debates.runtime.execution import run_to_completion
from debates.runtime.state_rows import load_state
from debates.services import debate_create

pytestmark = pytest.mark.django_db

SCRIPT = {"agents": [{"name": "Nobody on this panel"}], "synthesis_without_decision": "first"}


def test_the_synthesis_repair_is_stored_with_its_turn_and_in_the_ledger(team):
    debate = debate_create(team=team, user=None, question="Should we adopt a four-day week?",
                           config=DebateConfig(mode="quick",
                                               simulator=SimulatorOptions(script=SCRIPT)),
                           start=False)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    row = Turn.objects.get(debate=debate, phase=Phase.SYNTHESIS.value)
    assert row.repaired is True and row.cut == []
    assert list(LLMCall.objects.filter(debate=debate, phase=Phase.SYNTHESIS.value)
                .order_by("id").values_list("purpose", flat=True)) == ["call", "repair"]
    assert debate.synthesis.result["repairs"] == [{"step": "synthesis", "taken": True}]
    assert debate.synthesis.result["recommended_path"] is not None

    row.cut = ["consensus_points[0]"]
    row.save(update_fields=["cut"])
    turn = load_state(debate).turn(Phase.SYNTHESIS)
    assert turn is not None and turn.repaired is True and turn.cut == ["consensus_points[0]"]
    # Every other turn was neither repaired nor cut.
    assert not Turn.objects.filter(debate=debate, repaired__isnull=False).exclude(
        phase=Phase.SYNTHESIS.value).exists()
