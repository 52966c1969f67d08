"""The MCP server (``manage.py mcp``): a coding agent convenes the council through
tools, acting as the user of a personal API token, within the token's limits.

Every tool re-checks the token (a revoked or expired token stops working at once,
``api_token_use``), and the token's scope travels with its user
(``accounts.token_scope``): a read-only token's writing tools are refused,
a team token lists and reaches that team only. Every tool goes through the same code
as the JSON API: the create endpoint's function itself for new debates, and the same
access helpers and selectors for reads, so an agent can do exactly what its token may
do in the team, and nothing more. The tools for the team's debates as a whole (list
and search, cancel, re-run, export, compare, comments, the decision log) are in
``integrations.mcp_debate_tools``.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal, cast

from asgiref.sync import sync_to_async
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from ninja.errors import ValidationError as QueryRefused
from pydantic import ValidationError

from accounts.access import Need, parse_code, require_role
from accounts.models import ApiToken
from accounts.selectors import TEAM_HEADER, current_team, memberships_of_user
from accounts.services import api_token_use
from accounts.token_scope import check_may_write
from debates import selectors
from debates.access import debate_access
from debates.engine import Mode
from debates.limits import RateLimited
from debates.models import ACTIVE_STATUSES, Debate
from personas import selectors as persona_selectors
from sources.access import source_access
from view_kit.http import AuthenticatedHttpRequest

INSTRUCTIONS = """\
Council runs a structured debate between LLM personas on a question and returns a typed
synthesis: recommended path, disagreements, consensus, risks, and claims to verify.
Start one with start_debate, follow it with wait_for_debate (progress is reported),
then read get_result. Read "quality" (the result's summary.quality) before anything
else: "unusable" means the models' words carry no content, so act on nothing in it and
tell the user; "doubtful" means read with care (summary.quality_reasons says which check
fired where). Then the rest of the summary (stop_reason, decision or divergence,
degraded, simulated), and verify the unverified_claims yourself. Once the user has
decided, record_decision keeps their decision, rationale and review date with the
debate; when that decision is reviewed, record_outcome says which option proved right,
so the team learns whom to trust. A token whose user is in no team yet makes one with
create_team first; list_debates and list_decisions find the team's earlier work."""

WAIT_POLL_SECONDS = 0.5


class Identity:
    """The token the server was started with, looked up again on every call."""

    def __init__(self, secret: str) -> None:
        self.secret = secret

    def token(self) -> ApiToken:
        token = api_token_use(secret=self.secret)
        if token is None:
            raise ToolError("The API token is unknown, revoked or expired; make a new one.")
        return token

    def request(self, team: str | None = None) -> AuthenticatedHttpRequest:
        """A request as the token's user, for the code the JSON API runs."""
        token = self.token()
        request = HttpRequest()
        request.method = "POST"
        request.user = token.user
        request.api_token = token  # type: ignore[attr-defined]
        request.session = {}  # type: ignore[assignment]  # no session: like a Bearer call
        if team:
            request.META["HTTP_" + TEAM_HEADER.upper().replace("-", "_")] = team
        # Authenticated: its user is the token's, set above.
        return cast(AuthenticatedHttpRequest, request)


@contextmanager
def _refusals() -> Iterator[None]:
    """What an API route or access helper raises, as the tool error an agent reads: a
    body the API would answer 422 (each field named), 404 and 403 (another team's
    code reads as unknown), 429 with its wait."""
    try:
        yield
    except ValidationError as exc:
        fields = "; ".join(f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}"
                           for error in exc.errors())
        raise ToolError(f"Refused: invalid input ({fields})") from exc
    except QueryRefused as exc:  # a list filter the list's form refuses (the API's 422)
        fields = "; ".join(f"{error['loc'][-1]}: {error['msg']}" for error in exc.errors)
        raise ToolError(f"Refused: invalid input ({fields})") from exc
    except Http404 as exc:
        raise ToolError("Not found (or not in any of your teams).") from exc
    except PermissionDenied as exc:
        raise ToolError(str(exc) or "Not allowed.") from exc
    except RateLimited as exc:  # the API lets it through to answer 429 with Retry-After
        raise ToolError(f"Refused: {exc} (retry after {exc.retry_after_s} s)") from exc


def _debate(identity: Identity, code: str, *, write: bool = False) -> Debate:
    with _refusals():
        return debate_access(user=identity.token().user, code=code, write=write)[0]


def _status(debate: Debate) -> dict[str, Any]:
    quality = selectors.debate_quality(debate=debate)
    return {
        # First, as agents should read it: null until there is a result.
        "quality": str(quality[0]) if quality else None,
        "code": str(debate.code), "status": debate.status, "active": debate.is_active,
        "current_step": debate.current_step, "stop_reason": debate.stop_reason,
        "stop_explanation": debate.stop_explanation, "degraded": debate.degraded,
        "simulated": debate.simulated, "error": debate.error, "cost_usd": debate.cost_usd,
        "last_event_seq": debate.last_event_seq,
    }


def _events(debate: Debate, after: int) -> list[dict[str, Any]]:
    return [{"seq": e.seq, "kind": e.kind, "payload": e.payload}
            for e in selectors.debate_events_after(debate=debate, after=after)]


# --- the tools' bodies (sync, database work) ----------------------------------------


def teams(identity: Identity) -> list[dict[str, Any]]:
    user = identity.token().user
    return [{"team": str(m.team.code), "name": m.team.name, "role": m.role}
            for m in memberships_of_user(user=user)]


def team_new(identity: Identity, name: str) -> dict[str, Any]:
    """``create_team``: POST /api/teams/'s route itself. The API refuses a read-only
    token's write in its authentication, before any route runs (accounts.api_auth), so
    the same check is made here first."""
    from accounts.api import TeamIn, TeamOut, create_team

    request = identity.request()
    with _refusals():
        check_may_write(request.user)
        answer = create_team(request, TeamIn.model_validate({"name": name}), HttpResponse())
    if answer.status_code != 201:
        raise _refused(answer.value)
    return TeamOut.model_validate(answer.value).model_dump(mode="json")


def personas(identity: Identity, team: str | None) -> list[dict[str, Any]]:
    request = identity.request(team)
    found = current_team(request)
    if found is None:
        raise ToolError("No such team among yours (see list_teams).")
    require_role(team=found, user=request.user, noun="team", need=Need.READ)
    out = []
    for library in persona_selectors.libraries_for_team(team=found, include_archived=False):
        out.append({
            "library": str(library.code), "name": library.name,
            "description": library.description,
            "personas": [{"code": str(p.code), "name": p.name, "expertise": p.expertise,
                          "approach": p.approach}
                         for p in persona_selectors.library_personas(
                             library=library, include_archived=False)],
        })
    return out


def start(identity: Identity, payload: dict[str, Any], team: str | None) -> dict[str, Any]:
    from debates.api import DebateIn, create_debate

    request = identity.request(team)
    with _refusals():
        answer = create_debate(request, DebateIn.model_validate(payload))
    if answer.status_code != 201:
        raise _refused(answer.value)
    debate = Debate.objects.get(code=answer.value["code"])
    return _status(debate)


def decide(identity: Identity, code: str, payload: dict[str, Any]) -> dict[str, Any]:
    """``record_decision``: the API's own route function, so checks and refusals match."""
    from decisions.api import DecisionIn, DecisionOut, record_decision

    request = identity.request()
    with _refusals():
        answer = record_decision(request, parse_code(code), DecisionIn.model_validate(payload))
    if answer.status_code != 200:
        raise ToolError(f"Refused: {answer.value['message']} Nothing was saved.")
    return DecisionOut.model_validate(answer.value).model_dump(mode="json")


def status(identity: Identity, code: str, after: int) -> dict[str, Any]:
    debate = _debate(identity, code)
    return {**_status(debate), "events": _events(debate, after)}


def result(identity: Identity, code: str) -> dict[str, Any]:
    debate = _debate(identity, code)
    typed = selectors.debate_result(debate=debate)
    if typed is None:
        raise ToolError(f"No result yet: the debate is {debate.status}.")
    return {**_status(debate), "result": typed.model_dump(mode="json")}


def _refused(refusal: dict[str, Any]) -> ToolError:
    """The API's error body (message, errors by field) as a tool error."""
    fields = "; ".join(f"{k}: {', '.join(v)}" for k, v in refusal.get("errors", {}).items())
    return ToolError(f"Refused: {refusal['message']}" + (f" ({fields})" if fields else ""))


def outcome(identity: Identity, code: str, payload: dict[str, Any]) -> dict[str, Any]:
    """``record_outcome``: the JSON API's route itself, so the checks are the same."""
    from decisions.api_calibration import OutcomeIn, OutcomeOut, record_outcome

    request = identity.request()
    with _refusals():
        answer = record_outcome(request, parse_code(code), OutcomeIn.model_validate(payload))
    if answer.status_code != 201:
        raise _refused(answer.value)
    return OutcomeOut.model_validate(answer.value).model_dump(mode="json")


async def wait(identity: Identity, code: str, *,
               report: Callable[..., Awaitable[None]], timeout_seconds: float,
               after: int) -> dict[str, Any]:
    """``wait_for_debate``: poll the debate's status and events, reporting each event.
    Every poll runs the token and access checks a new tool call would (``status``), so a
    wait ends with that call's refusal within ``WAIT_POLL_SECONDS`` of a revoked token
    or a removal from the team."""
    deadline = time.monotonic() + max(0.0, min(timeout_seconds, 3600))
    seen = after
    while True:
        now = await sync_to_async(status)(identity, code, seen)
        for event in now["events"]:
            seen = event["seq"]
            detail = ", ".join(f"{k} {v}" for k, v in event["payload"].items()
                               if isinstance(v, int | str) and len(str(v)) < 40)
            await report(seen, message=event["kind"] + (f" ({detail})" if detail else ""))
        if now["status"] not in ACTIVE_STATUSES or time.monotonic() >= deadline:
            now.pop("events")
            return now
        await asyncio.sleep(WAIT_POLL_SECONDS)


def build_server(secret: str) -> MCPServer:
    identity = Identity(secret)
    server = MCPServer(name="council", instructions=INSTRUCTIONS)

    def tool(function: Any) -> Any:
        # The docstring without its source indentation: indented lines read as code in
        # the Markdown a client shows.
        return server.tool(description=inspect.cleandoc(function.__doc__))(function)

    @tool
    async def list_teams() -> list[dict[str, Any]]:
        """Your teams and your role in each (a viewer may read, not start debates)."""
        return await sync_to_async(teams)(identity)

    @tool
    async def create_team(name: str) -> dict[str, Any]:
        """Create a team with you as its owner (as POST /api/teams/): what a new
        user's token needs first, since every other tool works in a team. Returns its
        code (pass it as `team`), name and your role."""
        return await sync_to_async(team_new)(identity, name)

    @tool
    async def list_personas(team: str | None = None) -> list[dict[str, Any]]:
        """Persona libraries of a team (default: your first team) and their personas;
        pass persona codes to start_debate to choose the panel."""
        return await sync_to_async(personas)(identity, team)

    @tool
    async def start_debate(question: str, context: str = "", mode: Mode = Mode.MEDIUM,
                           model: str | None = None, panel_models: list[str] | None = None,
                           agents: int | None = None,
                           max_rounds: int | None = None, personas: list[str] | None = None,
                           team: str | None = None, protocol: str = "council",
                           options: list[str] | None = None, threshold: float | None = None,
                           anonymize_peers: bool = False,
                           inline_personas: list[dict[str, Any]] | None = None,
                           synthesis_model: str | None = None,
                           fallback_model: str | None = None,
                           seed: int | None = None,
                           sources: list[str] | None = None,
                           decision_rule: Literal["vote", "debate", "confidence"] | None = None,
                           ) -> dict[str, Any]:
        """Start a debate on a decision question; returns its status (with its
        code) at once. The options of POST /api/debates/, with the same checks:
        question (at most 20,000 characters), context, mode (quick, medium or deep),
        model (a litellm model name; default: the server's), panel_models (a mixed
        panel: models given to the agents in turn; peers then see arguments
        anonymised, without verdicts), agents (council only:
        adversarial and workflow have fixed roles and refuse it), max_rounds,
        threshold, personas (library persona codes, in panel order), inline_personas
        (personas given in full: name, background, expertise, approach, bias),
        protocol (council, adversarial or workflow; default council), options (the
        answers verdicts choose between; default: automatic), anonymize_peers,
        synthesis_model, fallback_model, seed, sources (library source codes from
        list_sources: the panel reads them as S1, S2... and the debate starts once
        they are read), decision_rule (council only: vote, the independent positions;
        debate, the final ones; confidence, the independent ones weighted by confidence
        rank; default vote, or debate when the panel's models differ); team is a team
        code (default: your first team). A refusal names the field. Follow it with
        wait_for_debate, then get_result."""
        payload: dict[str, Any] = {"question": question, "context": context, "mode": mode,
                                   "personas": personas or [], "protocol": protocol,
                                   "anonymize_peers": anonymize_peers,
                                   "inline_personas": inline_personas or [],
                                   "sources": sources or []}
        payload.update({k: v for k, v in {
            "model": model, "panel_models": panel_models, "agents": agents,
            "max_rounds": max_rounds, "options": options,
            "threshold": threshold, "synthesis_model": synthesis_model,
            "fallback_model": fallback_model, "seed": seed,
            "decision_rule": decision_rule}.items() if v is not None})
        return await sync_to_async(start)(identity, payload, team)

    @tool
    async def get_status(code: str, after: int = 0) -> dict[str, Any]:
        """Status of a debate and its events after sequence number `after`; pass its
        last_event_seq as `after` next time."""
        return await sync_to_async(status)(identity, code, after)

    @tool
    async def wait_for_debate(code: str, ctx: Context, timeout_seconds: float = 300,
                              after: int = 0) -> dict[str, Any]:
        """Wait until the debate ends (or `timeout_seconds` pass), reporting progress
        as its events arrive. Returns its status; call again if it is still active."""
        return await wait(identity, code, report=ctx.report_progress,
                          timeout_seconds=timeout_seconds, after=after)

    @tool
    async def get_result(code: str) -> dict[str, Any]:
        """The finished debate: its status fields (quality, code, status, stop_reason,
        degraded, simulated, cost_usd, last_event_seq ...) and, under "result", its
        protocol's typed result (schema at /api/debates/schemas/result?protocol=...).
        Read "quality" first: sound, doubtful (read with care) or unusable (the words
        carry no content: act on nothing, tell the user); result.summary.quality_reasons
        says which check fired where. Every result opens with "summary": quality,
        quality_reasons, stop_reason, stop_explanation, decision (null under genuine
        disagreement), divergence, degraded, simulated; then the protocol's
        fields (council: recommended_path, disagreements ...; adversarial:
        final_solution, issues, remaining_risks; workflow: synthesis, convergence),
        unverified_claims and options (what record_decision's option may name). An
        error while the debate has no result yet (still running, failed or
        cancelled)."""
        return await sync_to_async(result)(identity, code)

    add_follow_through_tools(tool, identity)
    add_source_tools(tool, identity)
    # Imported here: that module builds on this one's Identity and refusals.
    from integrations.mcp_debate_tools import add_debate_tools

    add_debate_tools(tool, identity)
    return server


def add_follow_through_tools(tool: Callable[[Any], Any], identity: Identity) -> None:
    """The tools for after the debate: the team's decision, then its outcome."""

    @tool
    async def record_decision(code: str, rationale: str, option: str = "", choice: str = "",
                              review_on: str | None = None, no_review: bool = False,
                              confirm_quality: bool = False) -> dict[str, Any]:
        """Record what the team decided after a finished debate (as POST
        /api/debates/{code}/decision; editors and owners only). Call it only when the
        user has told you their decision: never decide for them from the synthesis.
        option: one of the debate's options (get_result's result "options", under
        every protocol); or choice: another choice in words. rationale: why, in the
        user's words. review_on: when to look back at it (YYYY-MM-DD, today or later;
        default 90 days on); no_review=true for none. confirm_quality=true is required
        when the debate's quality is doubtful or unusable, and only once the user has
        confirmed they decide on such a result (refused without it). Recording again
        changes the decision and keeps the earlier version. Returns the decision with
        its state, result_quality and earlier versions."""
        payload: dict[str, Any] = {"option": option, "choice": choice,
                                   "rationale": rationale, "confirm_quality": confirm_quality}
        if no_review or review_on:  # absent: the route's default (90 days on)
            payload["review_on"] = None if no_review else review_on
        return await sync_to_async(decide)(identity, code, payload)

    @tool
    async def record_outcome(code: str, right_option: str | None, result: str | None = None,
                             notes: str = "", review_again_on: str | None = None
                             ) -> dict[str, Any]:
        """When the team reviews a decision it recorded on a debate (its review date
        came, or the consequences are known): record which of the debate's options
        proved right in hindsight (right_option, spelled as in the result's
        "options"), how it went (result: worked, mixed or failed) and notes. Pass
        right_option null for "can't tell yet": the review moves to review_again_on
        (YYYY-MM-DD, default 90 days on). Needs a decision on the debate first; the
        outcome feeds the team's calibration (GET /api/calibration)."""
        payload = {"right_option": right_option, "result": result, "notes": notes,
                   "review_again_on": review_again_on}
        return await sync_to_async(outcome)(identity, code, payload)


# --- sources: the team's documents a debate argues from (docs/api.md, "Sources") ------


def sources_list(identity: Identity, team: str | None) -> list[dict[str, Any]]:
    """``list_sources``: the JSON API's route itself, as the token's user."""
    from sources.api import SourceOut, list_sources

    request = identity.request(team)
    request.method = "GET"
    if current_team(request) is None:
        raise ToolError("No such team among yours (see list_teams).")
    with _refusals():
        return [SourceOut.model_validate(s).model_dump(mode="json")
                for s in list_sources(request)]


def source_get(identity: Identity, code: str) -> dict[str, Any]:
    from sources.api import SourceDetailOut, source_detail_out

    request = identity.request()
    request.method = "GET"
    with _refusals():
        source, _ = source_access(request, code)
    return SourceDetailOut.model_validate(source_detail_out(source)).model_dump(mode="json")


def source_upload(identity: Identity, payload: dict[str, Any],
                  team: str | None) -> dict[str, Any]:
    from sources.api import SourceOut, SourceUploadIn, upload_source

    request = identity.request(team)
    if current_team(request) is None:
        raise ToolError("No such team among yours (see list_teams).")
    with _refusals():
        answer = upload_source(request, SourceUploadIn.model_validate(payload))
    if answer.status_code != 201:
        raise _refused(answer.value)
    return SourceOut.model_validate(answer.value).model_dump(mode="json")


def add_source_tools(tool: Callable[[Any], Any], identity: Identity) -> None:
    """The team's source library: what a debate may read and cite."""

    @tool
    async def list_sources(team: str | None = None) -> list[dict[str, Any]]:
        """The team's library sources (default: your first team), each with its
        current version's status (pending, extracting, ready or refused). Pass source
        codes as start_debate's sources."""
        return await sync_to_async(sources_list)(identity, team)

    @tool
    async def get_source(code: str) -> dict[str, Any]:
        """One source: its versions, and the current version's text once it is read."""
        return await sync_to_async(source_get)(identity, code)

    @tool
    async def upload_source(filename: str, content_base64: str, note: str = "",
                            team: str | None = None) -> dict[str, Any]:
        """Add a document to the team's source library (editors and owners): its name
        says its kind (.pdf, .docx, .xlsx, .csv, .html, .md, .txt), the file base64
        (at most 8 MiB). It is read in the background: poll get_source until its
        current status is ready (or refused, with the reason); a refused file saves
        nothing."""
        payload = {"filename": filename, "content_base64": content_base64, "note": note}
        return await sync_to_async(source_upload)(identity, payload, team)
