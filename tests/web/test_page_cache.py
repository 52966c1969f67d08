"""The finished debate page is served from a cache keyed by what it shows: any change
shows at once, each viewer gets their own CSRF token, and access is checked first."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from debates.models import Debate, DebateStatus
from debates.runtime.execution import run_to_completion
from debates.services import debate_more_round

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _page(client: Client, debate: Debate) -> str:
    response = client.get(f"/debates/{debate.code}/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_repeated_load_is_served_from_the_cache_with_few_queries(
        member_client, finished, django_assert_max_num_queries):
    first = _page(member_client, finished)
    # Session, user, debate, membership, the re-runs of the key, the nav's unread
    # count and memberships (the current team among them), and the team's decision
    # (shown above the cached body): no page rendering.
    with django_assert_max_num_queries(8):
        again = _page(member_client, finished)
    masked = re.compile(r"[A-Za-z0-9]{64}")  # a CSRF token, masked afresh per response
    assert masked.sub("-", again) == masked.sub("-", first)


def test_a_rerun_and_its_progress_show_on_the_cached_page_at_once(
        member_client, finished, make_debate):
    assert "Re-runs:" not in _page(member_client, finished)
    child = make_debate(run=False, parent=finished)
    page = _page(member_client, finished)
    assert f"/debates/{child.code}/" in page and "(queued)" in page
    run_to_completion(child.code)
    assert "(succeeded)" in _page(member_client, finished)


def test_one_more_round_shows_at_once(member_client, finished):
    assert "One more round" in _page(member_client, finished)
    debate_more_round(debate=Debate.objects.get(pk=finished.pk))
    page = _page(member_client, finished)
    assert "badge-succeeded" not in page and "Stop now" in page


def test_an_admin_edit_of_the_row_shows_at_once(member_client, finished):
    _page(member_client, finished)
    Debate.objects.filter(pk=finished.pk).update(stop_explanation="Edited by the admin")
    assert "Edited by the admin" in _page(member_client, finished)


def test_viewers_get_no_buttons_and_each_member_their_own_working_token(
        member, owner, viewer_client, finished):
    editors = []
    for user in (member, owner):
        client = Client(enforce_csrf_checks=True)
        client.force_login(user)
        editors.append((client, TOKEN.search(_page(client, finished)).group(1)))
    assert "One more round" not in _page(viewer_client, finished)  # cached for editors
    client, token = editors[1]
    response = client.post(f"/debates/{finished.code}/more-round",
                           {"csrfmiddlewaretoken": token, "confirm": "yes"})
    assert response.status_code == 302
    assert Debate.objects.get(pk=finished.pk).status != DebateStatus.SUCCEEDED


def test_another_team_never_gets_the_cached_page(member_client, outsider_client, finished):
    _page(member_client, finished)
    assert outsider_client.get(f"/debates/{finished.code}/").status_code == 404
