"""JSON API for persona libraries, mounted at /api/personas/."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest
from ninja import Router, Schema, Status
from ninja.errors import ValidationError
from pydantic import ConfigDict, Field

from accounts.access import Need, current_team_access
from accounts.api_auth import api_auth
from accounts.models import Team
from api_kit.errors import errors, refuse, refuse_input
from debates.engine import MAX_PERSONA_FILE_CHARS, Persona, PersonaFileError
from personas import selectors, services
from personas.access import library_access, persona_access
from personas.models import LibraryPersona, PersonaLibrary
from personas.records import CalibrationRecord, calibration_records
from view_kit.http import AuthenticatedHttpRequest

router = Router(tags=["personas"], auth=api_auth)


class UsageOut(Schema):
    debates: int
    dissents: int
    judged: int


class PersonaRecordOut(Schema):
    scored_decisions: int = Field(description="Reviewed decisions that scored its verdict.")
    brier: float = Field(description="Mean Brier score over them: 0 is perfect; lower is "
                                     "better.")
    hits: int = Field(description="Scored decisions where its final verdict proved right.")
    too_few: bool = Field(description="Too few scored decisions (under 5) to judge by.")


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
    calibration: PersonaRecordOut | None = Field(
        description="Its record over the team's reviewed decisions (see GET "
                    "/api/calibration); null until a review scored it.")


class FieldChangeOut(Schema):
    field: str
    old: Any
    new: Any


class PersonaVersionOut(Schema):
    number: int
    data: dict[str, Any]
    changed_by: str | None
    changed_at: datetime
    note: str
    changes: list[FieldChangeOut]


class PersonaDetailOut(PersonaOut):
    versions: list[PersonaVersionOut]


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
    text: str = Field(max_length=MAX_PERSONA_FILE_CHARS)


class ImportOut(Schema):
    imported: list[PersonaOut]


class PersonaFileOut(Schema):
    personas: list[Persona]


def _persona_out(persona: LibraryPersona, usage: selectors.PersonaUsage,
                 record: CalibrationRecord | None = None) -> dict[str, Any]:
    return {
        **services.persona_data(persona.as_persona()),
        "model": persona.model or None, "temperature": persona.temperature,
        "code": persona.code, "library": persona.library.code, "archived": persona.archived,
        "forked_from": persona.forked_from.code if persona.forked_from else None,
        "usage": usage, "calibration": record,
    }


def _personas_out(team: Team, personas: list[LibraryPersona]) -> list[dict[str, Any]]:
    usage = selectors.persona_usage(team=team, personas=personas)
    records = calibration_records(team=team)
    return [_persona_out(p, usage[p.code], records.get(str(p.code))) for p in personas]


def _library_out(library: PersonaLibrary, count: int) -> dict[str, Any]:
    return {
        "code": library.code, "name": library.name, "description": library.description,
        "archived": library.archived, "persona_count": count,
        "forked_from": library.forked_from.code if library.forked_from else None,
    }


def _current(request: HttpRequest, need: str) -> Team:
    team, _ = current_team_access(request, need=need)
    return team


def _input(data: Persona) -> Persona:
    return Persona.model_validate(data.model_dump(exclude={"note"}))


@router.get("/libraries", response=list[LibraryOut], url_name="personas_libraries")
def list_libraries(request: HttpRequest) -> list[dict[str, Any]]:
    """The current team's libraries (switch teams with POST /teams/switch)."""
    team = _current(request, Need.READ)
    libraries = selectors.libraries_for_team(team=team).select_related("forked_from")
    return [_library_out(lib, lib.persona_count) for lib in libraries]


@router.post("/libraries", response={201: LibraryOut, **errors(400)},
             url_name="personas_library_create")
def create_library(request: AuthenticatedHttpRequest, payload: LibraryIn) -> Status[Any]:
    team = _current(request, Need.WRITE)
    try:
        library = services.library_create(team=team, user=request.user, name=payload.name,
                                          description=payload.description)
    except services.PersonaError as exc:
        return refuse_input(exc)
    return Status(201, _library_out(library, 0))


@router.get("/libraries/{uuid:code}", response=LibraryDetailOut, url_name="personas_library")
def get_library(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    library, _ = library_access(request, code)
    personas = list(selectors.library_personas(library=library))
    return {**_library_out(library, len(personas)),
            "personas": _personas_out(library.team, personas)}


@router.post("/libraries/{uuid:code}/personas", response={201: PersonaOut, **errors(400)},
             url_name="personas_persona_create")
def create_persona(request: AuthenticatedHttpRequest, code: uuid.UUID, payload: PersonaIn
                   ) -> Status[Any]:
    library, _ = library_access(request, code, need=Need.WRITE)
    try:
        persona = services.persona_create(library=library, user=request.user,
                                          data=_input(payload), note=payload.note)
    except services.PersonaError as exc:
        return refuse_input(exc)
    return Status(201, _persona_out(persona, selectors.PersonaUsage()))


@router.post("/libraries/{uuid:code}/import", response={201: ImportOut, **errors(400)},
             url_name="personas_import")
def import_personas(request: AuthenticatedHttpRequest, code: uuid.UUID, payload: ImportIn
                    ) -> Status[Any]:
    """All personas of the file or none; errors name the file, persona index and field."""
    library, _ = library_access(request, code, need=Need.WRITE)
    try:
        created = services.personas_import(library=library, user=request.user,
                                           text=payload.text, filename=payload.filename)
    except services.LibraryFull as exc:  # the library's limit: no field is at fault
        return refuse(400, str(exc))
    except PersonaFileError as exc:  # the file's content: its persona, index and field
        return refuse(400, str(exc), {"text": [str(exc)]})
    return Status(201, {"imported": _personas_out(library.team, created)})


@router.get("/libraries/{uuid:code}/export", response=PersonaFileOut,
            url_name="personas_export")
def export_personas(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    """The library as a persona file (``{"personas": [...]}``), archived personas left out."""
    library, _ = library_access(request, code)
    return {"personas": [p.as_persona() for p in library.personas.filter(archived=False)]}


def _versions_out(persona: LibraryPersona) -> list[dict[str, Any]]:
    return [
        {"number": item.version.number, "data": item.version.data,
         "changed_by": item.version.changed_by.get_username() if item.version.changed_by else None,
         "changed_at": item.version.changed_at, "note": item.version.note,
         "changes": [vars(c) for c in item.changes]}
        for item in selectors.persona_history(persona=persona)
    ]


def _persona_now(persona: LibraryPersona) -> dict[str, Any]:
    return _personas_out(persona.library.team, [persona])[0]


@router.get("/{uuid:code}", response=PersonaDetailOut, url_name="personas_persona")
def get_persona(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    persona, _ = persona_access(request, code)
    return {**_persona_now(persona), "versions": _versions_out(persona)}


@router.put("/{uuid:code}", response={200: PersonaOut, **errors(400)},
            url_name="personas_persona_update")
def update_persona(request: AuthenticatedHttpRequest, code: uuid.UUID, payload: PersonaIn
                   ) -> Status[Any]:
    """Replaces the persona's fields; a change stores a new version."""
    persona, _ = persona_access(request, code, need=Need.WRITE)
    try:
        services.persona_update(persona=persona, user=request.user, data=_input(payload),
                                note=payload.note)
    except services.PersonaError as exc:
        return refuse_input(exc)
    return Status(200, _persona_now(persona))


@router.post("/{uuid:code}/archive", response=PersonaOut, url_name="personas_persona_archive")
def archive_persona(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    """Takes the persona out of new debates and exports; its history and usage stay
    (personas are archived, never deleted: past debates point at them)."""
    persona, _ = persona_access(request, code, need=Need.WRITE)
    services.persona_set_archived(persona=persona, archived=True)
    return _persona_now(persona)


@router.post("/{uuid:code}/unarchive", response=PersonaOut,
             url_name="personas_persona_unarchive")
def unarchive_persona(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    persona, _ = persona_access(request, code, need=Need.WRITE)
    services.persona_set_archived(persona=persona, archived=False)
    return _persona_now(persona)


class PersonaForkIn(Schema):
    model_config = ConfigDict(extra="forbid")
    library: uuid.UUID | None = Field(
        default=None, description="A library of the same team; default the persona's own.")


@router.post("/{uuid:code}/fork", response={201: PersonaOut, **errors(400)},
             url_name="personas_persona_fork")
def fork_persona(request: AuthenticatedHttpRequest, code: uuid.UUID,
                 payload: PersonaForkIn | None = None) -> Status[Any]:
    """A copy (with its own history) in this or another library of the team; a name
    taken there gets "(fork)" appended. The body is optional."""
    persona, _ = persona_access(request, code, need=Need.WRITE)
    payload = payload or PersonaForkIn()
    target = persona.library
    if payload.library is not None:
        found = PersonaLibrary.objects.filter(code=payload.library,
                                              team=persona.library.team).first()
        if found is None:
            raise ValidationError([{"loc": ("body", "payload", "library"),
                                    "msg": "No such library in this team."}])
        target = found
    try:
        fork = services.persona_fork(persona=persona, user=request.user, target=target)
    except services.PersonaError as exc:
        return refuse_input(exc)
    return Status(201, _persona_out(fork, selectors.PersonaUsage()))


@router.get("/{uuid:code}/versions", response=list[PersonaVersionOut],
            url_name="personas_persona_versions")
def list_versions(request: HttpRequest, code: uuid.UUID) -> list[dict[str, Any]]:
    """Every version, newest first, each with the fields it changed from the one before."""
    persona, _ = persona_access(request, code)
    return _versions_out(persona)


def _version(persona: LibraryPersona, number: int) -> dict[str, Any]:
    for version in _versions_out(persona):
        if version["number"] == number:
            return version
    raise Http404(f"{persona.name} has no version {number}.")


@router.get("/{uuid:code}/versions/{int:number}", response=PersonaVersionOut,
            url_name="personas_persona_version")
def get_version(request: HttpRequest, code: uuid.UUID, number: int) -> dict[str, Any]:
    persona, _ = persona_access(request, code)
    return _version(persona, number)


@router.post("/{uuid:code}/versions/{int:number}/restore",
             response={200: PersonaOut, **errors(409)}, url_name="personas_persona_restore")
def restore_version(request: AuthenticatedHttpRequest, code: uuid.UUID, number: int) -> Status[Any]:
    """Makes version ``number`` current again, stored as a new version (history only
    grows); 409 when it already is the current content."""
    persona, _ = persona_access(request, code, need=Need.WRITE)
    _version(persona, number)
    try:
        services.persona_restore(persona=persona, user=request.user, number=number)
    except services.PersonaError as exc:
        return refuse(409, str(exc))
    return Status(200, _persona_now(persona))


# --------------------------------------------------------------------------- libraries


class LibraryUpdateIn(Schema):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=10_000)


@router.patch("/libraries/{uuid:code}", response={200: LibraryOut, **errors(400)},
              url_name="personas_library_update")
def update_library(request: HttpRequest, code: uuid.UUID,
                   payload: LibraryUpdateIn) -> Status[Any]:
    """Renames the library or changes its description (fields left out stay)."""
    library, _ = library_access(request, code, need=Need.WRITE)
    try:
        services.library_update(
            library=library,
            name=library.name if payload.name is None else payload.name,
            description=library.description if payload.description is None
            else payload.description)
    except services.PersonaError as exc:
        return refuse_input(exc)
    return Status(200, _library_out(library, library.personas.count()))


def _set_library_archived(request: HttpRequest, code: uuid.UUID,
                          archived: bool) -> dict[str, Any]:
    library, _ = library_access(request, code, need=Need.WRITE)
    services.library_set_archived(library=library, archived=archived)
    return _library_out(library, library.personas.count())


@router.post("/libraries/{uuid:code}/archive", response=LibraryOut,
             url_name="personas_library_archive")
def archive_library(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    """Hides the library's personas from new debates; nothing is deleted."""
    return _set_library_archived(request, code, True)


@router.post("/libraries/{uuid:code}/unarchive", response=LibraryOut,
             url_name="personas_library_unarchive")
def unarchive_library(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    return _set_library_archived(request, code, False)


class LibraryForkIn(Schema):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=200,
                             description='Default: "<name> (fork)".')


@router.post("/libraries/{uuid:code}/fork", response={201: LibraryOut, **errors(400)},
             url_name="personas_library_fork")
def fork_library(request: AuthenticatedHttpRequest, code: uuid.UUID,
                 payload: LibraryForkIn | None = None) -> Status[Any]:
    """A copy of the library and its current personas in the same team. The body is
    optional."""
    library, _ = library_access(request, code, need=Need.WRITE)
    payload = payload or LibraryForkIn()
    try:
        fork = services.library_fork(library=library, user=request.user, name=payload.name)
    except services.PersonaError as exc:
        return refuse_input(exc)
    return Status(201, _library_out(fork, fork.personas.count()))
