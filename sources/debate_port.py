"""The sources app as the keeper of a debate's sources.

Registered with ``debates.debate_sources`` in ``SourcesConfig.ready()``, so debates
attaches, reads and waits on sources without importing this app.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.urls import reverse

from accounts.models import Team
from debates.debate_sources import DebateSourceError, Readiness, SourceLink, Upload
from debates.engine import SourceDocument
from debates.models import Debate
from sources import selectors
from sources.models import DebateSource, Source, SourceStatus, SourceVersion
from sources.services import SourceError, sources_upload

MAX_DEBATE_SOURCES = 20


def _uuid(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def _versions(team: Team, codes: Sequence[str]) -> list[SourceVersion]:
    """Each code's version: a version code is that version, a source code the source's
    current one. Another team's codes, or made-up ones, are refused by name."""
    found: list[SourceVersion] = []
    unknown = []
    for code in codes:
        parsed = _uuid(code)
        version = parsed and (
            SourceVersion.objects.filter(code=parsed, source__team=team)
            .select_related("source").defer("text").first()
            or SourceVersion.objects.filter(source__code=parsed, source__team=team)
            .select_related("source").defer("text").order_by("-number").first())
        if version:
            found.append(version)
        else:
            unknown.append(str(code))
    if unknown:
        raise DebateSourceError(f"Unknown sources: {', '.join(unknown)}")
    refused = [f"{v.source.title}: {v.error}" for v in found if v.status == SourceStatus.REFUSED]
    if refused:
        raise DebateSourceError("Refused sources cannot be used: " + "; ".join(refused))
    return found


class LibraryDebateSources:
    def choices(self, *, team: Team) -> list[tuple[str, str]]:
        return [(str(s.code), s.title) for s in selectors.team_sources(team=team)
                if (c := next(iter(s.versions.all()), None)) and c.status != SourceStatus.REFUSED]

    def upload(self, *, team: Team, user: object, files: Sequence[Upload]) -> list[str]:
        try:
            # Read now: a refused file (a scan with no text) is the form's answer, and no
            # debate is made to fail on it a moment later (docs/web.md, "Sources").
            versions = sources_upload(team=team, user=user if isinstance(user, User) else None,
                                      files=files, read_now=True)
        except SourceError as exc:
            raise DebateSourceError(str(exc)) from None
        return [str(v.code) for v in versions]

    def attach(self, *, debate: Debate, codes: Sequence[str]) -> None:
        existing = list(DebateSource.objects.filter(debate=debate).values_list(
            "position", "version_id"))
        if len(existing) + len(codes) > MAX_DEBATE_SOURCES:
            raise DebateSourceError(f"A debate has at most {MAX_DEBATE_SOURCES} sources.")
        seen = {version for _, version in existing}
        position = max((p for p, _ in existing), default=0)
        links = []
        for version in _versions(debate.team, codes):
            if version.pk in seen:
                continue  # the same version twice would be two ids for one text
            seen.add(version.pk)
            position += 1
            links.append(DebateSource(debate=debate, position=position, version=version,
                                      title=version.source.title))
        DebateSource.objects.bulk_create(links)

    def codes(self, *, debate: Debate) -> list[str]:
        return [str(link.version.code) for link in selectors.debate_links(debate=debate)
                if link.version is not None]

    def links(self, *, debate: Debate) -> list[SourceLink]:
        return [SourceLink(
            id=link.source_id, title=link.title,
            status=link.version.status if link.version else "deleted",
            error=link.version.error if link.version else "",
            version=str(link.version.code) if link.version else "",
            url=reverse("sources:debate_source", kwargs={
                "code": debate.code, "source_id": link.source_id}))
            for link in selectors.debate_links(debate=debate)]

    def documents(self, *, debate: Debate) -> list[SourceDocument]:
        return selectors.debate_documents(debate=debate)

    def chars(self, *, debate: Debate) -> int:
        return selectors.versions_chars(list(DebateSource.objects.filter(
            debate=debate, version__isnull=False).values_list("version_id", flat=True)))

    def chars_of(self, *, team: Team, codes: Sequence[str]) -> int:
        return selectors.versions_chars([v.pk for v in _versions(team, codes)])

    def readiness(self, *, debate: Debate) -> Readiness:
        pending, refused = [], []
        for link in DebateSource.objects.filter(debate=debate).select_related(
                "version").defer("version__text"):
            if link.version is None:
                continue  # deleted after the debate began: it argues without it
            if link.version.status == SourceStatus.REFUSED:
                refused.append(f"{link.title}: {link.version.error}")
            elif link.version.status != SourceStatus.READY:
                pending.append(link.title)
        return Readiness(pending=pending, refused=refused)


__all__ = ["LibraryDebateSources", "Source"]
