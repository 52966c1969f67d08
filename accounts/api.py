"""JSON API for teams and their members, mounted at /api/teams. The same access helper
as the team page (``team_access``): members read, outsiders get 404. ``POST`` makes a
team with the caller as its owner, as the team page's form does, so a new user's
token can start on its own."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Router, Schema, Status
from pydantic import Field, field_validator

from accounts import selectors, services
from accounts.access import team_access
from accounts.api_auth import api_auth
from accounts.models import Membership, Team

router = Router(tags=["teams"], auth=api_auth)


class LimitsOut(Schema):
    monthly_budget_usd: float | None = Field(description="null: unlimited")
    debate_cost_cap_usd: float | None = Field(description="null: no cap")
    debates_per_hour: int
    allow_unpriced_models: bool = Field(
        description="Whether models litellm cannot price are allowed under a cap or budget")


class TeamOut(Schema):
    code: uuid.UUID = Field(description="Send as the X-Council-Team header to work in it.")
    name: str
    role: str = Field(description="Your role: owner, editor or viewer.")
    current: bool = Field(description="The team this request works in (lists, new debates).")
    created_at: datetime


class TeamDetailOut(TeamOut):
    limits: LimitsOut
    member_count: int


class MemberOut(Schema):
    code: uuid.UUID
    username: str
    role: str
    joined_at: datetime


def _team_out(team: Team, role: str, current: Team | None) -> dict[str, Any]:
    return {"code": team.code, "name": team.name, "role": role,
            "current": current is not None and current.pk == team.pk,
            "created_at": team.created_at}


@router.get("/", response=list[TeamOut], url_name="teams_list")
def list_teams(request: HttpRequest) -> list[dict[str, Any]]:
    """Your teams and your role in each."""
    current = selectors.current_team(request)
    return [_team_out(m.team, m.role, current)
            for m in selectors.memberships_of_user(user=request.user)]


class TeamIn(Schema):
    name: str = Field(min_length=1, max_length=200, description="The team's name.")

    @field_validator("name")
    @classmethod
    def _spaced_once(cls, value: str) -> str:
        """Runs of spaces as one, as the team page's form keeps it; blank is refused."""
        name = " ".join(value.split())
        if not name:
            raise ValueError("A team needs a name.")
        return name


@router.post("/", response={201: TeamOut}, url_name="teams_create")
def create_team(request: HttpRequest, payload: TeamIn, response: HttpResponse) -> Status[Any]:
    """A new team with you as its owner (what a new user's token needs first: every other
    route works in a team)."""
    team = services.team_create(name=payload.name, owner=request.user)  # type: ignore[arg-type]
    response["Location"] = reverse("api:teams_team", kwargs={"code": team.code})
    return Status(201, _team_out(team, Membership.Role.OWNER, selectors.current_team(request)))


@router.get("/{uuid:code}", response=TeamDetailOut, url_name="teams_team")
def get_team(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    """One of your teams: its limits and how many members it has."""
    team, role = team_access(request, code)
    return {
        **_team_out(team, role, selectors.current_team(request)),
        "limits": {"monthly_budget_usd": team.monthly_budget_usd,
                   "debate_cost_cap_usd": team.debate_cost_cap_usd,
                   "debates_per_hour": team.debates_per_hour,
                   "allow_unpriced_models": team.allow_unpriced_models},
        "member_count": team.memberships.count(),
    }


@router.get("/{uuid:code}/members", response=list[MemberOut], url_name="teams_members")
def list_members(request: HttpRequest, code: uuid.UUID) -> list[dict[str, Any]]:
    """The team's members and their roles (what the team page shows every member)."""
    team, _ = team_access(request, code)
    members: list[Membership] = list(selectors.team_members(team=team))
    return [{"code": m.code, "username": m.user.get_username(), "role": m.role,
             "joined_at": m.created_at} for m in members]
