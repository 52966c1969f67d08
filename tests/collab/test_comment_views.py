"""The comments panel: HTMX fragment or full page, writing, and safe rendering."""

from __future__ import annotations

import pytest

from collab.models import Comment
from collab.services import comment_create
from tests.factories import add_synthesis, make_debate

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    add_synthesis(debate)
    return debate


def _url(debate, suffix=""):
    return f"/debates/{debate.code}/comments/{suffix}"


def test_panel_is_a_fragment_for_htmx_and_a_page_otherwise(viewer_client, debate, owner):
    comment_create(debate=debate, author=owner, body="Hello", target_kind="risk",
                   target_ref="R2")
    fragment = viewer_client.get(_url(debate), **HX).content.decode()
    assert fragment.lstrip().startswith('<section id="comments-panel"')
    assert 'On risk R2 (&quot;Vendor lock-in&quot;)' in fragment
    page = viewer_client.get(_url(debate)).content.decode()
    assert "<html" in page and 'id="comments-panel"' in page
    assert "New comment" not in page  # viewers read only


def test_posting_a_comment_with_htmx_returns_the_updated_panel(member_client, debate):
    response = member_client.post(_url(debate), {"body": "Is R2 real?", "target_kind": "risk",
                                                 "target_ref": "R2"}, **HX)
    assert response.status_code == 200 and "Is R2 real?" in response.content.decode()
    assert Comment.objects.get().author.username == "member"


def test_posting_without_htmx_redirects_back(member_client, debate):
    response = member_client.post(_url(debate), {"body": "Plain form"})
    assert response.status_code == 302 and response["Location"] == _url(debate)


def test_an_invalid_target_is_shown_in_the_panel(member_client, debate):
    response = member_client.post(_url(debate), {"body": "x", "target_kind": "risk",
                                                 "target_ref": "R7"}, **HX)
    assert "no risk &#x27;R7&#x27;" in response.content.decode()
    assert not Comment.objects.exists()


def test_reply_via_the_parent_field(member_client, debate, owner):
    thread = comment_create(debate=debate, author=owner, body="Q")
    member_client.post(_url(debate), {"body": "A", "parent": str(thread.code)}, **HX)
    assert thread.replies.get().body == "A"


def test_edit_own_comment_and_not_someone_elses(member_client, debate, owner, member):
    mine = comment_create(debate=debate, author=member, body="mine")
    theirs = comment_create(debate=debate, author=owner, body="theirs")
    assert member_client.get(_url(debate, f"{mine.code}/edit"), **HX).status_code == 200
    member_client.post(_url(debate, f"{mine.code}/edit"), {"body": "mine, edited"})
    assert member_client.post(_url(debate, f"{theirs.code}/edit"),
                              {"body": "hijack"}).status_code == 403
    assert member_client.post(_url(debate, f"{theirs.code}/delete")).status_code == 403
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.body == "mine, edited" and theirs.body == "theirs" and not theirs.is_deleted


def test_a_deleted_comment_shows_as_deleted(member_client, debate, member):
    mine = comment_create(debate=debate, author=member, body="oops")
    member_client.post(_url(debate, f"{mine.code}/delete"))
    html = member_client.get(_url(debate)).content.decode()
    assert "<em>deleted</em>" in html and "oops" not in html


def test_resolve_and_reopen_views(member_client, debate, owner):
    thread = comment_create(debate=debate, author=owner, body="Q")
    member_client.post(_url(debate, f"{thread.code}/resolve"))
    thread.refresh_from_db()
    assert thread.is_resolved
    member_client.post(_url(debate, f"{thread.code}/reopen"))
    thread.refresh_from_db()
    assert not thread.is_resolved


def test_comment_bodies_go_through_the_sanitised_markdown_path(viewer_client, debate, owner):
    comment_create(debate=debate, author=owner,
                   body='<img src=x onerror="alert(1)"> **hi** [x](javascript:alert(2))')
    html = viewer_client.get(_url(debate)).content.decode()
    assert "<img" not in html and "href=\"javascript" not in html
    assert "<strong>hi</strong>" in html


def test_a_comment_on_another_teams_debate_is_not_found(member_client, other_team, outsider):
    foreign = make_debate(other_team, outsider)
    theirs = comment_create(debate=foreign, author=outsider, body="private")
    assert member_client.get(_url(foreign)).status_code == 404
    assert member_client.post(_url(foreign, f"{theirs.code}/resolve")).status_code == 404


def test_the_panel_prefills_a_target_from_the_query(member_client, debate):
    html = member_client.get(_url(debate) + "?target_kind=risk&target_ref=R2", **HX).content
    html = html.decode()
    assert '<option value="risk" selected>' in html and 'value="R2"' in html
