"""The personas app as the source of a debate's library personas.

Registered with ``debates.persona_sources`` in ``PersonasConfig.ready()``, so debates
offers and links library personas without importing this app.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from accounts.models import Team
from debates.engine import Persona
from debates.persona_sources import PersonaSourceError
from personas.models import LibraryPersona, PersonaLibrary
from personas.selectors import UnknownPersonas, library_personas_for_debate, team_personas


class LibraryPersonaSource:
    def choices(self, *, team: Team) -> list[tuple[str, list[tuple[str, str]]]]:
        groups: dict[str, list[tuple[str, str]]] = {}
        for p in team_personas(team=team):
            groups.setdefault(p.library.name, []).append((str(p.code), p.name))
        return list(groups.items())

    def libraries(self, *, team: Team) -> list[tuple[str, str]]:
        return [(str(code), name) for code, name in PersonaLibrary.objects.filter(
            team=team).order_by("name").values_list("code", "name")]

    def library_persona_codes(self, *, team: Team, library: uuid.UUID | str) -> list[str]:
        return [str(code) for code in LibraryPersona.objects.filter(
            library__team=team, library__code=library).values_list("code", flat=True)]

    def resolve(self, *, team: Team, codes: Sequence[object]) -> list[Persona]:
        try:
            return library_personas_for_debate(team, codes)
        except UnknownPersonas as exc:
            raise PersonaSourceError(str(exc)) from None
