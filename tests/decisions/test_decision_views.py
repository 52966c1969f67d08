"""The decision on the web: recorded from the debate page by editors, shown at the top
of it and in every export and the admin, with its history; the decision log."""

from __future__ import annotations

import html
import json
from datetime import timedelta

from django.utils import timezone

from decisions.models import Decision
from decisions.services import decision_record
from tests.decisions.conftest import finish
from tests.factories import make_debate


def test_an_editor_records_the_decision_and_it_shows_on_the_debate_page(
        member_client, debate):
    url = f"/debates/{debate.code}/decision"
    # The finished page is cached; the decision must show at once all the same.
    assert "Record the team's decision" in html.unescape(member_client.get(
        f"/debates/{debate.code}/").content.decode())
    form = member_client.get(url).content.decode()
    assert "Migrate in Q3" in form and "Another choice" in form
    review = timezone.localdate() + timedelta(days=30)
    response = member_client.post(url, {"option": "Migrate in Q3", "rationale": "After the freeze.",
                                        "review_on": review.isoformat()})
    assert response.status_code == 302
    decision = Decision.objects.get(debate=debate)
    assert decision.option == "Migrate in Q3" and decision.review_on == review
    page = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert 'id="decision"' in page and "Migrate in Q3" in page and "After the freeze." in page
    # In the answer block, the first under the question (docs/web.md, "Answer first").
    assert page.index('class="question"') < page.index('id="answer"') \
        < page.index('id="decision"') < page.index('id="debate-status"')


def test_another_choice_through_the_form(member_client, debate):
    response = member_client.post(f"/debates/{debate.code}/decision", {
        "option": "__other__", "choice": "Split the service", "rationale": "r",
        "review_on": ""})
    assert response.status_code == 302
    decision = Decision.objects.get()
    assert (decision.choice, decision.option, decision.review_on) == (
        "Split the service", "", None)


def test_bad_input_on_the_form_is_shown_and_nothing_saved(member_client, debate):
    past = timezone.localdate() - timedelta(days=1)
    response = member_client.post(f"/debates/{debate.code}/decision", {
        "option": "Stay", "rationale": "r", "review_on": past.isoformat()})
    assert response.status_code == 400
    assert "is in the past" in response.content.decode()
    response = member_client.post(f"/debates/{debate.code}/decision", {
        "option": "__other__", "choice": "", "rationale": "r"})
    assert response.status_code == 400 and "Choose one of the debate" in response.content.decode()
    assert not Decision.objects.exists()


def test_an_empty_form_says_what_each_field_needs(member_client, debate):
    """Neither option nor rationale and a review date in 2020: one message per field,
    each saying what it needs, not "This field is required." twice."""
    response = member_client.post(f"/debates/{debate.code}/decision", {
        "rationale": "", "review_on": "2020-03-01"})
    page = html.unescape(response.content.decode())
    assert response.status_code == 400 and not Decision.objects.exists()
    assert "This field is required." not in page
    assert "Choose one of the debate's options, or “Another choice”" in page
    assert "Say why the team decided this (the rationale)." in page
    assert "The review date 2020-03-01 is in the past; pick today or later" in page


def test_a_due_decision_keeps_its_past_review_date_when_changed(member_client, debate, owner):
    decision = decision_record(debate=debate, user=owner, option="Stay", rationale="r")
    past = timezone.localdate() - timedelta(days=3)
    Decision.objects.filter(pk=decision.pk).update(review_on=past)
    response = member_client.post(f"/debates/{debate.code}/decision", {
        "option": "Stay", "rationale": "changed", "review_on": past.isoformat()})
    assert response.status_code == 302
    assert Decision.objects.get().rationale == "changed"


def test_an_unfinished_debate_cannot_be_decided(member_client, team, owner):
    debate = make_debate(team, owner)
    response = member_client.post(f"/debates/{debate.code}/decision",
                                  {"option": "yes", "rationale": "r"})
    assert response.status_code == 409 and "has not finished" in response.content.decode()
    assert not Decision.objects.exists()


def test_viewers_read_the_decision_but_cannot_record_one(viewer_client, debate, owner):
    assert viewer_client.get(f"/debates/{debate.code}/decision").status_code == 403
    assert viewer_client.post(f"/debates/{debate.code}/decision",
                              {"option": "Stay", "rationale": "r"}).status_code == 403
    decision_record(debate=debate, user=owner, option="Stay", rationale="Too risky.")
    page = viewer_client.get(f"/debates/{debate.code}/").content.decode()
    assert "Too risky." in page and f"/debates/{debate.code}/decision\"" not in page


def test_outsiders_get_404(outsider_client, debate):
    assert outsider_client.get(f"/debates/{debate.code}/decision").status_code == 404
    assert outsider_client.get(f"/debates/{debate.code}/decision/history").status_code == 404


def test_earlier_versions_stay_readable(member_client, debate, owner, member):
    decision_record(debate=debate, user=owner, option="Stay", rationale="Too risky.")
    decision_record(debate=debate, user=member, option="Migrate now", rationale="Price fell.")
    page = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "1 earlier version" in page
    history = member_client.get(f"/debates/{debate.code}/decision/history").content.decode()
    assert "Version 2" in history and "Version 1" in history
    assert "Too risky." in history and "Price fell." in history


def test_the_decision_is_in_every_export(member_client, debate, owner):
    from collab.services import action_create

    decision_record(debate=debate, user=owner, option="Stay", rationale="Too risky.")
    decision_record(debate=debate, user=owner, choice="Wait a year", rationale="Later.")
    action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                  owner=owner, due_date=timezone.localdate() + timedelta(days=3))
    md = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert "## Decision" in md and "**Wait a year** (another choice)" in md
    assert "v1" in md and "**Stay**" in md  # the earlier version
    printed = member_client.get(f"/debates/{debate.code}/print").content.decode()
    assert "Wait a year" in printed and "Later." in printed
    data = json.loads(member_client.get(f"/debates/{debate.code}/export.json").content)
    assert data["decision"]["choice"] == "Wait a year"
    assert data["decision"]["earlier_versions"][0]["option"] == "Stay"
    assert [a["target_ref"] for a in data["actions"]] == ["R1"]
    api_md = member_client.get(f"/api/debates/{debate.code}/export.md").content.decode()
    assert "## Decision" in api_md
    api_json = json.loads(member_client.get(f"/api/debates/{debate.code}/export.json").content)
    assert api_json["decision"]["choice"] == "Wait a year" and api_json["actions"]


def test_the_decision_shows_in_admin_review(owner, debate, client):
    owner.is_staff = owner.is_superuser = True
    owner.save()
    client.force_login(owner)
    decision_record(debate=debate, user=owner, option="Stay", rationale="Too risky.")
    page = client.get(f"/admin/debates/debate/{debate.pk}/change/").content.decode()
    assert "Too risky." in page and "Stay" in page


def test_the_decision_log_filters_and_paginates(member_client, team, owner, member):
    today = timezone.localdate()
    first = finish(make_debate(team, owner))
    second = finish(make_debate(team, owner))
    second.question = "Should we hire a second designer?"
    second.save()
    decision_record(debate=first, user=owner, option="Stay", rationale="r", review_on=today)
    decision_record(debate=second, user=member, option="Migrate now", rationale="r",
                    review_on=None)
    page = member_client.get("/decisions/").content.decode()
    assert "2 decisions" in page and "review due" in page and "no review" in page
    due = member_client.get("/decisions/", {"state": "review_due"}).content.decode()
    assert "1 decision" in due and "Stay" in due and "second designer" not in due
    mine = member_client.get("/decisions/", {"owner": member.username}).content.decode()
    assert "second designer" in mine and "1 decision" in mine
    found = member_client.get("/decisions/", {"q": "designer"}).content.decode()
    assert "second designer" in found and "1 decision" in found
    paged = member_client.get("/decisions/", {"page": 2}).content.decode()
    assert "2 decisions" in paged  # one page only: the last page is shown


def test_the_log_is_team_scoped(outsider_client, debate, owner):
    decision_record(debate=debate, user=owner, option="Stay", rationale="Secret reason.")
    assert "Secret reason" not in outsider_client.get("/decisions/").content.decode()
    assert "No decisions yet" in outsider_client.get("/decisions/").content.decode()
