"""JSON API for persona libraries, mounted at /api/personas/."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest
from ninja import Router, Schema, Status
from pydantic import ConfigDict, Field

from council_site.accounts.access import Need, require_role
from council_site.accounts.models import Team
from council_site.accounts.selectors import current_team
from council_site.api_auth import api_auth
from debates.engine.persona_files import PersonaFileError
from debates.engine.schemas import Persona
from personas import selectors, services
from personas.access import library_access, persona_access
from personas.models import LibraryPersona, PersonaLibrary

router = Router(tags=["personas"], auth=api_auth)


class ErrorOut(Schema):
    detail: str


class UsageOut(Schema):
    debates: int
    dissents: int
    judged: int


class PersonaOut(Schema):
    code: uuid.UUID
    library: uuid.UUID
    name: str
    background: str
    expertise: str
    approach: str
    bias: str
    model: str | None
    temperature: float | None
    archived: bool
    forked_from: uuid.UUID | None
    usage: UsageOut


class FieldChangeOut(Schema):
    field: str
    old: Any
    new: Any


class VersionOut(Schema):
    number: int
    data: dict[str, Any]
    changed_by: str | None
    changed_at: datetime
    note: str
    changes: list[FieldChangeOut]


class PersonaDetailOut(PersonaOut):
    versions: list[VersionOut]


class LibraryOut(Schema):
    code: uuid.UUID
    name: str
    description: str
    archived: bool
    forked_from: uuid.UUID | None
    persona_count: int


class LibraryDetailOut(LibraryOut):
    personas: list[PersonaOut]


class LibraryIn(Schema):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200)
    description: str = ""


class PersonaIn(Persona):
    """The persona file's fields, plus an optional note for the version history."""

    note: str = Field(default="", max_length=300)


class ImportIn(Schema):
    model_config = ConfigDict(extra="forbid")
    filename: str = Field(min_length=1, max_length=200,
                          description="Decides the parser: .json is JSON, anything else YAML.")
    text: str = Field(max_length=1_000_000)


class ImportOut(Schema):
    imported: list[PersonaOut]


class PersonaFileOut(Schema):
    personas: list[Persona]


def _persona_out(persona: LibraryPersona, usage: selectors.PersonaUsage) -> dict[str, Any]:
    return {
        **services.persona_data(persona.as_persona()),
        "model": persona.model or None, "temperature": persona.temperature,
        "code": persona.code, "library": persona.library.code, "archived": persona.archived,
        "forked_from": persona.forked_from.code if persona.forked_from else None,
        "usage": usage,
    }


def _personas_out(team: Team, personas: list[LibraryPersona]) -> list[dict[str, Any]]:
    usage = selectors.persona_usage(team=team, personas=personas)
    return [_persona_out(p, usage[p.code]) for p in personas]


def _library_out(library: PersonaLibrary, count: int) -> dict[str, Any]:
    return {
        "code": library.code, "name": library.name, "description": library.description,
        "archived": library.archived, "persona_count": count,
        "forked_from": library.forked_from.code if library.forked_from else None,
    }


def _current(request: HttpRequest, need: str) -> Team:
    team = current_team(request)
    if team is None:
        raise Http404("You are not a member of any team.")
    require_role(team=team, user=request.user, need=need)
    return team


def _input(data: Persona) -> Persona:
    return Persona.model_validate(data.model_dump(exclude={"note"}))


@router.get("/libraries", response=list[LibraryOut], url_name="personas_libraries")
def list_libraries(request: HttpRequest) -> list[dict[str, Any]]:
    """The current team's libraries (switch teams with POST /teams/switch)."""
    team = _current(request, Need.READ)
    libraries = selectors.libraries_for_team(team=team).select_related("forked_from")
    return [_library_out(lib, lib.persona_count) for lib in libraries]


@router.post("/libraries", response={201: LibraryOut, 400: ErrorOut},
             url_name="personas_library_create")
def create_library(request: HttpRequest, payload: LibraryIn) -> Status[Any]:
    team = _current(request, Need.WRITE)
    try:
        library = services.library_create(team=team, user=request.user, name=payload.name,
                                          description=payload.description)
    except services.PersonaError as exc:
        return Status(400, {"detail": str(exc)})
    return Status(201, _library_out(library, 0))


@router.get("/libraries/{uuid:code}", response=LibraryDetailOut, url_name="personas_library")
def get_library(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    library, _ = library_access(request, code)
    personas = list(selectors.library_personas(library=library))
    return {**_library_out(library, len(personas)),
            "personas": _personas_out(library.team, personas)}


@router.post("/libraries/{uuid:code}/personas", response={201: PersonaOut, 400: ErrorOut},
             url_name="personas_persona_create")
def create_persona(request: HttpRequest, code: uuid.UUID, payload: PersonaIn) -> Status[Any]:
    library, _ = library_access(request, code, need=Need.WRITE)
    try:
        persona = services.persona_create(library=library, user=request.user,
                                          data=_input(payload), note=payload.note)
    except services.PersonaError as exc:
        return Status(400, {"detail": str(exc)})
    return Status(201, _persona_out(persona, selectors.PersonaUsage()))


@router.post("/libraries/{uuid:code}/import", response={201: ImportOut, 400: ErrorOut},
             url_name="personas_import")
def import_personas(request: HttpRequest, code: uuid.UUID, payload: ImportIn) -> Status[Any]:
    """All personas of the file or none; errors name the file, persona index and field."""
    library, _ = library_access(request, code, need=Need.WRITE)
    try:
        created = services.personas_import(library=library, user=request.user,
                                           text=payload.text, filename=payload.filename)
    except PersonaFileError as exc:
        return Status(400, {"detail": str(exc)})
    return Status(201, {"imported": _personas_out(library.team, created)})


@router.get("/libraries/{uuid:code}/export", response=PersonaFileOut,
            url_name="personas_export")
def export_personas(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    """The library as a persona file (``{"personas": [...]}``), archived personas left out."""
    library, _ = library_access(request, code)
    return {"personas": [p.as_persona() for p in library.personas.filter(archived=False)]}


@router.get("/{uuid:code}", response=PersonaDetailOut, url_name="personas_persona")
def get_persona(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    persona, _ = persona_access(request, code)
    usage = selectors.persona_usage(team=persona.library.team, personas=[persona])
    versions = [
        {"number": item.version.number, "data": item.version.data,
         "changed_by": item.version.changed_by.get_username() if item.version.changed_by else None,
         "changed_at": item.version.changed_at, "note": item.version.note,
         "changes": [vars(c) for c in item.changes]}
        for item in selectors.persona_history(persona=persona)
    ]
    return {**_persona_out(persona, usage[persona.code]), "versions": versions}


@router.put("/{uuid:code}", response={200: PersonaOut, 400: ErrorOut},
            url_name="personas_persona_update")
def update_persona(request: HttpRequest, code: uuid.UUID, payload: PersonaIn) -> Status[Any]:
    """Replaces the persona's fields; a change stores a new version."""
    persona, _ = persona_access(request, code, need=Need.WRITE)
    try:
        services.persona_update(persona=persona, user=request.user, data=_input(payload),
                                note=payload.note)
    except services.PersonaError as exc:
        return Status(400, {"detail": str(exc)})
    usage = selectors.persona_usage(team=persona.library.team, personas=[persona])
    return Status(200, _persona_out(persona, usage[persona.code]))


