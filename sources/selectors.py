"""Reads on sources, always scoped to one team (or one debate, itself access-checked)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet
from django.db.models.functions import Length

from accounts.models import Team
from debates.engine import Passage, SourceDocument, split_passages
from debates.models import Debate
from sources.models import DebateSource, Source, SourceStatus, SourceVersion


def team_sources(*, team: Team) -> QuerySet[Source]:
    return Source.objects.filter(team=team).prefetch_related(
        Prefetch("versions", queryset=SourceVersion.objects.order_by("-number")))


def source_versions(*, source: Source) -> QuerySet[SourceVersion]:
    return source.versions.select_related("uploaded_by").order_by("-number")


def debate_links(*, debate: Debate, texts: bool = False) -> list[DebateSource]:
    """The debate's sources in order; their texts (up to 8 MiB each) only with ``texts``:
    a page lists them, only a debate's step reads them."""
    links = DebateSource.objects.filter(debate=debate).select_related("version__source")
    return list(links if texts else links.defer("version__text"))


def versions_chars(pks: list[int]) -> int:
    """The versions' length for an estimate, measured by the database (no text is
    loaded): a read one's text, in characters; one not read yet counts its file's size
    (a text file's upper bound; a PDF's text is usually shorter than its file); a
    refused one nothing."""
    found = SourceVersion.objects.filter(pk__in=pks).annotate(chars=Length("text"))

    def length(version: SourceVersion) -> int:
        if version.status == SourceStatus.READY:
            return version.chars  # type: ignore[attr-defined]
        return 0 if version.status == SourceStatus.REFUSED else version.size

    # A version named twice is one text.
    return sum(length(v) for v in found.only("pk", "status", "size"))


def debate_link(*, debate: Debate, source_id: str) -> DebateSource | None:
    if not (source_id[:1] == "S" and source_id[1:].isdigit()):
        return None
    return DebateSource.objects.filter(debate=debate, position=int(source_id[1:])).select_related(
        "version__source").first()


def link_document(link: DebateSource) -> SourceDocument | None:
    version = link.version
    if version is None or version.status != SourceStatus.READY:
        return None
    return SourceDocument(id=link.source_id, title=link.title[:300] or "Untitled",
                          text=version.text)


def debate_documents(*, debate: Debate) -> list[SourceDocument]:
    return [d for d in map(link_document, debate_links(debate=debate, texts=True))
            if d is not None]


def version_passages(version: SourceVersion, source_id: str = "S1") -> list[Passage]:
    if version.status != SourceStatus.READY:
        return []
    return split_passages(SourceDocument(id=source_id, title=version.source.title or "Untitled",
                                         text=version.text))


@dataclass(frozen=True)
class Progress:
    ready: int
    refused: int
    total: int

    @property
    def waiting(self) -> int:
        return self.total - self.ready - self.refused


def progress(versions: list[SourceVersion]) -> Progress:
    return Progress(sum(v.status == SourceStatus.READY for v in versions),
                    sum(v.status == SourceStatus.REFUSED for v in versions), len(versions))
