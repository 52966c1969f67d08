"""Admin review of past debates: list, filters, search, read-only transcript and ledger,
reviews, and the re-run and cancel actions."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from collab.models import DebateReview
from debates.models import Debate, DebateStatus, LLMCall, Turn
from tests.factories import make_debate

CHANGELIST = "/admin/debates/debate/"


@pytest.fixture
def admin_client(db):
    staff = User.objects.create_superuser(username="root", email="root@example.com",
                                          password="x")
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def debates(team, owner, other_team, outsider):
    cheap = make_debate(team, owner)
    dear = make_debate(other_team, outsider)
    Debate.objects.filter(pk=dear.pk).update(cost_usd=12.5, status=DebateStatus.SUCCEEDED,
                                             stop_reason="converged", degraded=True)
    return cheap, Debate.objects.get(pk=dear.pk)


def _codes(response):
    return {str(d.code) for d in response.context["cl"].result_list}


def test_changelist_lists_every_teams_debates(admin_client, debates):
    response = admin_client.get(CHANGELIST)
    assert response.status_code == 200
    assert _codes(response) == {str(d.code) for d in debates}


@pytest.mark.parametrize("query", ["cost=gte10", "degraded__exact=1", "status__exact=succeeded",
                                   "stop_reason__exact=converged", "protocol__exact=council"])
def test_filters(admin_client, debates, query):
    cheap, dear = debates
    codes = _codes(admin_client.get(f"{CHANGELIST}?{query}"))
    assert str(dear.code) in codes
    if query != "protocol__exact=council":
        assert str(cheap.code) not in codes


def test_team_filter_and_cost_ranges(admin_client, debates, team):
    cheap, _ = debates
    assert _codes(admin_client.get(f"{CHANGELIST}?team__id__exact={team.pk}")) == {
        str(cheap.code)}
    assert _codes(admin_client.get(f"{CHANGELIST}?cost=zero")) == {str(cheap.code)}


def test_search_by_question_and_by_code(admin_client, debates):
    cheap, dear = debates
    assert len(_codes(admin_client.get(f"{CHANGELIST}?q=billing"))) == 2
    assert _codes(admin_client.get(f"{CHANGELIST}?q={dear.code}")) == {str(dear.code)}
    assert _codes(admin_client.get(f"{CHANGELIST}?q={dear.code.hex}")) == {str(dear.code)}


def test_date_hierarchy(admin_client, debates):
    cheap, _ = debates
    year = cheap.created_at.year
    assert len(_codes(admin_client.get(f"{CHANGELIST}?created_at__year={year}"))) == 2


def test_change_page_shows_transcript_and_ledger_read_only(admin_client, debates):
    cheap, _ = debates
    Turn.objects.create(debate=cheap, phase="position", round=0, agent_index=0, status="ok",
                        payload={"stance": "<b>Yes</b>"})
    LLMCall.objects.create(debate=cheap, phase="position", attempt=1, purpose="call",
                           model="sim/default", prompt_tokens=10, completion_tokens=5,
                           cost_usd=0.25, ok=True)
    html = admin_client.get(f"{CHANGELIST}{cheap.pk}/change/").content.decode()
    assert "transcript" in html.lower() and "&lt;b&gt;Yes&lt;/b&gt;" in html
    assert "1 calls (0 failed), 10 prompt + 5 completion tokens, $0.2500" in html
    assert 'name="turns-0-phase"' not in html  # read-only: no inputs for turns


def test_a_review_is_saved_inline_with_the_reviewer(admin_client, debates):
    cheap, _ = debates
    url = f"{CHANGELIST}{cheap.pk}/change/"
    data = {
        "reviews-TOTAL_FORMS": "1", "reviews-INITIAL_FORMS": "0",
        "reviews-MIN_NUM_FORMS": "0", "reviews-MAX_NUM_FORMS": "1000",
        "reviews-0-rating": "2", "reviews-0-hallucination": "on", "reviews-0-notes": "made up",
        "agents-TOTAL_FORMS": "0", "agents-INITIAL_FORMS": "0",
        "turns-TOTAL_FORMS": "0", "turns-INITIAL_FORMS": "0",
        "llm_calls-TOTAL_FORMS": "0", "llm_calls-INITIAL_FORMS": "0",
    }
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    review = DebateReview.objects.get(debate=cheap)
    assert (review.rating, review.hallucination, review.reviewer.username) == (2, True, "root")
    assert review.flags == ["hallucination"]


def test_rerun_action_reports_successes_and_refusals(admin_client, debates, team):
    cheap, dear = debates
    team.debates_per_hour = 1
    team.save()
    response = admin_client.post(CHANGELIST, {"action": "rerun_debates",
                                              "_selected_action": [cheap.pk, dear.pk]},
                                 follow=True)
    text = response.content.decode()
    assert "Re-ran 1 debate(s)." in text and "Rate limit" in text
    assert Debate.objects.filter(parent=dear).count() == 1
    assert not Debate.objects.filter(parent=cheap).exists()


def test_cancel_action_cancels_active_and_refuses_finished(admin_client, debates):
    cheap, dear = debates
    response = admin_client.post(CHANGELIST, {"action": "cancel_debates",
                                              "_selected_action": [cheap.pk, dear.pk]},
                                 follow=True)
    text = response.content.decode()
    assert "Cancelled 1 debate(s)." in text and "cannot be cancelled" in text
    cheap.refresh_from_db()
    assert cheap.status == DebateStatus.CANCELLED


def test_team_members_without_staff_cannot_open_the_admin(owner_client, debates):
    response = owner_client.get(CHANGELIST)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_collab_adds_the_review_count_to_the_debates_changelist(admin_client, debates, owner):
    # collab extends the debates admin (debates imports nothing from collab).
    cheap, dear = debates
    DebateReview.objects.create(debate=cheap, rating=3, reviewer=owner)
    response = admin_client.get(CHANGELIST)
    assert "column-review_count" in response.content.decode()
    counts = {d.code: d._reviews for d in response.context["cl"].result_list}
    assert counts == {cheap.code: 1, dear.code: 0}
