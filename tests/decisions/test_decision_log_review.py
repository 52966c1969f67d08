"""The decision log closes the loop: editors get the review where it is due, every
member sees how a reviewed decision went, viewers get no link they cannot use, and
the web form offers the debate list's filters."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from decisions.models import Decision
from decisions.outcomes import outcome_record
from decisions.services import decision_record
from tests.decisions.conftest import finish
from tests.factories import make_debate


def _due_and_reviewed(team, owner):
    due = finish(make_debate(team, owner))
    reviewed = finish(make_debate(team, owner))
    decision = decision_record(debate=due, user=owner, option="Stay", rationale="r")
    Decision.objects.filter(pk=decision.pk).update(review_on=timezone.localdate())
    decision_record(debate=reviewed, user=owner, option="Migrate now", rationale="r")
    outcome_record(debate=reviewed, user=owner, right_option="Migrate in Q3",
                   result="failed", notes="n")
    return due, reviewed


def test_editors_get_the_review_where_it_is_due(member_client, team, owner):
    due, reviewed = _due_and_reviewed(team, owner)
    page = member_client.get("/decisions/").content.decode()
    assert f'href="/debates/{due.code}/outcome">Review it now</a>' in page
    # Only where it is due: a reviewed decision is reviewed again from its debate.
    assert f"/debates/{reviewed.code}/outcome" not in page


def test_a_reviewed_decision_shows_its_outcome(viewer_client, team, owner):
    due, reviewed = _due_and_reviewed(team, owner)
    page = viewer_client.get("/decisions/").content.decode()
    assert "<strong>Migrate in Q3</strong> proved right · failed" in page
    assert f"{timezone.localdate():%Y-%m-%d}" in page


def test_viewers_get_no_review_link(viewer_client, team, owner):
    _due_and_reviewed(team, owner)
    page = viewer_client.get("/decisions/").content.decode()
    assert "review due" in page and "/outcome" not in page and "Review it now" not in page


def test_the_web_form_offers_the_debate_lists_filters(member_client, team, owner):
    debate = finish(make_debate(team, owner))
    decision_record(debate=debate, user=owner, option="Stay", rationale="r")
    page = member_client.get("/decisions/").content.decode()
    for name in ("q", "state", "owner", "protocol", "author", "persona", "library",
                 "stop_reason", "created_from", "created_to", "degraded", "simulated",
                 "sort"):
        assert f'name="{name}"' in page, name
    tomorrow = timezone.localdate() + timedelta(days=1)
    later = member_client.get("/decisions/", {"created_from": tomorrow.isoformat()})
    assert "No decisions match" in later.content.decode()
    assert "1 decision" in member_client.get(
        "/decisions/", {"degraded": "no"}).content.decode()


def test_the_log_suggests_personas_by_name_like_the_debate_list(member_client, team, owner):
    # The filter choices carry (name, library) pairs; a plain <select> printed the pairs.
    debate = finish(make_debate(team, owner))
    decision_record(debate=debate, user=owner, option="Stay", rationale="r")
    log = member_client.get("/decisions/").content.decode()
    debates = member_client.get("/").content.decode()
    for page in (log, debates):
        assert 'list="persona-suggestions"' in page and "(&#x27;" not in page
