"""The synthesis page and comment panel for comments in place: no comment affordance
for viewers, refusals shown next to the selection, moderation, history."""

from __future__ import annotations

import pytest

from collab.models import Comment
from collab.services import comment_create, comment_edit, comment_set_hidden
from debates.models import Synthesis
from tests.factories import add_synthesis, make_debate

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    add_synthesis(debate)
    debate.status = "succeeded"
    debate.save(update_fields=["status"])
    return debate


def _synthesis_page(client, debate):
    response = client.get(f"/debates/{debate.code}/synthesis")
    assert response.status_code == 200
    return response.content.decode()


def test_viewers_get_no_comment_links_or_selection_form(viewer_client, member_client, debate):
    for_viewer = _synthesis_page(viewer_client, debate)
    for_member = _synthesis_page(member_client, debate)
    for marker in ('class="comment-link', "data-can-comment", 'id="selection-comment"',
                   'id="comment-selection"'):
        assert marker in for_member and marker not in for_viewer, marker
    assert "data-passage" in for_viewer  # threads are still placed beside passages


def test_a_refused_selection_comment_is_shown_next_to_the_selection(member_client, debate):
    response = member_client.post(f"/debates/{debate.code}/comments/", {
        "via": "selection", "target_kind": "quote", "quote": "not in it", "quote_offset": "3",
        "body": "Hm"}, **HX)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#selection-comment-error"
    assert "not in the synthesis" in response.content.decode()
    assert not Comment.objects.exists()


def test_a_selection_comment_returns_the_panel_with_its_anchor(member_client, debate):
    response = member_client.post(f"/debates/{debate.code}/comments/", {
        "via": "selection", "target_kind": "quote", "quote": "in Q3", "quote_offset": "8",
        "body": "Why Q3, @owner?"}, **HX)
    html = response.content.decode()
    assert 'data-quote="in Q3" data-occurrence="0"' in html
    assert '<span class="mention">@owner</span>' in html
    assert '"owner"' in html and 'id="team-members"' in html  # for @-completion
    assert Comment.objects.get().quote_offset == len("Migrate ")


def test_owners_moderate_from_the_panel_and_read_the_log(owner_client, member_client, debate,
                                                         member, owner):
    comment = comment_create(debate=debate, author=member, body="Spam spam")
    owner_panel = owner_client.get(f"/debates/{debate.code}/comments/", **HX).content.decode()
    assert f"/comments/{comment.code}/hide" in owner_panel
    assert "/hide" not in member_client.get(f"/debates/{debate.code}/comments/",
                                            **HX).content.decode()
    owner_client.post(f"/debates/{debate.code}/comments/{comment.code}/hide", **HX)
    comment.refresh_from_db()
    assert comment.is_hidden
    other = comment_create(debate=debate, author=owner, body="Mine")
    assert member_client.post(
        f"/debates/{debate.code}/comments/{other.code}/hide").status_code == 403
    log = owner_client.get(f"/debates/{debate.code}/comments/moderation").content.decode()
    assert "owner" in log and "hid" in log and "member" in log
    assert member_client.get(f"/debates/{debate.code}/comments/moderation").status_code == 403


def test_a_hidden_comment_keeps_its_text_from_the_team(viewer_client, debate, member, owner):
    comment = comment_create(debate=debate, author=member, body="Spam spam")
    comment_set_hidden(comment=comment, user=owner, hidden=True)
    panel = viewer_client.get(f"/debates/{debate.code}/comments/", **HX).content.decode()
    assert "Spam spam" not in panel and "hidden by an owner" in panel
    api = viewer_client.get(f"/api/debates/{debate.code}/comments").json()
    assert api[0]["body"] == "" and api[0]["hidden"] is True


def test_the_edit_history_is_readable(viewer_client, debate, owner):
    comment = comment_create(debate=debate, author=owner, body="First take")
    comment_edit(comment=comment, user=owner, body="Second take")
    panel = viewer_client.get(f"/debates/{debate.code}/comments/", **HX).content.decode()
    history_url = f"/debates/{debate.code}/comments/{comment.code}/history"
    assert history_url in panel
    page = viewer_client.get(history_url).content.decode()
    assert "Second take" in page and "First take" in page


def test_a_thread_whose_quote_is_gone_shows_as_on_an_earlier_version(member_client, debate,
                                                                    owner):
    comment_create(debate=debate, author=owner, body="Why Q3?", target_kind="quote",
                   quote="Migrate in Q3")
    panel = member_client.get(f"/debates/{debate.code}/comments/", **HX).content.decode()
    assert 'data-quote="Migrate in Q3"' in panel and "on an earlier version" not in panel
    synthesis = Synthesis.objects.get(debate=debate)
    synthesis.result["recommended_path"]["recommendation"] = "Migrate in Q4"
    synthesis.save(update_fields=["result"])
    panel = member_client.get(f"/debates/{debate.code}/comments/", **HX).content.decode()
    assert "on an earlier version" in panel and "data-quote=" not in panel


def test_a_comment_can_mention_a_viewer_though_only_editors_may_own_actions(
        member_client, debate, viewer, outsider):
    page = member_client.get(f"/debates/{debate.code}/comments/").content.decode()
    members = page.split('id="team-members" type="application/json">', 1)[1].split("<", 1)[0]
    assert '"viewer"' in members and '"member"' in members and '"outsider"' not in members
    actions = member_client.get(f"/debates/{debate.code}/actions/").content.decode()
    owners = actions.split('name="owner"', 1)[1].split("</select>", 1)[0]
    assert ">member<" in owners and ">viewer<" not in owners


def test_a_thread_on_a_passage_shows_its_quote_once(member_client, member, debate):
    comment_create(debate=debate, author=member, body="Why then?", target_kind="quote",
                   quote="Migrate in Q3", quote_offset=0)
    html = member_client.get(f"/debates/{debate.code}/comments/").content.decode()
    thread = html.split('class="thread', 1)[1].split("</article>", 1)[0]
    assert thread.count("Migrate in Q3") == 2  # the quote once, and the anchor's data-quote
    assert 'data-quote="Migrate in Q3"' in thread and "On the passage" in thread
