"""The team page: members and roles; owners change roles and remove members."""

from __future__ import annotations

import pytest

from accounts.models import Membership


def _m(team, user):
    return Membership.objects.get(team=team, user=user)


def test_team_page_lists_members_and_roles(viewer_client, team, owner, member, viewer):
    html = viewer_client.get(f"/teams/{team.code}/").content.decode()
    for name in ("owner", "member", "viewer"):
        assert name in html
    assert "/role" not in html  # viewers see no management forms


def test_owner_changes_a_role(owner_client, team, member):
    response = owner_client.post(f"/teams/{team.code}/members/{_m(team, member).code}/role",
                                 {"role": "viewer"})
    assert response.status_code == 302
    assert _m(team, member).role == "viewer"


def test_the_last_owner_cannot_be_demoted_or_removed(owner_client, team, owner):
    code = _m(team, owner).code
    owner_client.post(f"/teams/{team.code}/members/{code}/role", {"role": "editor"})
    owner_client.post(f"/teams/{team.code}/members/{code}/remove")
    assert _m(team, owner).role == "owner"
    page = owner_client.get(f"/teams/{team.code}/").content.decode()
    assert "at least one owner" in page


def test_with_a_second_owner_the_first_can_step_down(owner_client, team, owner, member):
    Membership.objects.filter(team=team, user=member).update(role="owner")
    owner_client.post(f"/teams/{team.code}/members/{_m(team, owner).code}/role",
                      {"role": "editor"})
    assert _m(team, owner).role == "editor"


def test_owner_removes_a_member(owner_client, team, member):
    owner_client.post(f"/teams/{team.code}/members/{_m(team, member).code}/remove")
    assert not Membership.objects.filter(team=team, user=member).exists()


def test_editor_cannot_manage_members(member_client, team, viewer):
    url = f"/teams/{team.code}/members/{_m(team, viewer).code}/role"
    assert member_client.post(url, {"role": "owner"}).status_code == 403
    assert _m(team, viewer).role == "viewer"


def test_a_member_of_another_team_is_not_found_here(owner_client, team, other_team, outsider):
    other = Membership.objects.get(team=other_team, user=outsider)
    url = f"/teams/{team.code}/members/{other.code}/remove"
    assert owner_client.post(url).status_code == 404
    assert Membership.objects.filter(pk=other.pk).exists()


# ------------------------------------------------------------------------- renaming


def test_an_owner_renames_the_team(owner_client, team):
    response = owner_client.post(f"/teams/{team.code}/rename", {"name": "  Platform   crew "},
                                 follow=True)
    team.refresh_from_db()
    assert team.name == "Platform crew"
    html = response.content.decode()
    assert "<h1>Platform crew</h1>" in html and "is now called Platform crew" in html


def test_a_team_cannot_be_renamed_to_nothing(owner_client, team):
    before = team.name
    response = owner_client.post(f"/teams/{team.code}/rename", {"name": "   "}, follow=True)
    team.refresh_from_db()
    assert team.name == before
    assert "Team not renamed: Team name: This field is required." in response.content.decode()


@pytest.mark.parametrize("who", ["member_client", "viewer_client"])
def test_editors_and_viewers_cannot_rename_the_team(request, team, who):
    before = team.name
    client = request.getfixturevalue(who)
    assert client.post(f"/teams/{team.code}/rename", {"name": "Hijacked"}).status_code == 403
    team.refresh_from_db()
    assert team.name == before
    assert 'id="team-rename"' not in client.get(f"/teams/{team.code}/").content.decode()


def test_the_owner_sees_the_rename_form(owner_client, team):
    html = owner_client.get(f"/teams/{team.code}/").content.decode()
    assert 'id="team-rename"' in html and f'value="{team.name}"' in html
