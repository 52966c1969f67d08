"""Which reviews are scored and under whose name: library personas keep one record
across debates and versions, composed personas count within their debate only."""

from __future__ import annotations

import pytest

from decisions.calibration import library_records, team_calibration
from decisions.outcomes import outcome_record
from decisions.services import decision_record
from personas.services import library_create, persona_create, persona_update
from tests.decisions.conftest import OPTIONS
from tests.decisions.panels import debate_with_verdicts as judged
from tests.decisions.panels import persona

NOW, Q3, STAY = OPTIONS


@pytest.fixture
def dana(team, owner):
    library = library_create(team=team, user=owner, name="Advisers")
    return persona_create(library=library, user=owner, data=persona("Dana"))


def test_a_library_persona_keeps_one_record_across_debates_and_versions(team, owner, dana):
    first = judged(team, owner, [("Dana", dana, STAY, 0.8), ("Composed", None, NOW, 0.6)],
                   before=NOW, after=STAY)
    # A new version renames her; her record follows the persona, under today's name.
    persona_update(persona=dana, user=owner,
                   data=dana.as_persona().model_copy(update={"name": "Dana R."}))
    second = judged(team, owner, [("Dana", dana, NOW, 0.5), ("Composed", None, NOW, 0.9)],
                    before=NOW, after=NOW)
    for debate, right in ((first, STAY), (second, Q3)):
        decision_record(debate=debate, user=owner, option=STAY, rationale="r")
        outcome_record(debate=debate, user=owner, right_option=right, result="worked")
    calibration = team_calibration(team=team)
    records = {(p.name, p.debate): p for p in calibration.personas}
    dana_record = records[("Dana R.", None)]
    # [.1, .1, .8] vs Stay: (0.01 + 0.01 + 0.04)/3; [.5, .25, .25] vs Q3: (.25 + .5625 + .0625)/3
    assert dana_record.scored == 2 and dana_record.library_persona
    assert dana_record.brier == pytest.approx((0.06 + 0.875) / 6)
    # Two composed agents of the same name stay two records of one debate each.
    assert records[("Composed", str(first.code))].scored == 1
    assert records[("Composed", str(second.code))].scored == 1
    assert (calibration.panel.scored, calibration.panel.initial_hits,
            calibration.panel.final_hits) == (2, 0, 1)
    assert library_records(team=team) == {str(dana.code): dana_record}


def test_only_the_latest_review_counts_and_cant_tell_yet_scores_nothing(team, owner, dana):
    debate = judged(team, owner, [("Dana", dana, STAY, 0.8)], before=STAY, after=STAY)
    decision_record(debate=debate, user=owner, option=STAY, rationale="r")
    outcome_record(debate=debate, user=owner, right_option=NOW, result="failed")
    outcome_record(debate=debate, user=owner, right_option=STAY, result="worked")
    (record,) = team_calibration(team=team).personas
    assert record.hits == 1 and record.brier == pytest.approx(0.02)
    outcome_record(debate=debate, user=owner, right_option=None)
    assert team_calibration(team=team).personas == ()
    assert team_calibration(team=team).panel.scored == 0


def test_other_teams_reviews_stay_out(team, owner, other_team, outsider):
    debate = judged(other_team, outsider, [("Eve", None, STAY, 0.9)], before=STAY,
                    after=STAY)
    decision_record(debate=debate, user=outsider, option=STAY, rationale="r")
    outcome_record(debate=debate, user=outsider, right_option=STAY, result="worked")
    assert team_calibration(team=team).personas == ()
    assert len(team_calibration(team=other_team).personas) == 1
