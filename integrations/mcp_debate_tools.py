"""The MCP tools for the team's debates beyond one run: the list and its search, cancel,
re-run, export, compare, comments, and the decision log (issue 40; docs/api.md, "The
MCP server").

Each tool calls the JSON API's own route function, or for the paginated lists the same
filter form, selector and paginator the route runs, as the token's user
(``Identity.request``: the token is looked up again on every call), so roles, a
read-only token and a team token's scope apply exactly as over HTTP.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal, cast
from urllib.parse import parse_qs, urlsplit

from asgiref.sync import sync_to_async
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, QueryDict
from ninja import Status

from accounts.access import parse_code
from api_kit.pagination import DEFAULT_PAGE_SIZE, PagePagination
from debates.models import Debate, DebateStatus
from decisions.models import DecisionState
from integrations.mcp_server import Identity, _refusals, _refused, _status

# --- pages: the API's own paginator, its cursors handed over without the links ------


class _LinkFree:
    """What ``PagePagination`` reads of a request to write its next/previous links:
    here the links are just ``?cursor=...``, whose cursor the tool returns."""

    GET = QueryDict()
    path = ""

    def build_absolute_uri(self, location: str) -> str:
        return location


def _cursor(link: str | None) -> str | None:
    return parse_qs(urlsplit(link).query)["cursor"][0] if link else None


def _page(queryset: QuerySet[Any], paging: dict[str, Any],
          item: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
    """A page of ``queryset`` exactly as the API's lists page it (api_kit.pagination:
    the same cursors, stable while rows are inserted), with the cursors of the next and
    previous pages instead of their URLs."""
    paginator = PagePagination()
    pagination = PagePagination.Input.model_validate(paging)
    page = paginator.paginate_queryset(queryset, pagination,
                                       cast(HttpRequest, _LinkFree()))
    return {"items": [item(row) for row in page["items"]], "count": page["count"],
            "page": page["page"], "pages": page["pages"],
            "next_cursor": _cursor(page["next"]), "previous_cursor": _cursor(page["previous"])}


def _given(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


# --- the tools' bodies (sync, database work) ----------------------------------------


def debates_list(identity: Identity, team: str | None, filters: dict[str, Any],
                 paging: dict[str, Any]) -> dict[str, Any]:
    """``list_debates``: GET /api/debates/'s filter form, selector and paginator."""
    from debates import selectors
    from debates.access import current_team_access
    from debates.api import DebateListItemOut, DebateListQuery, list_filters

    request = identity.request(team)
    request.method = "GET"
    with _refusals():
        found, _ = current_team_access(request)
        wanted = list_filters(DebateListQuery.model_validate(filters))
        return _page(selectors.debate_search(team=found, filters=wanted), paging,
                     lambda d: DebateListItemOut.model_validate(d).model_dump(mode="json"))


def decisions_list(identity: Identity, team: str | None, filters: dict[str, Any],
                   paging: dict[str, Any]) -> dict[str, Any]:
    """``list_decisions``: GET /api/decisions/'s filter form, selector and paginator."""
    from debates.access import current_team_access
    from decisions import selectors
    from decisions.api import DecisionListItemOut, DecisionListQuery, log_filters

    request = identity.request(team)
    request.method = "GET"
    with _refusals():
        found, _ = current_team_access(request)
        wanted = log_filters(DecisionListQuery.model_validate(filters))
        return _page(selectors.decision_search(team=found, filters=wanted), paging,
                     lambda d: DecisionListItemOut.model_validate(d).model_dump(mode="json"))


def cancel(identity: Identity, code: str) -> dict[str, Any]:
    """``cancel_debate``: POST /api/debates/{code}/cancel's route itself."""
    from debates.api import StatusOut, cancel_debate

    with _refusals():
        answer = cancel_debate(identity.request(), parse_code(code))
    if answer.status_code != 200:
        raise _refused(answer.value)
    return StatusOut.model_validate(answer.value).model_dump(mode="json")


def rerun(identity: Identity, code: str, payload: dict[str, Any]) -> dict[str, Any]:
    """``rerun_debate``: POST /api/debates/{code}/rerun's route itself."""
    from debates.api.actions import RerunIn
    from debates.api.actions import rerun as rerun_route

    with _refusals():
        answer = rerun_route(identity.request(), parse_code(code),
                             RerunIn.model_validate(payload))
    if answer.status_code != 201:
        raise _refused(answer.value)
    child = Debate.objects.get(code=answer.value["code"])
    return {**_status(child), "parent": str(answer.value["parent"])}


def export(identity: Identity, code: str, kind: str, threads: bool) -> dict[str, Any]:
    """``export_debate``: the export.md or export.json route itself, its body whole."""
    from debates.api.actions import ExportQuery, export_json, export_markdown

    request = identity.request()
    request.method = "GET"
    with _refusals():
        parsed = parse_code(code)
        answer: HttpResponse | Status[Any] = (
            export_markdown(request, parsed, ExportQuery(threads=threads)) if kind == "markdown"
            else export_json(request, parsed))
    if isinstance(answer, Status):
        raise _refused(answer.value)
    body = answer.content.decode("utf-8")
    filename = answer["Content-Disposition"].partition("filename=")[2].strip('"')
    return {"format": kind, "filename": filename,
            "content": body if kind == "markdown" else json.loads(body)}


def comparison(identity: Identity, a: str, b: str) -> dict[str, Any]:
    """``compare_debates``: GET /api/debates/compare's route itself."""
    from debates.api.compare import CompareOut, CompareQuery, compare

    request = identity.request()
    request.method = "GET"
    with _refusals():
        answer = compare(request, CompareQuery(a=parse_code(a), b=parse_code(b)))
    return CompareOut.model_validate(answer).model_dump(mode="json")


def comments(identity: Identity, code: str) -> list[dict[str, Any]]:
    """``list_comments``: GET /api/debates/{code}/comments's route itself."""
    from collab.api import ThreadOut, list_comments

    request = identity.request()
    request.method = "GET"
    with _refusals():
        threads = list_comments(request, parse_code(code))
    return [ThreadOut.model_validate(t).model_dump(mode="json") for t in threads]


def comment(identity: Identity, code: str, payload: dict[str, Any]) -> dict[str, Any]:
    """``comment_on_debate``: POST /api/debates/{code}/comments's route itself."""
    from collab.api import CommentIn, CommentOut, create_comment

    with _refusals():
        answer = create_comment(identity.request(), parse_code(code),
                                CommentIn.model_validate(payload))
    if answer.status_code != 201:
        raise _refused(answer.value)
    return CommentOut.model_validate(answer.value).model_dump(mode="json")


def add_debate_tools(tool: Callable[[Any], Any], identity: Identity) -> None:
    """The team's debates as a whole: find, stop, run again, export, compare, discuss,
    and the decisions taken on them."""

    @tool
    async def list_debates(team: str | None = None, q: str = "",
                           status: DebateStatus | None = None, stop_reason: str = "",
                           protocol: str = "", author: str = "", persona: str = "",
                           library: str | None = None, created_from: str | None = None,
                           created_to: str | None = None, degraded: bool | None = None,
                           simulated: bool | None = None,
                           sort: Literal["newest", "oldest", "cost", "question",
                                         "relevance"] | None = None,
                           page: int = 1, page_size: int = DEFAULT_PAGE_SIZE,
                           cursor: str | None = None) -> dict[str, Any]:
        """List and search the team's debates (default: your first team), as GET
        /api/debates/ with the same filters, form and order: q (words in the question
        or synthesis), status (queued, running, succeeded, failed, cancelled),
        stop_reason, protocol, author (username), persona (part of an agent's name),
        library (a persona library code), created_from / created_to (YYYY-MM-DD),
        degraded, simulated, sort (newest, oldest, cost, question, relevance; default
        relevance with q, else newest). A page at a time: page (from 1) and page_size
        (at most 100), or cursor (next_cursor of the previous page: the list as it
        stood at its first page, so no row repeats while debates are added). Returns
        items (code, question, status, quality, stop_reason, ...), count (the total),
        page, pages, next_cursor (null on the last page) and previous_cursor."""
        filters = _given({"q": q, "status": status, "stop_reason": stop_reason,
                          "protocol": protocol, "author": author, "persona": persona,
                          "library": library, "created_from": created_from,
                          "created_to": created_to, "degraded": degraded,
                          "simulated": simulated, "sort": sort})
        paging = _given({"page": page, "page_size": page_size, "cursor": cursor})
        return await sync_to_async(debates_list)(identity, team, filters, paging)

    @tool
    async def cancel_debate(code: str) -> dict[str, Any]:
        """Cancel a queued or running debate (as POST /api/debates/{code}/cancel;
        editors and owners only): it stops without a result. Refused if it has
        already ended. Returns its code, status and stop_requested."""
        return await sync_to_async(cancel)(identity, code)

    @tool
    async def rerun_debate(code: str, question: str | None = None,
                           context: str | None = None,
                           sources: list[str] | None = None) -> dict[str, Any]:
        """Start a new debate with the same settings (a fresh seed), linked to this
        one as its parent (as POST /api/debates/{code}/rerun; editors and owners;
        the team's limits apply). Optional: question (an edited question), context,
        sources (source or source-version codes; default the parent's, the same
        versions). Returns the new debate's status (with its code) and parent; follow
        it with wait_for_debate, then compare_debates with the parent."""
        payload = _given({"question": question, "context": context, "sources": sources})
        return await sync_to_async(rerun)(identity, code, payload)

    @tool
    async def export_debate(code: str, format: Literal["markdown", "json"] = "markdown",
                            threads: bool = False) -> dict[str, Any]:
        """A finished debate's export, the same body as GET
        /api/debates/{code}/export.md (format markdown: the report, the team's
        follow-up included; threads=true adds the comment threads) or export.json
        (format json: the typed result plus the export's extra fields). Returns
        format, filename and content (text for markdown, an object for json). An
        error while the debate has no result."""
        return await sync_to_async(export)(identity, code, format, threads)

    @tool
    async def compare_debates(a: str, b: str) -> dict[str, Any]:
        """Two runs side by side (typically a debate and its re-run), as GET
        /api/debates/compare?a=...&b=...: each run's status fields and the
        comparison (what each found that the other did not, the metrics round by
        round, how the verdicts moved); comparison is null with a note saying why
        unless both are council debates with a result."""
        return await sync_to_async(comparison)(identity, a, b)

    @tool
    async def list_comments(code: str) -> list[dict[str, Any]]:
        """A debate's comment threads, open ones first (as GET
        /api/debates/{code}/comments): each thread's code, author, body, target,
        quote, resolved and replies."""
        return await sync_to_async(comments)(identity, code)

    @tool
    async def comment_on_debate(code: str, body: str, parent: str | None = None,
                                target_kind: str = "synthesis", target_ref: str = "",
                                quote: str = "", quote_offset: int | None = None
                                ) -> dict[str, Any]:
        """Comment on a debate (as POST /api/debates/{code}/comments; editors and
        owners): body (the text; @username mentions a member), parent (a comment
        code: reply in its thread), target_kind and target_ref (the part of the
        result it is about; default the synthesis), quote and quote_offset (the
        passage quoted). Returns the comment with its code."""
        payload = _given({"body": body, "parent": parent, "target_kind": target_kind,
                          "target_ref": target_ref, "quote": quote,
                          "quote_offset": quote_offset})
        return await sync_to_async(comment)(identity, code, payload)

    @tool
    async def list_decisions(team: str | None = None,
                             state: DecisionState | None = None, owner: str = "",
                             q: str = "", status: DebateStatus | None = None,
                             stop_reason: str = "", protocol: str = "", author: str = "",
                             persona: str = "", library: str | None = None,
                             created_from: str | None = None,
                             created_to: str | None = None, degraded: bool | None = None,
                             simulated: bool | None = None,
                             sort: Literal["newest", "oldest", "review",
                                           "question"] | None = None,
                             page: int = 1, page_size: int = DEFAULT_PAGE_SIZE,
                             cursor: str | None = None) -> dict[str, Any]:
        """The team's decision log (default: your first team), as GET
        /api/decisions/: state (decided, review_due: the decisions to look back at
        now, reviewed), owner (username of who decided), the list_debates filters
        narrowing the decisions' debates (q, status, stop_reason, protocol, author,
        persona, library, created_from, created_to, degraded, simulated), sort
        (newest, oldest, review, question; default newest). Pages as list_debates:
        page and page_size, or cursor; returns items (code, debate, question, state,
        option or choice, rationale, review_on, result_quality ...), count, page,
        pages, next_cursor and previous_cursor."""
        filters = _given({"state": state, "owner": owner, "q": q, "status": status,
                          "stop_reason": stop_reason, "protocol": protocol,
                          "author": author, "persona": persona, "library": library,
                          "created_from": created_from, "created_to": created_to,
                          "degraded": degraded, "simulated": simulated, "sort": sort})
        paging = _given({"page": page, "page_size": page_size, "cursor": cursor})
        return await sync_to_async(decisions_list)(identity, team, filters, paging)
