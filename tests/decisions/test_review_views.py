"""The review form on the web, the calibration page and each persona's record on the
persona library page."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from decisions.models import Decision, Outcome
from decisions.outcomes import outcome_record
from decisions.services import decision_record
from personas.services import library_create, persona_create
from tests.decisions.conftest import OPTIONS
from tests.decisions.panels import debate_with_verdicts, persona

NOW, Q3, STAY = OPTIONS


@pytest.fixture
def decided(debate, owner):
    return decision_record(debate=debate, user=owner, option=STAY, rationale="Too risky.")


def test_the_debate_page_offers_the_review_to_editors(member_client, viewer_client, debate,
                                                       decided):
    page = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert f'href="/debates/{debate.code}/outcome"' in page
    assert f"/debates/{debate.code}/outcome" not in viewer_client.get(
        f"/debates/{debate.code}/").content.decode()


def test_a_due_review_is_offered_as_a_button(member_client, debate, decided):
    Decision.objects.filter(pk=decided.pk).update(review_on=timezone.localdate())
    page = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert (f'<a class="button" href="/debates/{debate.code}/outcome">Review it now</a>'
            in page)


def test_an_editor_records_the_outcome_on_the_web(member_client, debate, decided):
    form = member_client.get(f"/debates/{debate.code}/outcome")
    assert form.status_code == 200 and "Can&#x27;t tell yet" in form.content.decode()
    response = member_client.post(f"/debates/{debate.code}/outcome", {
        "right_option": Q3, "result": "failed", "notes": "Should have waited."})
    assert response.status_code == 302
    outcome = Outcome.objects.get()
    assert (outcome.right_option, outcome.result) == (Q3, "failed")
    page = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "Migrate in Q3</strong> proved right, result: failed" in page
    assert "Reviewed" in page


def test_cant_tell_yet_on_the_web_moves_the_review(member_client, debate, decided):
    response = member_client.post(f"/debates/{debate.code}/outcome", {
        "right_option": "__cant_tell__", "review_again_on": "2100-02-03"})
    assert response.status_code == 302
    decided.refresh_from_db()
    assert str(decided.review_on) == "2100-02-03" and decided.reviewed_at is None


def test_a_refused_outcome_says_why_and_saves_nothing(member_client, debate, decided):
    response = member_client.post(f"/debates/{debate.code}/outcome", {"right_option": STAY})
    assert response.status_code == 400
    assert "Say how it went" in response.content.decode()
    assert not Outcome.objects.exists()


def test_no_review_before_a_decision(member_client, debate):
    response = member_client.get(f"/debates/{debate.code}/outcome")
    assert response.status_code == 409 and "no decision yet" in response.content.decode()
    response = member_client.post(f"/debates/{debate.code}/outcome",
                                  {"right_option": STAY, "result": "worked"})
    assert response.status_code == 409 and not Outcome.objects.exists()


def _reviewed(team, owner, panel, *, right, before, after):
    debate = debate_with_verdicts(team, owner, panel, before=before, after=after)
    decision_record(debate=debate, user=owner, option=STAY, rationale="r")
    outcome_record(debate=debate, user=owner, right_option=right, result="worked")
    return debate


def test_the_calibration_page_ranks_personas_and_draws_the_diagram(viewer_client, team,
                                                                   owner):
    library = library_create(team=team, user=owner, name="Advisers")
    dana = persona_create(library=library, user=owner, data=persona("Dana"))
    _reviewed(team, owner, [("Dana", dana, STAY, 0.8), ("Composed", None, NOW, 0.6)],
              right=STAY, before=NOW, after=STAY)
    page = viewer_client.get("/calibration/").content.decode()
    rows = re.findall(r'<td data-label="rank">(\d)</td>\s*<td data-label="persona">'
                      r"(?:<a [^>]*>)?(\w+)", page)
    assert rows == [("1", "Dana"), ("2", "Composed")]  # 0.020 before 0.347
    assert "0.020" in page and "0.347" in page and "too few" in page
    assert '0 of 1 (0%)' in page and '1 of 1 (100%)' in page and "+100 points" in page
    assert page.count("<circle") == 2  # the 0.6 and 0.8 bins
    library_page = viewer_client.get(f"/personas/libraries/{library.code}/").content.decode()
    assert "Brier 0.020 over 1 decision" in library_page
    persona_page = viewer_client.get(f"/personas/{dana.code}/").content.decode()
    assert "Brier 0.020 over 1 reviewed decision, its final verdict right in 1" in persona_page


def test_the_calibration_page_says_what_each_reviewed_debate_changed(viewer_client, team,
                                                                       owner):
    flipped = _reviewed(team, owner, [("Ann", None, STAY, 0.8), ("Bo", None, STAY, 0.6)],
                        right=STAY, before=NOW, after=STAY)
    kept = _reviewed(team, owner, [("Cy", None, NOW, 0.7), ("Di", None, NOW, 0.7)],
                     right=Q3, before=NOW, after=NOW)
    tied = _reviewed(team, owner, [("Ed", None, STAY, 0.7), ("Flo", None, NOW, 0.7)],
                     right=STAY, before=None, after=None)
    page = viewer_client.get("/calibration/").content.decode()
    section = page.split('id="reviewed-decisions"')[1].split("</section>")[0]

    def row(debate):
        return section.split(f'id="reviewed-{debate.code}"')[1].split("</tr>")[0]

    assert ("First vote: Migrate now 2:0; after cross-examination: Stay 2:0 "
            "(the debate changed the answer)") in row(flipped)
    assert ("First vote: Migrate now 2:0; after cross-examination: Migrate now 2:0 "
            "(the debate kept the answer)") in row(kept)
    assert ("First vote: tied, Migrate now 1, Migrate in Q3 1; after cross-examination: "
            "tied, Migrate now 1, Migrate in Q3 1 (still tied: no answer)") in row(tied)
    assert 'data-label="proved right">Stay</td>' in row(flipped)
    assert row(flipped).count("badge-succeeded") == 1  # wrong first, right after
    assert "badge-succeeded" not in row(kept) and row(tied).count("no answer") >= 2
    # Newest review first, each linked to its debate.
    assert section.index(str(tied.code)) < section.index(str(kept.code)) \
        < section.index(str(flipped.code))
    assert f'href="/debates/{flipped.code}/"' in row(flipped)


def test_the_calibration_page_before_any_review(viewer_client, team):
    page = viewer_client.get("/calibration/").content.decode()
    assert 'id="calibration-empty"' in page and "<svg class=\"chart" not in page


def test_the_reviews_show_in_the_decision_admin(owner, debate, decided, client):
    owner.is_staff = owner.is_superuser = True
    owner.save()
    client.force_login(owner)
    outcome_record(debate=debate, user=owner, right_option=Q3, result="failed",
                   notes="The freeze moved.")
    page = client.get(f"/admin/decisions/decision/{decided.pk}/change/").content.decode()
    assert "The freeze moved." in page and "Migrate in Q3" in page
