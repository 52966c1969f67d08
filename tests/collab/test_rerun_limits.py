"""Carrying comments into a re-run cannot push its context past the limit every new
debate has (20,000 characters): the service refuses, and nothing is created or queued."""

from __future__ import annotations

import pytest
from django_q.models import OrmQ

from collab.services import CommentError, comment_create, debate_rerun_with_objections
from debates.models import Debate
from debates.web.forms import MAX_CONTEXT_CHARS
from tests.factories import add_synthesis, make_debate


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    add_synthesis(debate)
    Debate.objects.filter(pk=debate.pk).update(context="c" * (MAX_CONTEXT_CHARS - 5_000))
    debate.refresh_from_db()
    return debate


def _comments(debate, owner, n: int):
    return [comment_create(debate=debate, author=owner, body="b" * 4_000).code
            for _ in range(n)]


def test_carrying_past_the_context_limit_is_refused_and_creates_nothing(debate, owner):
    codes = _comments(debate, owner, 2)  # 15,000 + 2 x 4,000 > 20,000
    with pytest.raises(CommentError, match="20,000"):
        debate_rerun_with_objections(debate=debate, user=owner, comment_codes=codes)
    assert Debate.objects.count() == 1 and OrmQ.objects.count() == 0


def test_carrying_within_the_limit_still_starts_the_rerun(debate, owner):
    codes = _comments(debate, owner, 1)
    rerun = debate_rerun_with_objections(debate=debate, user=owner, comment_codes=codes)
    assert len(rerun.context) <= MAX_CONTEXT_CHARS and "b" * 4_000 in rerun.context


def test_the_carry_view_shows_the_refusal(member_client, debate, owner):
    codes = _comments(debate, owner, 2)
    response = member_client.post(f"/debates/{debate.code}/comments/carry",
                                  {"comments": [str(c) for c in codes]}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "No re-run started" in response.content.decode()
    assert Debate.objects.count() == 1


def test_the_carry_view_shows_a_team_limit_and_creates_nothing(member_client, debate, owner,
                                                               team):
    codes = _comments(debate, owner, 1)
    team.debates_per_hour = 1  # the debate itself took the hour's one start
    team.save()
    response = member_client.post(f"/debates/{debate.code}/comments/carry",
                                  {"comments": [str(c) for c in codes]}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "No re-run started: Rate limit" in html
    assert Debate.objects.count() == 1
