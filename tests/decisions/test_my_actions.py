"""My actions: the signed-in user's actions across debates and teams, open first by
due date; and only editors and owners may own an action (they alone can complete it)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from collab.models import Action
from collab.services import CommentError, action_create
from tests.decisions.conftest import finish
from tests.factories import make_debate

TODAY = timezone.localdate()


def test_my_actions_lists_mine_open_first_by_due_date(member_client, team, owner, member):
    a = finish(make_debate(team, owner))
    b = finish(make_debate(team, owner))
    for debate, title, due, status in [
            (a, "Later one", 9, "open"), (b, "Sooner one", 2, "open"),
            (a, "Finished one", 1, "done"), (b, "Overdue one", -3, "open")]:
        Action.objects.create(debate=debate, target_kind="risk", target_ref="R1", title=title,
                              owner=member, due_date=TODAY + timedelta(days=due),
                              status=status)
    Action.objects.create(debate=a, target_kind="risk", target_ref="R1", title="Owner's",
                          owner=owner, due_date=TODAY)
    html = member_client.get("/actions/").content.decode()
    order = [html.index(t) for t in ("Overdue one", "Sooner one", "Later one", "Finished one")]
    assert order == sorted(order)
    assert "Owner's" not in html and "overdue" in html


def test_actions_of_a_team_left_are_not_listed(member_client, team, owner, member):
    from accounts.models import Membership

    debate = finish(make_debate(team, owner))
    Action.objects.create(debate=debate, target_kind="risk", target_ref="R1", title="Old job",
                          owner=member, due_date=TODAY)
    Membership.objects.filter(user=member, team=team).delete()
    assert "Old job" not in member_client.get("/actions/").content.decode()


def test_a_viewer_cannot_own_an_action(debate, owner, viewer, member):
    with pytest.raises(CommentError, match="editor or owner"):
        action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                      owner=viewer, due_date=TODAY)
    assert not Action.objects.exists()
    assert action_create(debate=debate, user=owner, target_kind="risk", target_ref="R1",
                         owner=member, due_date=TODAY).owner == member


def test_the_owner_list_offers_editors_and_owners_and_says_so(owner_client, debate, viewer,
                                                              member):
    html = owner_client.get(f"/debates/{debate.code}/actions/").content.decode()
    assert ">member<" in html and ">owner<" in html and ">viewer<" not in html
    assert "only they can complete an action" in html
