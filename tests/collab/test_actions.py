"""Acting on a synthesis: actions on risks and claims (owner in the team, due date, done),
claims marked checked with a note, comments on claims, and comment counts, actions and
checks shown next to the synthesis items and in the exports."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone
from markdown_it import MarkdownIt

from collab.models import Action, ClaimCheck, Comment
from collab.services import (
    CommentError,
    action_create,
    action_set_done,
    claim_set_checked,
    comment_create,
)
from debates.models import Synthesis
from notifications.models import Kind, Notification
from notifications.tasks import notify_action_assigned
from tests.factories import add_synthesis, make_debate

CLAIMS = [{"quote": "Postgres 17 costs $0.10/GB", "type": "price", "why": "a price"},
          {"quote": "99.99% uptime", "type": "statistic", "why": "a statistic"}]
SOON = date.today() + timedelta(days=7)


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    synthesis = add_synthesis(debate)
    synthesis.result = {**synthesis.result, "unverified_claims": CLAIMS}
    synthesis.save()
    debate.status = "succeeded"
    debate.save()
    return debate


# ------------------------------------------------------------------------ services


def test_an_action_on_a_risk_with_an_owner_and_a_due_date(debate, owner, member):
    action = action_create(debate=debate, user=owner, target_kind="risk", target_ref="R2",
                           owner=member, due_date=SOON, title="Price the exit")
    assert (action.target_ref, action.owner, action.due_date) == ("R2", member, SOON)
    assert action.status == "open" and action.created_by == owner


def test_an_action_without_a_title_is_named_after_its_item(debate, owner):
    risk = action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                         owner=owner, due_date=SOON)
    claim = action_create(debate=debate, user=owner, target_kind="claim", target_ref="V2",
                          owner=owner, due_date=SOON)
    assert risk.title == "Mitigate R1: Migration downtime"
    assert claim.title == "Verify V2: 99.99% uptime"


@pytest.mark.parametrize("kind, ref, message", [
    ("risk", "R9", "no risk 'R9'"),
    ("claim", "V3", "no claim to verify 'V3'"),
    ("concern", "C1", "in general, a risk or a claim"),
])
def test_an_action_on_something_the_synthesis_lacks_is_refused(debate, owner, kind, ref,
                                                               message):
    with pytest.raises(CommentError, match=message):
        action_create(debate=debate, user=owner, target_kind=kind, target_ref=ref,
                      owner=owner, due_date=SOON)
    assert not Action.objects.exists()


def test_the_owner_must_be_a_member_and_the_date_not_past(debate, owner, outsider):
    with pytest.raises(CommentError, match="member of this debate's team"):
        action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                      owner=outsider, due_date=SOON)
    with pytest.raises(CommentError, match="in the past"):
        action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                      owner=owner, due_date=timezone.localdate() - timedelta(days=1))
    assert not Action.objects.exists()


def test_no_action_before_there_is_a_synthesis(team, owner):
    debate = make_debate(team, owner)
    with pytest.raises(CommentError, match="no synthesis"):
        action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                      owner=owner, due_date=SOON)


def test_done_and_open_again(debate, owner, member):
    action = action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                           owner=member, due_date=SOON)
    action_set_done(action=action, user=member, done=True)
    action.refresh_from_db()
    assert action.is_done and action.done_by == member and action.done_at is not None
    action_set_done(action=action, user=owner, done=False)
    action.refresh_from_db()
    assert not action.is_done and action.done_by is None and action.done_at is None


def test_the_owner_is_notified_unless_they_gave_it_themselves(debate, owner, member,
                                                              django_capture_on_commit_callbacks,
                                                              monkeypatch):
    queued = []
    monkeypatch.setattr("django_q.tasks.async_task",
                        lambda name, *args, **kw: queued.append((name, args)))
    with django_capture_on_commit_callbacks(execute=True):
        mine = action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                             owner=owner, due_date=SOON)
        theirs = action_create(debate=debate, user=owner, target_kind="claim",
                               target_ref="V1", owner=member, due_date=SOON)
    assert queued == [("notifications.tasks.notify_action_assigned", (theirs.pk,))]
    assert notify_action_assigned(theirs.pk) == 1
    assert notify_action_assigned(theirs.pk) == 1  # a retry sends nothing new
    note = Notification.objects.get(user=member)
    assert note.kind == Kind.ACTION_ASSIGNED and note.actor == owner
    assert f"due {SOON:%Y-%m-%d}" in note.title and note.url.endswith(f"#action-{theirs.code}")
    assert mine.owner == owner  # their own action was never queued (above)


def test_a_done_action_notifies_nobody(debate, owner, member):
    action = action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                           owner=member, due_date=SOON)
    action_set_done(action=action, user=member, done=True)
    assert notify_action_assigned(action.pk) == 0


def test_a_claim_checked_with_a_note_then_unchecked(debate, owner, member):
    check = claim_set_checked(debate=debate, user=member, claim_ref="V1", checked=True,
                              note="  List price is $0.12/GB  ")
    assert check is not None and check.note == "List price is $0.12/GB"
    assert check.checked_by == member
    again = claim_set_checked(debate=debate, user=owner, claim_ref="V1", checked=True,
                              note="Confirmed with sales")
    assert ClaimCheck.objects.get().note == "Confirmed with sales" and again.checked_by == owner
    assert claim_set_checked(debate=debate, user=owner, claim_ref="V1", checked=False) is None
    assert not ClaimCheck.objects.exists()


def test_checking_a_claim_that_does_not_exist_is_refused(debate, owner):
    with pytest.raises(CommentError, match="it has: V1, V2"):
        claim_set_checked(debate=debate, user=owner, claim_ref="V7", checked=True)


def test_comments_on_claims(debate, owner):
    thread = comment_create(debate=debate, author=owner, body="Source?", target_kind="claim",
                            target_ref="V2")
    assert thread.target_ref == "V2"
    with pytest.raises(CommentError, match="no claim to verify 'V3'"):
        comment_create(debate=debate, author=owner, body="x", target_kind="claim",
                       target_ref="V3")
    assert Comment.objects.count() == 1


# ------------------------------------------------------------------------ views


def _actions(debate, suffix=""):
    return f"/debates/{debate.code}/actions/{suffix}"


def test_the_form_offers_the_risks_and_claims_and_prefills_from_the_query(member_client,
                                                                          debate):
    html = member_client.get(_actions(debate) + "?target=claim:V2").content.decode()
    assert 'value="risk:R1"' in html and 'value="claim:V1"' in html
    assert 'value="claim:V2" selected' in html
    assert 'name="due_date"' in html and 'type="date"' in html
    assert ">owner<" in html and ">member<" in html  # the team's members as owners


def test_creating_an_action_returns_to_it_on_the_synthesis(member_client, debate, owner):
    response = member_client.post(_actions(debate), {
        "target": "risk:R2", "owner": owner.pk, "due_date": SOON.isoformat(),
        "title": "Ask two vendors for exit terms"})
    action = Action.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/debates/{debate.code}/synthesis#action-{action.code}"
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert f'id="action-{action.code}"' in html and "Ask two vendors for exit terms" in html
    assert f"due <time datetime=\"{SOON:%Y-%m-%d}\">" in html


def test_the_form_defaults_to_a_general_action_not_the_first_risk(member_client, debate):
    html = member_client.get(_actions(debate)).content.decode()
    select = html.split('name="target"', 1)[1].split("</select>", 1)[0]
    options = select.split("<option")[1:]
    assert 'value="synthesis:"' in options[0] and "General" in options[0]
    assert "selected" not in select or 'value="synthesis:" selected' in select
    assert 'value="risk:R1" selected' not in select


def test_a_general_action_hangs_on_no_risk_or_claim(member_client, debate, owner):
    response = member_client.post(_actions(debate), {
        "target": "synthesis:", "owner": owner.pk, "due_date": SOON.isoformat(),
        "title": "Tell finance what we chose"})
    assert response.status_code == 302
    action = Action.objects.get()
    assert (action.target_kind, action.target_ref, action.about) == ("synthesis", "", "general")
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert '<span class="item-id">general</span>' in html
    markdown = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert "**general** (debate) Tell finance what we chose" in markdown


def test_a_general_action_needs_a_title(debate, owner):
    with pytest.raises(CommentError, match="general action needs a title"):
        action_create(debate=debate, user=owner, target_kind="synthesis", target_ref="",
                      owner=owner, due_date=SOON)
    assert not Action.objects.exists()


def test_a_refused_action_keeps_the_form_and_says_why(member_client, debate, outsider):
    response = member_client.post(_actions(debate), {
        "target": "risk:R2", "owner": outsider.pk, "due_date": SOON.isoformat()})
    assert response.status_code == 400 and not Action.objects.exists()
    assert "Select a valid choice" in response.content.decode()  # not a team member
    response = member_client.post(_actions(debate), {
        "target": "risk:R2", "owner": "", "due_date": "2000-01-01"})
    assert response.status_code == 400


def test_mark_done_and_reopen(member_client, debate, owner, member):
    action = action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                           owner=member, due_date=SOON)
    member_client.post(_actions(debate, f"{action.code}/done"))
    action.refresh_from_db()
    assert action.is_done and action.done_by == member
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert "done by member" in html and "Reopen" in html
    member_client.post(_actions(debate, f"{action.code}/reopen"))
    action.refresh_from_db()
    assert not action.is_done


def test_an_action_of_another_debate_is_not_found(member_client, debate, team, owner):
    other = make_debate(team, owner)
    add_synthesis(other)
    action = action_create(debate=other, user=owner, target_kind="risk", target_ref="R1",
                           owner=owner, due_date=SOON)
    assert member_client.post(_actions(debate, f"{action.code}/done")).status_code == 404


def test_marking_a_claim_checked_from_the_synthesis_page(member_client, debate):
    url = f"/debates/{debate.code}/claims/check"
    response = member_client.post(url, {"claim": "V2", "note": "SLA says 99.95%",
                                        "checked": "yes"})
    assert response["Location"].endswith("#claim-V2")
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert 'id="claim-V2"' in html and "checked</span> by member" in html
    assert "SLA says 99.95%" in html
    member_client.post(url, {"claim": "V2", "checked": "no"})
    assert not ClaimCheck.objects.exists()
    response = member_client.post(url, {"claim": "V9", "checked": "yes"}, follow=True)
    assert "The claim was not marked" in response.content.decode()


def test_comment_counts_and_actions_next_to_the_synthesis_items(member_client, debate, owner,
                                                                member):
    thread = comment_create(debate=debate, author=owner, body="Really?", target_kind="risk",
                            target_ref="R2")
    comment_create(debate=debate, author=member, body="Yes", parent=thread)
    comment_create(debate=debate, author=owner, body="Source?", target_kind="claim",
                   target_ref="V1")
    action_create(debate=debate, user=owner, target_kind="risk", target_ref="R2",
                  owner=member, due_date=SOON, title="Price the exit")
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    risk_row = html.split('id="risk-R2"')[1].split("</tr>")[0]
    assert "2 comments" in risk_row and "Price the exit" in risk_row
    assert "?target=risk:R2" in risk_row
    claim_item = html.split('id="claim-V1"')[1].split("</li>\n")[0]
    assert "1 comment" in claim_item and "target_kind=claim&amp;target_ref=V1" in claim_item
    r1_row = html.split('id="risk-R1"')[1].split("</tr>")[0]
    assert "comment-link" in r1_row and "comment-count" not in r1_row


def test_a_viewer_sees_the_follow_up_but_no_forms(viewer_client, debate, owner):
    action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                  owner=owner, due_date=SOON, title="Plan the cut-over")
    html = viewer_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert "Plan the cut-over" in html
    assert "Mark done" not in html and "Mark checked" not in html and "New action" not in html


def test_the_markdown_export_lists_actions_and_checked_claims(member_client, debate, owner,
                                                              member):
    action = action_create(debate=debate, user=owner, target_kind="claim", target_ref="V1",
                           owner=member, due_date=SOON, title="Get a quote")
    action_set_done(action=action, user=member, done=True)
    claim_set_checked(debate=debate, user=member, claim_ref="V1", checked=True,
                      note="$0.12/GB")
    md = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert '- **V1** "Postgres 17 costs $0.10/GB"' in md  # the claim keeps its id
    assert "## Follow-up" in md
    assert f"- [x] **V1** (claim) Get a quote — member, due {SOON:%Y-%m-%d}" in md
    assert "- **V1** checked by member on" in md and ": $0.12/GB" in md
    printed = member_client.get(f"/debates/{debate.code}/print").content.decode()
    assert "Get a quote" in printed


def test_no_follow_up_section_in_the_export_when_the_team_did_nothing(member_client, debate):
    md = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert "Follow-up" not in md
    assert Synthesis.objects.filter(debate=debate).exists()


def test_staff_review_actions_and_checks_in_the_admin(admin_client, debate, owner):
    action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                  owner=owner, due_date=SOON, title="Plan the cut-over")
    claim_set_checked(debate=debate, user=owner, claim_ref="V1", checked=True, note="ok")
    assert "Plan the cut-over" in admin_client.get(
        "/admin/collab/action/").content.decode()
    assert "V1" in admin_client.get("/admin/collab/claimcheck/").content.decode()


def test_the_follow_up_in_the_markdown_export_carries_no_markup_from_the_team(
        member_client, debate, owner):
    action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1", owner=owner,
                  due_date=SOON, title="<img src=x onerror=alert(1)> [go](javascript:x())")
    claim_set_checked(debate=debate, user=owner, claim_ref="V1", checked=True,
                      note="\n\n# Forged heading")
    md = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    # Markdown escapes (no HTML entity): the file reads as typed, a renderer adds nothing.
    assert "\\<img src=x onerror=alert(1)> \\[go\\](javascript:x())" in md
    assert "&lt;" not in md and "\n# Forged" not in md
    rendered = MarkdownIt("commonmark", {"html": True}).render(md)
    assert "<img" not in rendered and "<a " not in rendered
