"""A debate's sources (the team's documents it argues from), from whichever app keeps them.

debates must not import the sources app (dependencies point debates <- sources), yet a
debate is created with sources, its worker hands their text to the engine
(``DebateState.sources``) and waits until they are read, and a re-run keeps them. The
sources app registers its ``DebateSources`` when it is ready (sources/apps.py);
without one, no debate has sources. docs/web.md, "Sources".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from debates.engine import SourceDocument

if TYPE_CHECKING:
    from accounts.models import Team
    from debates.models import Debate


class DebateSourceError(ValueError):
    """Refused source codes or files; the message is meant for the user."""


@dataclass(frozen=True)
class Upload:
    """A file as a form or the API received it."""

    name: str
    data: bytes


@dataclass(frozen=True)
class SourceLink:
    """One of a debate's sources as its pages list it."""

    id: str  # "S2"
    title: str
    status: str  # pending, extracting, ready, refused, deleted
    error: str = ""
    url: str = ""
    version: str = ""  # the version's code ("" once deleted from the library)


@dataclass(frozen=True)
class Readiness:
    pending: list[str] = field(default_factory=list)  # titles still being read
    refused: list[str] = field(default_factory=list)  # "title: why"


class DebateSources(Protocol):
    def choices(self, *, team: Team) -> list[tuple[str, str]]:
        """(source code, title) of the team's library sources a debate may use."""
        ...

    def upload(self, *, team: Team, user: object, files: Sequence[Upload]) -> list[str]:
        """Stores the files in the team's library (all or none) and queues their
        reading; returns their version codes. ``DebateSourceError`` says why not."""
        ...

    def attach(self, *, debate: Debate, codes: Sequence[str]) -> None:
        """Links the debate to the sources (a source code: its current version; a
        version code: that version), in order: S1, S2..."""
        ...

    def codes(self, *, debate: Debate) -> list[str]:
        """The version codes of the debate's sources, in order (what a re-run keeps)."""
        ...

    def links(self, *, debate: Debate) -> list[SourceLink]:
        ...

    def documents(self, *, debate: Debate) -> list[SourceDocument]:
        """The debate's sources that are read, as the engine takes them."""
        ...

    def chars(self, *, debate: Debate) -> int:
        """The debate's sources' length in characters, as ``chars_of`` counts them."""
        ...

    def chars_of(self, *, team: Team, codes: Sequence[str]) -> int:
        """What a debate's estimate counts for these sources, before it has them: a read
        one's text length, the file's size for one not read yet. ``DebateSourceError``
        for codes that are unknown or refused."""
        ...

    def readiness(self, *, debate: Debate) -> Readiness:
        ...


class _NoSources:
    def choices(self, *, team: Team) -> list[tuple[str, str]]:
        return []

    def upload(self, *, team: Team, user: object, files: Sequence[Upload]) -> list[str]:
        if files:
            raise DebateSourceError("Sources are not available.")
        return []

    def attach(self, *, debate: Debate, codes: Sequence[str]) -> None:
        if codes:
            raise DebateSourceError("Sources are not available.")

    def codes(self, *, debate: Debate) -> list[str]:
        return []

    def links(self, *, debate: Debate) -> list[SourceLink]:
        return []

    def documents(self, *, debate: Debate) -> list[SourceDocument]:
        return []

    def chars(self, *, debate: Debate) -> int:
        return 0

    def chars_of(self, *, team: Team, codes: Sequence[str]) -> int:
        if codes:
            raise DebateSourceError("Sources are not available.")
        return 0

    def readiness(self, *, debate: Debate) -> Readiness:
        return Readiness()


_provider: DebateSources = _NoSources()


def register(provider: DebateSources | None) -> None:
    global _provider
    _provider = provider if provider is not None else _NoSources()


def debate_sources() -> DebateSources:
    return _provider


# The attribute a loaded debate keeps its sources' pages on, so a page that renders
# many citations asks the sources app once.
_URLS = "_council_source_urls"


def remember_links(debate: Debate, links: Sequence[SourceLink]) -> None:
    """Keeps ``links`` (already read for the page's head) on ``debate`` for
    ``source_urls``."""
    setattr(debate, _URLS, {link.id: link.url for link in links if link.url})


def source_urls(debate: Debate) -> dict[str, str]:
    """The page of each of the debate's sources, by id (``S2`` -> its URL): what a
    passage citation links to (``…/sources/S2#S2.14``). Read once per loaded debate."""
    urls: dict[str, str] | None = getattr(debate, _URLS, None)
    if urls is None:
        remember_links(debate, debate_sources().links(debate=debate))
        urls = getattr(debate, _URLS)
    return urls


def passage_url(debate: Debate, passage: str) -> str:
    """The link to passage ``S2.14`` on its source's page, "" when the debate has no
    such source."""
    url = source_urls(debate).get(passage.split(".", 1)[0])
    return f"{url}#{passage}" if url else ""
