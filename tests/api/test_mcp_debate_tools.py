"""The MCP tools for the team's debates as a whole (integrations.mcp_debate_tools): each
answers what its JSON API route answers, for the same caller, and refuses whom the
route refuses."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from accounts.services import api_token_create, team_create
from collab.models import Comment
from debates.models import Debate, DebateStatus
from decisions.services import decision_record
from integrations import mcp_debate_tools as tools
from integrations.mcp_server import Identity
from tests.api.test_mcp import server_env, session_run, structured
from tests.factories import add_synthesis, make_debate

pytestmark = pytest.mark.django_db


def identity(user, **kw) -> Identity:
    _, secret = api_token_create(user=user, name="agent", **kw)
    return Identity(secret)


def finished(team, user, question: str = "Should we migrate billing?") -> Debate:
    debate = make_debate(team, user)
    add_synthesis(debate)
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.SUCCEEDED,
                                               question=question)
    debate.refresh_from_db()
    return debate


@pytest.fixture
def debates(team, owner, member):
    made = []
    for i, (user, status, cost) in enumerate([
            (owner, DebateStatus.SUCCEEDED, 0.30), (member, DebateStatus.FAILED, 0.10),
            (owner, DebateStatus.SUCCEEDED, 0.20), (owner, DebateStatus.QUEUED, 0.0)]):
        debate = make_debate(team, user)
        Debate.objects.filter(pk=debate.pk).update(
            status=status, cost_usd=cost, degraded=i == 1,
            question=f"Question {i}: should we {'migrate billing' if i % 2 else 'hire'}?")
        made.append(debate)
    return made


def _codes(items: list[dict[str, Any]]) -> list[str]:
    return [item["code"] for item in items]


@pytest.mark.parametrize("query", [
    {}, {"status": "succeeded"}, {"q": "billing"}, {"author": "member"},
    {"degraded": True}, {"degraded": False, "sort": "cost"}, {"sort": "oldest"},
    {"sort": "question", "status": "succeeded"},
])
def test_list_debates_narrows_and_sorts_as_the_api_does(member, member_client, debates,
                                                        query):
    api = member_client.get("/api/debates/", {k: str(v).lower() if isinstance(v, bool)
                                              else v for k, v in query.items()}).json()
    out = tools.debates_list(identity(member), None, query, {})
    assert out["items"] == api["items"] and out["count"] == api["count"]
    assert out["count"] < len(debates) or query.keys() <= {"sort"}  # the filter narrows
    assert (out["page"], out["pages"], out["next_cursor"]) == (1, 1, None)


def test_list_debates_pages_by_cursor_and_shows_each_row_once_while_rows_are_added(
        member, team, debates):
    agent = identity(member)
    seen: list[str] = []
    page = tools.debates_list(agent, None, {}, {"page_size": 1})
    assert page["count"] == len(debates) and page["pages"] == len(debates)
    while True:
        seen += _codes(page["items"])
        make_debate(team, member)  # lands at the top of the newest-first list
        if page["next_cursor"] is None:
            break
        page = tools.debates_list(agent, None, {}, {"page_size": 1,
                                                    "cursor": page["next_cursor"]})
    assert sorted(seen) == sorted(str(d.code) for d in debates)
    second = tools.debates_list(agent, None, {}, {"page": 2, "page_size": 3})
    assert second["page"] == 2 and second["previous_cursor"] and second["count"] == 8


@pytest.mark.parametrize("filters, paging, field", [
    ({"status": "finished-ish"}, {}, "status"),
    ({"sort": "random"}, {}, "sort"),
    ({"created_from": "yesterday"}, {}, "created_from"),
    ({"library": "not-a-uuid"}, {}, "library"),
    ({}, {"page_size": 1000}, "page_size"),
    ({}, {"cursor": "nonsense"}, "cursor"),
])
def test_a_bad_filter_is_refused_naming_it(member, debates, filters, paging, field):
    with pytest.raises(ToolError, match=rf"^Refused: invalid input \(.*{field}"):
        tools.debates_list(identity(member), None, filters, paging)


def test_the_lists_are_the_tokens_team_only(owner, team, debates, outsider):
    assert tools.debates_list(identity(outsider), None, {}, {})["count"] == 0
    second = team_create(name="Second", owner=owner)
    scoped = identity(owner, team=second)
    assert tools.debates_list(scoped, None, {}, {})["count"] == 0
    with pytest.raises(ToolError, match="Not found"):
        tools.debates_list(scoped, str(team.code), {}, {})
    with pytest.raises(ToolError, match="Not found"):
        tools.decisions_list(scoped, str(team.code), {}, {})
    assert tools.debates_list(identity(owner), str(team.code), {}, {})["count"] == 4


def test_list_decisions_filters_as_the_api_does(member, member_client, team, owner):
    decided = finished(team, owner, "Should we adopt a four-day week?")
    other = finished(team, owner, "Should we hire?")
    for debate in (decided, other):
        decision_record(debate=debate, user=member, option="", choice="Wait",
                        rationale="r", review_on=None, confirm_quality=False)
    agent = identity(member)
    for query in ({}, {"q": "four-day"}, {"state": "decided", "sort": "oldest"},
                  {"owner": "nobody"}):
        api = member_client.get("/api/decisions/", query).json()
        out = tools.decisions_list(agent, None, query, {})
        assert out["items"] == api["items"] and out["count"] == api["count"], query
    assert _codes(tools.decisions_list(agent, None, {"q": "four-day"}, {})["items"]) == [
        str(decided.decision.code)]
    with pytest.raises(ToolError, match="state"):
        tools.decisions_list(agent, None, {"state": "pending"}, {})


def test_cancel_stops_a_queued_debate_for_an_editor_only(member, viewer, owner, outsider,
                                                         team):
    debate = make_debate(team, owner)
    code = str(debate.code)
    with pytest.raises(ToolError, match="Viewers can read"):
        tools.cancel(identity(viewer), code)
    with pytest.raises(ToolError, match="read-only"):
        tools.cancel(identity(owner, read_only=True), code)
    with pytest.raises(ToolError, match="Not found"):
        tools.cancel(identity(outsider), code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.QUEUED
    out = tools.cancel(identity(member), code)
    assert out["code"] == code and out["status"] == DebateStatus.CANCELLED
    with pytest.raises(ToolError, match="^Refused: "):  # the route's 409: it has ended
        tools.cancel(identity(member), code)


def test_rerun_starts_a_linked_debate_with_the_routes_checks(member, viewer, owner,
                                                             outsider, team):
    debate = finished(team, owner)
    code = str(debate.code)
    for who, refusal in ((identity(viewer), "Viewers can read"),
                         (identity(owner, read_only=True), "read-only"),
                         (identity(outsider), "Not found"),
                         (identity(member), "question")):
        with pytest.raises(ToolError, match=refusal):
            tools.rerun(who, code, {"question": " "} if refusal == "question" else {})
    assert not Debate.objects.filter(parent=debate).exists()
    out = tools.rerun(identity(member), code, {"question": "Should we migrate in 2027?"})
    child = Debate.objects.get(code=out["code"])
    assert child.parent == debate and child.question == "Should we migrate in 2027?"
    assert out["parent"] == code and out["status"] == child.status and "quality" in out


def test_export_is_the_export_routes_body(member, member_client, team, owner, outsider):
    debate = finished(team, owner)
    code = str(debate.code)
    agent = identity(member)
    md = tools.export(agent, code, "markdown", False)
    api_md = member_client.get(f"/api/debates/{code}/export.md")
    assert md["content"] == api_md.content.decode() and md["filename"].endswith(".md")
    assert md["filename"] in api_md["Content-Disposition"]
    as_json = tools.export(agent, code, "json", False)
    assert as_json["content"] == json.loads(
        member_client.get(f"/api/debates/{code}/export.json").content)
    threaded = tools.export(agent, code, "markdown", True)
    assert threaded["content"] == member_client.get(
        f"/api/debates/{code}/export.md", {"threads": "true"}).content.decode()
    with pytest.raises(ToolError, match="Not found"):
        tools.export(identity(outsider), code, "json", False)
    running = make_debate(team, owner)
    with pytest.raises(ToolError, match="no result yet"):
        tools.export(agent, str(running.code), "markdown", False)


def test_compare_is_the_compare_routes_answer(member, member_client, team, owner, outsider):
    a, b = finished(team, owner), finished(team, owner)
    out = tools.comparison(identity(member), str(a.code), str(b.code))
    assert out == member_client.get("/api/debates/compare", {"a": a.code, "b": b.code}).json()
    assert out["comparison"] is not None and out["note"] == ""
    with pytest.raises(ToolError, match="Not found"):
        tools.comparison(identity(outsider), str(a.code), str(b.code))


def test_comment_and_list_comments_as_the_api_does(member, member_client, viewer, owner,
                                                   outsider, team):
    debate = finished(team, owner)
    code = str(debate.code)
    made = tools.comment(identity(member), code, {"body": "The risk list misses GDPR."})
    assert made["author"] == "member" and made["body"] == "The risk list misses GDPR."
    reply = tools.comment(identity(owner), code, {"body": "Agreed.", "parent": made["code"]})
    threads = tools.comments(identity(viewer), code)
    assert threads == member_client.get(f"/api/debates/{code}/comments").json()
    assert [r["code"] for r in threads[0]["replies"]] == [reply["code"]]
    for who, refusal in ((identity(viewer), "Viewers can read"),
                         (identity(owner, read_only=True), "read-only"),
                         (identity(outsider), "Not found")):
        with pytest.raises(ToolError, match=refusal):
            tools.comment(who, code, {"body": "No."})
    with pytest.raises(ToolError, match="Not found"):
        tools.comments(identity(outsider), code)
    with pytest.raises(ToolError, match="parent"):
        tools.comment(identity(member), code, {"body": "x", "parent": code})
    assert Comment.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_every_new_tool_answers_through_the_server(member, owner, team):
    """The tools as an agent calls them: over stdio, as an editor's token."""
    a, b = finished(team, owner), finished(team, owner, "Should we hire?")
    queued = make_debate(team, owner)
    decision_record(debate=a, user=member, option="", choice="Wait", rationale="r",
                    review_on=None, confirm_quality=False)
    _, secret = api_token_create(user=member, name="agent")

    async def body(session: Any) -> dict[str, Any]:
        names = {t.name for t in (await session.list_tools()).tools}
        call = session.call_tool
        return {
            "names": names,
            "listed": structured(await call("list_debates", {"q": "hire"})),
            "cancelled": structured(await call("cancel_debate", {"code": str(queued.code)})),
            "exported": structured(await call("export_debate", {"code": str(a.code),
                                                                "format": "json"})),
            "compared": structured(await call("compare_debates", {"a": str(a.code),
                                                                  "b": str(b.code)})),
            "commented": structured(await call("comment_on_debate", {
                "code": str(a.code), "body": "Check the GDPR angle."})),
            "comments": structured(await call("list_comments", {"code": str(a.code)})),
            "decisions": structured(await call("list_decisions", {"state": "decided"})),
            "rerun": structured(await call("rerun_debate", {"code": str(b.code)})),
        }

    out = asyncio.run(session_run(server_env(secret), body))
    assert {"create_team", "list_debates", "cancel_debate", "rerun_debate", "export_debate",
            "compare_debates", "list_comments", "comment_on_debate",
            "list_decisions"} <= out["names"]
    assert _codes(out["listed"]["items"]) == [str(b.code)] and out["listed"]["count"] == 1
    assert out["cancelled"]["status"] == "cancelled"
    assert out["exported"]["content"]["question"] == a.synthesis.result["question"]
    assert out["compared"]["a"]["code"] == str(a.code) and out["compared"]["comparison"]
    assert out["comments"][0]["code"] == out["commented"]["code"]
    assert [d["debate"] for d in out["decisions"]["items"]] == [str(a.code)]
    child = Debate.objects.get(code=out["rerun"]["code"])
    assert child.parent == b and out["rerun"]["parent"] == str(b.code)


def test_a_new_users_token_creates_its_team_and_then_works_in_it(db):
    from django.contrib.auth.models import User

    from accounts.models import Team
    from integrations.mcp_server import team_new, teams

    newcomer = User.objects.create_user(username="newcomer")
    with pytest.raises(ToolError, match="read-only"):
        team_new(identity(newcomer, read_only=True), "Platform")
    assert not Team.objects.exists()
    agent = identity(newcomer)
    with pytest.raises(ToolError, match="not a member of any team"):
        tools.debates_list(agent, None, {}, {})
    with pytest.raises(ToolError, match=r"Refused: .*name"):
        team_new(agent, "   ")
    made = team_new(agent, "  Platform   team ")
    assert made["name"] == "Platform team" and made["role"] == "owner"
    assert teams(agent) == [{"team": made["code"], "name": "Platform team", "role": "owner"}]
    assert tools.debates_list(agent, None, {}, {})["count"] == 0
