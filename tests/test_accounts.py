"""Teams and memberships: the services that write them and the selectors that read them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError

from accounts.models import Membership, Team
from accounts.selectors import membership_role, team_for_user
from accounts.services import membership_add, team_create


def test_team_create_makes_the_creator_owner(owner):
    team = team_create(name="  Research  ", owner=owner)
    assert team.name == "Research"
    assert team.code is not None
    assert membership_role(team=team, user=owner) == Membership.Role.OWNER


def test_team_create_refuses_a_blank_name(owner):
    with pytest.raises(ValueError, match="name"):
        team_create(name="   ", owner=owner)
    assert not Team.objects.exists()


def test_team_codes_are_unique_uuids(owner):
    first = team_create(name="A", owner=owner)
    second = team_create(name="B", owner=owner)
    assert first.code != second.code


def test_fixture_roles(team, owner, member, viewer, outsider):
    assert membership_role(team=team, user=owner) == "owner"
    assert membership_role(team=team, user=member) == "editor"
    assert membership_role(team=team, user=viewer) == "viewer"
    assert membership_role(team=team, user=outsider) is None


def test_team_for_user_is_the_first_team_joined(owner, team):
    team_create(name="Later", owner=owner)
    assert team_for_user(user=owner) == team


def test_outsider_has_a_different_team(team, outsider, other_team):
    assert team_for_user(user=outsider) == other_team != team


@pytest.mark.django_db
def test_user_without_team_has_none():
    user = User.objects.create_user(username="loner")
    assert team_for_user(user=user) is None


def test_anonymous_user_has_no_team_or_role(team):
    assert team_for_user(user=AnonymousUser()) is None
    assert membership_role(team=team, user=AnonymousUser()) is None


def test_membership_add_changes_an_existing_role(team, viewer):
    membership_add(team=team, user=viewer, role=Membership.Role.EDITOR)
    assert membership_role(team=team, user=viewer) == "editor"
    assert Membership.objects.filter(team=team, user=viewer).count() == 1


def test_membership_add_refuses_an_unknown_role(team, viewer):
    with pytest.raises(ValueError, match="Unknown role"):
        membership_add(team=team, user=viewer, role="admin")


def test_a_user_is_member_of_a_team_once(team, member):
    with pytest.raises(IntegrityError):
        Membership.objects.create(team=team, user=member, role=Membership.Role.VIEWER)
