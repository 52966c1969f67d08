"""Every destructive button asks before it acts: member Remove, invitation Revoke and
API token Revoke carry the ``data-confirm`` question council.js shows in a dialog
(as Cancel and One more round do); comment Delete, sent by htmx, carries hx-confirm."""

from __future__ import annotations

from accounts.services import api_token_create, invitation_create
from collab.services import comment_create
from tests.web.htmltools import parse


def _forms_posting_to(html: str, action_end: str) -> list[dict[str, str | None]]:
    return [el.attrs for el in parse(html).elements
            if el.tag == "form" and (el.attrs.get("action") or "").endswith(action_end)]


def test_member_remove_and_invitation_revoke_ask_first(owner_client, team, member):
    invitation_create(team=team, created_by=None, role="editor", email="new@example.com")
    html = owner_client.get(f"/teams/{team.code}/").content.decode()
    removes = _forms_posting_to(html, "/remove")
    assert removes and all((f.get("data-confirm") or "").startswith("Remove ")
                           for f in removes)
    assert any("member" in (f.get("data-confirm") or "") for f in removes)
    revokes = _forms_posting_to(html, "/revoke")
    assert len(revokes) == 1
    assert (revokes[0].get("data-confirm") or "").startswith(
        "Revoke this invitation for new@example.com?")


def test_api_token_revoke_asks_first(owner_client, owner):
    api_token_create(user=owner, name="ci-deploy")
    html = owner_client.get("/accounts/tokens/").content.decode()
    revokes = _forms_posting_to(html, "/revoke")
    assert len(revokes) == 1
    assert (revokes[0].get("data-confirm") or "").startswith("Revoke the token ci-deploy?")


def test_comment_delete_asks_first_through_htmx(member_client, member, make_debate):
    debate = make_debate()
    mine = comment_create(debate=debate, author=member, body="mine")
    html = member_client.get(f"/debates/{debate.code}/comments/").content.decode()
    deletes = _forms_posting_to(html, f"/{mine.code}/delete")
    assert len(deletes) == 1
    assert deletes[0].get("hx-post") and (deletes[0].get("hx-confirm") or "").startswith(
        "Delete this comment?")
