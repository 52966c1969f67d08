"""Access helpers for libraries and personas: the object and the caller's role."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.access import Need, not_found, parse_code, require_role
from personas.models import LibraryPersona, PersonaLibrary


def library_access(
    request: HttpRequest, code: object, *, need: str = Need.READ
) -> tuple[PersonaLibrary, str]:
    library = PersonaLibrary.objects.select_related("team").filter(code=parse_code(code)).first()
    if library is None:
        raise not_found("library")
    return library, require_role(team=library.team, user=request.user, noun="library",
                                 need=need)


def persona_access(
    request: HttpRequest, code: object, *, need: str = Need.READ
) -> tuple[LibraryPersona, str]:
    persona = (
        LibraryPersona.objects.select_related("library__team")
        .filter(code=parse_code(code)).first()
    )
    if persona is None:
        raise not_found("persona")
    return persona, require_role(team=persona.library.team, user=request.user, noun="persona",
                                 need=need)
