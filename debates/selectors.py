"""Reads that span relations, always scoped to a team.

The debate page reads everything it shows in a fixed number of queries (one per
prefetched relation), however many agents, rounds and turns the debate has.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Prefetch, Q, QuerySet
from django.db.models.fields.json import KeyTextTransform
from django.http import Http404
from pydantic import BaseModel

from accounts.models import Team
from debates import event_log
from debates.engine import EvidenceReport, Quality, get_protocol
from debates.models import ACTIVE_STATUSES, Agent, Debate, DebateEvent, EarlierSynthesis, Synthesis
from debates.persona_sources import persona_source
from debates.runtime.state_rows import load_state

SORTS = {
    "newest": ("-created_at", "-id"),
    "oldest": ("created_at", "id"),
    "cost": ("-cost_usd", "-created_at"),
    "question": ("question", "-created_at"),
}


@dataclass(frozen=True)
class DebateFilters:
    """What the debate list may be narrowed by; every field optional (empty = any)."""

    q: str = ""
    status: str = ""
    stop_reason: str = ""
    protocol: str = ""
    author: str = ""  # a username
    persona: str = ""  # an agent's name
    library: uuid.UUID | None = None  # a persona library's code
    created_from: date | None = None
    created_to: date | None = None
    degraded: bool | None = None
    simulated: bool | None = None
    sort: str = "newest"  # a key of SORTS, or "relevance" (with a query)


def _postgres() -> bool:
    return connection.vendor == "postgresql"


def _text_search(qs: QuerySet[Debate], q: str, *, rank: bool) -> QuerySet[Debate]:
    """Full text on PostgreSQL (stemmed, websearch syntax: "quoted phrases", -not, or);
    elsewhere every word must appear, case-insensitively, in the question or synthesis."""
    if _postgres():
        from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector

        config = getattr(settings, "COUNCIL_SEARCH_CONFIG", "english")
        vector = (SearchVector("question", weight="A", config=config)
                  + SearchVector("synthesis__search_text", weight="B", config=config))
        query = SearchQuery(q, search_type="websearch", config=config)
        qs = qs.annotate(search=vector).filter(search=query)
        return qs.annotate(rank=SearchRank(vector, query)) if rank else qs
    for word in q.split():
        qs = qs.filter(Q(question__icontains=word) | Q(synthesis__search_text__icontains=word))
    return qs


def with_quality(qs: QuerySet[Debate]) -> QuerySet[Debate]:
    """``qs`` with each debate's ``quality`` (docs/web.md, "Quality"), read from its
    stored result (every one says it: migration 0013); null without one."""
    return qs.annotate(quality=KeyTextTransform("quality", "synthesis__result"))


def debate_search(*, team: Team, filters: DebateFilters) -> QuerySet[Debate]:
    """The team's debates narrowed by ``filters`` and sorted; the caller paginates."""
    f = filters
    qs = _by_agents(_by_fields(Debate.objects.filter(team=team), f), team, f)
    q = " ".join(f.q.split())
    by_rank = bool(q) and f.sort == "relevance" and _postgres()
    if q:
        qs = _text_search(qs, q, rank=by_rank)
    order = ("-rank", "-created_at") if by_rank else SORTS.get(f.sort, SORTS["newest"])
    return with_quality(
        qs.select_related("created_by", "parent")
        .defer("settings", "given_personas", "context", "error")
        .order_by(*order)
    )


def _by_fields(qs: QuerySet[Debate], f: DebateFilters) -> QuerySet[Debate]:
    """``qs`` narrowed by the filters on the debate's own fields that are set."""
    if f.status:
        qs = qs.filter(status=f.status)
    if f.stop_reason:
        qs = qs.filter(stop_reason=f.stop_reason)
    if f.protocol:
        qs = qs.filter(protocol=f.protocol)
    if f.author:
        qs = qs.filter(created_by__username=f.author)
    if f.created_from:
        qs = qs.filter(created_at__date__gte=f.created_from)
    if f.created_to:
        qs = qs.filter(created_at__date__lte=f.created_to)
    if f.degraded is not None:
        qs = qs.filter(degraded=f.degraded)
    if f.simulated is not None:
        qs = qs.filter(simulated=f.simulated)
    return qs


def _by_agents(qs: QuerySet[Debate], team: Team, f: DebateFilters) -> QuerySet[Debate]:
    """``qs`` narrowed to debates with an agent of the persona or library asked for.
    A join could repeat a debate once per matching agent, hence ``id IN (subquery)``."""
    if f.persona:
        # Part of a name: a library persona's, or one composed for a single debate.
        qs = qs.filter(id__in=Agent.objects.filter(
            debate__team=team, name__icontains=f.persona.strip()).values("debate_id"))
    if f.library is not None:
        codes = persona_source().library_persona_codes(team=team, library=f.library)
        qs = qs.filter(id__in=Agent.objects.filter(
            debate__team=team, source_persona_id__in=codes).values("debate_id"))
    return qs


def debate_filter_choices(*, team: Team) -> dict[str, Any]:
    """The values the team's debates actually have, for the filter drop-downs."""
    debates = Debate.objects.filter(team=team)
    return {
        "stop_reasons": sorted(set(debates.exclude(stop_reason="").values_list(
            "stop_reason", flat=True))),
        "protocols": sorted(set(debates.values_list("protocol", flat=True))),
        "authors": sorted(set(debates.exclude(created_by=None).values_list(
            "created_by__username", flat=True))),
        # The team's library personas (name, library) to suggest; a composed agent's
        # name is found by typing part of it, not listed (there are dozens).
        "personas": sorted({(name, library) for library, personas in
                            persona_source().choices(team=team) for _, name in personas},
                           key=lambda pair: (pair[0].casefold(), pair[1])),
        "libraries": persona_source().libraries(team=team),
    }


def debate_list(*, team: Team, limit: int = 200) -> QuerySet[Debate]:
    """The team's debates, newest first, with what a list row shows."""
    return (
        Debate.objects.filter(team=team)
        .select_related("created_by", "parent")
        .defer("settings", "given_personas", "context", "error")
        .order_by("-created_at")[:limit]
    )


def debates_to_watch(*, team: Team, codes: Iterable[uuid.UUID]) -> QuerySet[Debate]:
    """What a live debate list follows: the team's debates running now, and those of
    ``codes`` (seen running before), each with what a list row shows."""
    return with_quality(
        Debate.objects.filter(team=team)
        .filter(Q(status__in=ACTIVE_STATUSES) | Q(code__in=list(codes)))
        .select_related("created_by", "parent")
        .defer("settings", "given_personas", "context", "error")
    )


def debate_options(debate: Debate) -> list[str]:
    """The options a decision on the debate can name, whatever its protocol: the
    stored result's, else what the engine derives from the stored debate (user's,
    composed, or the question's)."""
    try:
        stored = debate.synthesis.result
    except Synthesis.DoesNotExist:
        stored = None
    if isinstance(stored, dict) and stored.get("options"):
        return [str(o) for o in stored["options"]]
    return list(load_state(debate).options)


def debate_detail(*, team: Team, code: uuid.UUID | str) -> Debate:
    """One debate with its agents, turns, events, synthesis and lineage
    loaded up front (a bounded number of queries).

    The event sequence is read first, and only events up to it are loaded: every
    other row is read later, so it is at least as new as the last event the page
    claims to show. A client that follows the log from that number can miss nothing.
    """
    seq = Debate.objects.filter(team=team, code=code).values_list(
        "last_event_seq", flat=True).first()
    if seq is None:
        raise Http404("no such debate")
    debate = (
        Debate.objects.filter(team=team, code=code)
        .select_related("team", "created_by", "parent", "synthesis")
        .prefetch_related(
            "agents",
            "turns",
            Prefetch("events", queryset=DebateEvent.objects.filter(seq__lte=seq)
                     .order_by("seq")),
            Prefetch("reruns", queryset=Debate.objects.order_by("created_at").only(
                "id", "code", "parent_id", "status", "stop_reason", "created_at", "question")),
        )
        .first()
    )
    if debate is None:
        raise Http404("no such debate")
    return debate


def debate_result(*, debate: Debate) -> BaseModel | None:
    """The typed result of the debate's protocol (its ``result_model``), or None while
    the debate has none."""
    try:
        synthesis = debate.synthesis
    except Synthesis.DoesNotExist:
        return None
    return get_protocol(debate.protocol).parse_result(synthesis.result)


def debate_quality(*, debate: Debate) -> tuple[Quality, list[str]] | None:
    """The result's ``quality`` and the rules that fired, read from the stored JSON
    without parsing the whole result (a status poll asks for it); None without a
    result."""
    try:
        stored = debate.synthesis.result
    except Synthesis.DoesNotExist:
        return None
    return Quality(stored["quality"]), [str(r["rule"]) for r in stored["quality_reasons"]]


def unfound_citations(*, debate: Debate) -> tuple[EvidenceReport, str] | None:
    """The result's evidence and language when some citation does not check out (what
    the pages mark in the agents' text: docs/web.md, "Sources"), read from the stored
    JSON without parsing the whole result; None otherwise."""
    try:
        stored = debate.synthesis.result
    except Synthesis.DoesNotExist:
        return None
    if not isinstance(stored.get("evidence"), dict):
        return None
    evidence = EvidenceReport.model_validate(stored["evidence"])
    return (evidence, str(stored.get("language") or "en")) if evidence.not_found else None


def round_measures(*, debate: Debate) -> list[dict[str, Any]]:
    """The measures of each finished round, derived from the stored turns by the
    debate's protocol (docs/api.md); none for a protocol that measures no rounds.
    No query of its own on a debate from ``debate_detail``."""
    return get_protocol(debate.protocol).round_measures(load_state(debate))


def earlier_syntheses(*, debate: Debate) -> list[EarlierSynthesis]:
    """The syntheses "One more round" replaced, newest first."""
    return list(EarlierSynthesis.objects.filter(debate=debate).defer("result"))


def earlier_result(*, debate: Debate, code: uuid.UUID | str) -> tuple[EarlierSynthesis,
                                                                     BaseModel] | None:
    """One replaced synthesis of ``debate`` with its typed result, or None."""
    earlier = EarlierSynthesis.objects.filter(debate=debate, code=code).first()
    if earlier is None:
        return None
    return earlier, get_protocol(debate.protocol).parse_result(earlier.result)


def debate_events_after(*, debate: Debate, after: int) -> list[DebateEvent]:
    """The durable event log past ``after`` (the caller has checked access)."""
    return event_log.events_after(debate, after)
