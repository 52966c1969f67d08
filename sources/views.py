"""Source pages: the team's library (list, upload, versions, delete) and a debate's
source with its passages, each an anchor (``#S2.14``) a citation links to. Text from
files reaches the page only through the sanitised Markdown filter (``untrusted``).
docs/web.md, "Sources"."""

from __future__ import annotations

import re
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.access import WRITE_ROLES, Need, current_team_access
from debates.access import debate_access
from debates.debate_sources import Upload, debate_sources
from debates.engine import MAX_SOURCE_BYTES
from debates.models import Synthesis
from sources import selectors, services
from sources.access import source_access
from sources.models import SourceStatus
from view_kit.http import AuthenticatedHttpRequest
from view_kit.site_words import said, ui

WAITING = (SourceStatus.PENDING, SourceStatus.EXTRACTING)
_PASSAGE_ID = re.compile(r"S[1-9][0-9]*\.[1-9][0-9]*")


def _files(request: HttpRequest, field: str = "files") -> list[Upload]:
    return [Upload(f.name or "file", f.read(MAX_SOURCE_BYTES + 1))  # no more: refused anyway
            for f in request.FILES.getlist(field)]


def _usage(team: object) -> dict[str, int]:
    return {"used": services.team_usage(team), "quota": services.quota_bytes()}  # type: ignore[arg-type]


@login_required
@require_GET
def library(request: HttpRequest) -> HttpResponse:
    team, role = current_team_access(request, need=Need.READ)
    sources = list(selectors.team_sources(team=team))
    return render(request, "sources/library.html", {
        "team": team, "can_write": role in WRITE_ROLES, "sources": sources,
        "waiting": any(not s.current.settled for s in sources if s.current),
        **_usage(team),
    })


@login_required
@require_POST
def upload(request: AuthenticatedHttpRequest) -> HttpResponse:
    team, _ = current_team_access(request, need=Need.WRITE)
    try:
        versions = services.sources_upload(team=team, user=request.user, files=_files(request))
    except services.SourceError as exc:
        messages.error(request, said(exc))
    else:
        messages.success(request, ui("site.sources.msg.uploaded.count", n=len(versions)))
    return redirect("sources:library")


@login_required
@require_GET
def source_detail(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    source, role = source_access(request, code)
    versions = list(selectors.source_versions(source=source))
    current = versions[0] if versions else None
    return render(request, "sources/detail.html", {
        "source": source, "versions": versions, "current": current,
        "passages": selectors.version_passages(current) if current else [],
        "can_write": role in WRITE_ROLES, "anchor_prefix": "p",
    })


@login_required
@require_GET
def source_status(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    """The current version's status, polled (HTMX) while it is being read."""
    source, _ = source_access(request, code)
    return render(request, "sources/_status.html", {"version": source.current,
                                                     "source": source})


@login_required
@require_POST
def version_upload(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponse:
    source, _ = source_access(request, code, need=Need.WRITE)
    try:
        services.sources_upload(team=source.team, user=request.user, files=_files(request),
                                source=source, note=request.POST.get("note", ""))
    except services.SourceError as exc:
        messages.error(request, said(exc))
    else:
        messages.success(request, ui("site.sources.msg.version_uploaded"))
    return redirect("sources:detail", code=source.code)


@login_required
@require_POST
def source_delete_view(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponse:
    source, _ = source_access(request, code, need=Need.WRITE)
    try:
        services.source_delete(source=source)
    except services.SourceError as exc:
        messages.error(request, said(exc))
        return redirect("sources:detail", code=source.code)
    messages.success(request, ui("site.sources.msg.deleted", title=source.title))
    return redirect("sources:library")


@login_required
@require_GET
def debate_sources_fragment(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    """A debate's sources and how far their reading got (polled while it goes on)."""
    debate, _ = debate_access(user=request.user, code=code)
    links = debate_sources().links(debate=debate)
    return render(request, "sources/_debate_sources.html", {
        "debate": debate, "source_links": links,
        "sources_waiting": any(link.status in WAITING for link in links)})


# What each call was shown (``EvidenceReport.offers``): passages offered, not cited.
_NOT_CITATIONS = frozenset({"offers"})


def _cited_in_result(result: object) -> set[str]:
    """Every passage id a stored result names (its citations, whatever their shape),
    but for the passages its calls were only shown."""
    if isinstance(result, str):
        return {result} if _PASSAGE_ID.fullmatch(result) else set()
    if isinstance(result, dict):
        result = [v for k, v in result.items() if k not in _NOT_CITATIONS]
    if isinstance(result, list):
        return set().union(*map(_cited_in_result, result)) if result else set()
    return set()


@login_required
@require_GET
def debate_source(request: HttpRequest, code: uuid.UUID, source_id: str) -> HttpResponse:
    """One of a debate's sources, passage by passage; the passages the debate's result
    cites, and those named in ``?cited=S1.3,S1.7``, are highlighted."""
    debate, _ = debate_access(user=request.user, code=code)
    link = selectors.debate_link(debate=debate, source_id=source_id)
    if link is None:
        raise Http404("No such source in this debate.")
    asked = {c.strip() for c in request.GET.get("cited", "").split(",")
             if _PASSAGE_ID.fullmatch(c.strip())}
    stored = Synthesis.objects.filter(debate=debate).values_list("result", flat=True).first()
    cited = asked | _cited_in_result(stored)
    version = link.version
    passages = selectors.version_passages(version, link.source_id) if version else []
    return render(request, "sources/debate_source.html", {
        "debate": debate, "link": link, "version": version, "passages": passages,
        "cited": cited, "cited_here": sorted(
            (p.id for p in passages if p.id in cited), key=lambda i: int(i.split(".")[1])),
        "ready": version is not None and version.status == SourceStatus.READY,
    })
