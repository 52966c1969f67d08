"""A team's library personas for a debate, from whichever app provides them.

debates must not import the personas app (dependencies point debates <- personas), yet
the debate form offers a team's library personas and a debate starts with them. The
personas app registers its ``PersonaSource`` when it is ready (personas/apps.py);
without one, a team simply has no library personas.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from debates.engine import Persona

if TYPE_CHECKING:
    from accounts.models import Team


class PersonaSourceError(ValueError):
    """Refused persona codes; the message is meant for the user."""


class PersonaSource(Protocol):
    def choices(self, *, team: Team) -> list[tuple[str, list[tuple[str, str]]]]:
        """The personas ``team`` may put on a panel, grouped by library:
        [(library name, [(persona code, persona name), ...]), ...]."""
        ...

    def resolve(self, *, team: Team, codes: Sequence[object]) -> list[Persona]:
        """The engine personas for ``codes``, in that order; ``PersonaSourceError``
        names the codes that are not usable personas of ``team``."""
        ...


    def libraries(self, *, team: Team) -> list[tuple[str, str]]:
        """(library code, name) of ``team``'s libraries, by name."""
        ...

    def library_persona_codes(self, *, team: Team, library: uuid.UUID | str) -> list[str]:
        """Codes of the personas of ``team``'s library ``library`` (the debate search's
        library filter matches agents by them)."""
        ...


class _NoLibraries:
    def choices(self, *, team: Team) -> list[tuple[str, list[tuple[str, str]]]]:
        return []

    def libraries(self, *, team: Team) -> list[tuple[str, str]]:
        return []

    def library_persona_codes(self, *, team: Team, library: uuid.UUID | str) -> list[str]:
        return []

    def resolve(self, *, team: Team, codes: Sequence[object]) -> list[Persona]:
        if codes:
            raise PersonaSourceError("Library personas are not available.")
        return []


_source: PersonaSource = _NoLibraries()


def register(source: PersonaSource | None) -> None:
    """Makes ``source`` the provider of library personas (``None``: there is none)."""
    global _source
    _source = source if source is not None else _NoLibraries()


def persona_source() -> PersonaSource:
    return _source

