"""Reads that span relations, always scoped to a team.

The debate page reads everything it shows in a fixed number of queries (one per
prefetched relation), however many agents, rounds and turns the debate has.
"""

from __future__ import annotations

import uuid

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from pydantic import BaseModel

from council_site.accounts.models import Team
from debates import events
from debates.engine.protocols import get_protocol
from debates.models import Debate, DebateEvent, Synthesis


def debate_list(*, team: Team, limit: int = 200) -> QuerySet[Debate]:
    """The team's debates, newest first, with what a list row shows."""
    return (
        Debate.objects.filter(team=team)
        .select_related("created_by", "parent")
        .defer("settings", "given_personas", "context", "error")
        .order_by("-created_at")[:limit]
    )


def debate_detail(*, team: Team, code: uuid.UUID | str) -> Debate:
    """One debate with its agents, turns, metrics, events, synthesis and lineage
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
            "round_metrics",
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
    """The typed result of the debate's protocol (a ``DebateResult`` for the council),
    or None while the debate has none."""
    try:
        synthesis = debate.synthesis
    except Synthesis.DoesNotExist:
        return None
    return get_protocol(debate.protocol).parse_result(synthesis.result)


def debate_events_after(*, debate: Debate, after: int) -> list[DebateEvent]:
    """The durable event log past ``after`` (the caller has checked access)."""
    return events.events_after(debate, after)
