"""The personas app as the source of a debate's library personas.

Registered with ``debates.persona_sources`` in ``PersonasConfig.ready()``, so debates
offers and links library personas without importing this app.
"""

from __future__ import annotations

from collections.abc import Sequence

from council_site.accounts.models import Team
from debates.engine.schemas import Persona
from debates.persona_sources import PersonaSourceError
from personas.selectors import UnknownPersonas, library_personas_for_debate, team_personas


class LibraryPersonaSource:
    def choices(self, *, team: Team) -> list[tuple[str, str]]:
        return [(str(p.code), f"{p.name} · {p.library.name}") for p in team_personas(team=team)]

    def resolve(self, *, team: Team, codes: Sequence[object]) -> list[Persona]:
        try:
            return library_personas_for_debate(team, codes)
        except UnknownPersonas as exc:
            raise PersonaSourceError(str(exc)) from None
