"""What a reader needs to find their way: links between a debate's pages, readable
transcript entries, the panel size on the live page, the comment prompts on the
synthesis."""

from __future__ import annotations

import re


def test_transcript_shows_no_python_or_json_notation(member_client, make_debate):
    debate = make_debate(mode="medium")
    html = member_client.get(f"/debates/{debate.code}/transcript").content.decode()
    body = html.split('id="step-synthesis"', 1)[1]
    assert "{&#x27;" not in body and "[&#x27;" not in body and "{'" not in body
    assert "Synthesis model&#x27;s draft" in body or "Synthesis model's draft" in body
    assert "Verifier" in body


def test_live_page_header_shows_the_panel_size_and_links_to_comments(member_client, finished):
    html = member_client.get(f"/debates/{finished.code}/").content.decode()
    agents = finished.settings["agents"]
    assert re.search(rf"·\s*{agents} agents", html)
    assert f"/debates/{finished.code}/comments/" in html


def test_synthesis_names_risk_ids_and_offers_a_comment_link_per_item(member_client, finished):
    html = member_client.get(f"/debates/{finished.code}/synthesis").content.decode()
    result = finished.synthesis.result
    risk = result["pre_positional_risks"][0]["id"]
    assert f'<td class="item-id">{risk}</td>' in html
    assert f"comments/?target_kind=risk&amp;target_ref={risk}#new-comment" in html
    # the comments panel is loaded into the page
    assert f'hx-get="/debates/{finished.code}/comments/"' in html


def test_comments_page_prefills_from_the_link_and_links_back(member_client, finished):
    result = finished.synthesis.result
    risk = result["pre_positional_risks"][0]["id"]
    html = member_client.get(
        f"/debates/{finished.code}/comments/?target_kind=risk&target_ref={risk}").content.decode()
    assert f'value="{risk}"' in html
    assert '<option value="risk" selected>' in html
    assert f"/debates/{finished.code}/synthesis" in html
    assert 'list="comment-targets"' in html


def test_a_refused_comment_keeps_what_was_typed(member_client, finished):
    response = member_client.post(
        f"/debates/{finished.code}/comments/",
        {"body": "Keep this text", "target_kind": "risk", "target_ref": "R99"},
        HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "The comment was not saved" in html
    assert "Keep this text</textarea>" in html and 'value="R99"' in html


def test_login_page_offers_sign_up(client):
    html = client.get("/accounts/login/").content.decode()
    assert "/accounts/signup/" in html


def test_empty_debate_list_invites_to_start_one(member_client):
    html = member_client.get("/debates/").content.decode()
    assert "No debates yet" in html and "/debates/new" in html
