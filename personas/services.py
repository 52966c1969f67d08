"""Writes on persona libraries. Every create, edit and restore stores a version."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import Literal

import yaml
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from accounts.models import Team
from audit.services import record
from debates.engine import (
    PERSONA_NAME_MAX,
    Persona,
    PersonaFileError,
    check_model,
    load_persona_text,
)
from debates.models import Agent, Debate
from personas.models import LibraryPersona, PersonaLibrary, PersonaVersion
from view_kit.file_names import shown_file_name
from view_kit.site_words import Words

ExportFormat = Literal["yaml", "json"]

# One import stores a version per persona in one transaction: 5,000 personas took 21 s
# and held the library's rows that long. 500 fit well under a second's work per hundred;
# a library holds at most 2,000 (archived ones count: they keep their rows and history),
# which keeps the picker and the export a page, not a dump (docs/teams.md, "Limits").
MAX_IMPORT_PERSONAS = 500
MAX_LIBRARY_PERSONAS = 2_000


class PersonaError(ValueError):
    """A refused persona or library change; the message is meant for the user. ``field``
    names the persona's or library's field at fault when there is one (the API's
    ``errors`` key): a form shows ``detail`` next to it, and
    the message (the API's and the CLI's) starts "field '<name>': "."""

    def __init__(self, detail: str, *, field: str | None = None,
                 words: Words | None = None) -> None:
        self.detail, self.field = detail, field
        self.words = words  # the pages' words for it (view_kit.site_words.said)
        super().__init__(f"field '{field}': {detail}" if field else detail)


class LibraryFull(PersonaFileError):
    """A valid file whose personas do not fit the library: the library's limit, not a
    fault of the file (the API names no field for it)."""


def persona_data(persona: Persona) -> dict[str, object]:
    return persona.model_dump(mode="json", exclude_none=True)


def _fields(persona: Persona) -> dict[str, object]:
    return {
        "name": persona.name, "background": persona.background,
        "expertise": persona.expertise, "approach": persona.approach, "bias": persona.bias,
        "model": persona.model or "", "temperature": persona.temperature,
    }


def _check(persona: Persona) -> None:
    if persona.model:
        try:
            check_model(persona.model)
        except ValueError as exc:
            raise PersonaError(str(exc), field="model") from None


def _name_taken(library: PersonaLibrary, name: str, *, exclude: int | None = None) -> bool:
    named = library.personas.filter(name__iexact=name)
    return (named.exclude(pk=exclude) if exclude is not None else named).exists()


LIBRARY_NAME_MAX = PersonaLibrary._meta.get_field("name").max_length or 200


def _fork_names(name: str, limit: int) -> Iterator[str]:
    """``name (fork)``, ``name (fork 2)`` ..., each within ``limit`` characters: the
    name is cut to leave room for its suffix (the column would refuse, or on SQLite
    keep, a longer one)."""
    for n in itertools.count(1):
        suffix = " (fork)" if n == 1 else f" (fork {n})"
        yield name[:limit - len(suffix)].rstrip() + suffix


def _free_name(library: PersonaLibrary, name: str) -> str:
    """``name``, or ``name (fork)``, ``name (fork 2)`` ... whichever is free in the library."""
    if not _name_taken(library, name):
        return name
    return next(c for c in _fork_names(name, PERSONA_NAME_MAX) if not _name_taken(library, c))


def _no_room(library: PersonaLibrary, adding: int) -> str | None:
    """Why ``adding`` more personas would not fit in the library, or None."""
    held = library.personas.count()
    if held + adding <= MAX_LIBRARY_PERSONAS:
        return None
    return (f"{library.name} holds {held:,} personas (archived ones included) and a "
            f"library holds at most {MAX_LIBRARY_PERSONAS:,}; {adding:,} more do not fit")


def _make_room(library: PersonaLibrary, adding: int = 1) -> None:
    if problem := _no_room(library, adding):
        raise PersonaError(problem)


def _version(persona: LibraryPersona, user: User | None, note: str) -> PersonaVersion:
    last = persona.versions.order_by("-number").values_list("number", flat=True).first() or 0
    return PersonaVersion.objects.create(
        persona=persona, number=last + 1, data=persona_data(persona.as_persona()),
        changed_by=user, note=note[:300],
    )


# --------------------------------------------------------------------------- libraries


def _library_name(team: Team, name: str, *, exclude: int | None = None) -> str:
    """The stripped name, refused when empty or when another library of the team has it
    (case-insensitively; the database constraint catches a concurrent twin)."""
    name = name.strip()
    if not name:
        raise PersonaError("A library needs a name.", field="name",
                           words=("site.personas.msg.needs_name", {}))
    if len(name) > LIBRARY_NAME_MAX:
        raise PersonaError(f"A library name has at most {LIBRARY_NAME_MAX} characters "
                           f"(this one has {len(name)}).", field="name",
                           words=("site.personas.refused.name_long",
                                  {"max": LIBRARY_NAME_MAX, "length": len(name)}))
    named = PersonaLibrary.objects.filter(team=team, name__iexact=name)
    if (named.exclude(pk=exclude) if exclude is not None else named).exists():
        raise PersonaError(f"Your team already has a library called '{name}'.", field="name",
                           words=("site.personas.refused.library_taken", {"name": name}))
    return name


def _free_library_name(team: Team, name: str) -> str:
    """``name (fork)``, ``name (fork 2)`` ... whichever is free in the team."""
    libraries = PersonaLibrary.objects.filter(team=team)
    return next(c for c in _fork_names(name, LIBRARY_NAME_MAX)
                if not libraries.filter(name__iexact=c).exists())


def library_create(
    *, team: Team, user: User | None, name: str, description: str = ""
) -> PersonaLibrary:
    name = _library_name(team, name)
    try:
        with transaction.atomic():
            library = PersonaLibrary.objects.create(
                team=team, name=name, description=description.strip(), created_by=user
            )
            record("library.create", library, user=user, data={"name": name})
            return library
    except IntegrityError:
        raise PersonaError(f"Your team already has a library called '{name}'.", field="name",
                           words=("site.personas.refused.library_taken", {"name": name})
                           ) from None


@transaction.atomic
def library_update(*, library: PersonaLibrary, name: str, description: str) -> PersonaLibrary:
    name = _library_name(library.team, name, exclude=library.pk)
    library.name, library.description = name, description.strip()
    library.save(update_fields=["name", "description", "updated_at"])
    record("library.edit", library, data={"name": name})
    return library


@transaction.atomic
def library_set_archived(*, library: PersonaLibrary, archived: bool) -> PersonaLibrary:
    library.archived = archived
    library.save(update_fields=["archived", "updated_at"])
    record("library.archive" if archived else "library.unarchive", library)
    return library


@transaction.atomic
def library_fork(
    *, library: PersonaLibrary, user: User | None, name: str | None = None
) -> PersonaLibrary:
    """A copy of the library and its current (not archived) personas, in the same team."""
    fork = PersonaLibrary.objects.create(
        team=library.team,
        name=_library_name(library.team, name) if name and name.strip()
        else _free_library_name(library.team, library.name),
        description=library.description, forked_from=library, created_by=user,
    )
    for persona in library.personas.filter(archived=False):
        _copy(persona, fork, user)
    record("library.fork", fork, user=user, data={"from": str(library.code)})
    return fork


# --------------------------------------------------------------------------- personas


@transaction.atomic
def persona_create(
    *, library: PersonaLibrary, user: User | None, data: Persona, note: str = ""
) -> LibraryPersona:
    _check(data)
    _make_room(library)
    if _name_taken(library, data.name):
        raise PersonaError(f"'{data.name}' already exists in {library.name}", field="name",
                           words=("site.personas.refused.persona_taken",
                                  {"name": data.name, "library": library.name}))
    persona = LibraryPersona.objects.create(library=library, **_fields(data))
    _version(persona, user, note or "Created")
    record("persona.create", persona, user=user, data={"name": data.name})
    return persona


@transaction.atomic
def persona_update(
    *, persona: LibraryPersona, user: User | None, data: Persona, note: str = "",
    audit_action: str = "persona.edit",
) -> LibraryPersona:
    """Saves new fields and a version; an unchanged persona stores nothing."""
    _check(data)
    if data == persona.as_persona():
        return persona
    if _name_taken(persona.library, data.name, exclude=persona.pk):
        raise PersonaError(f"'{data.name}' already exists in {persona.library.name}",
                           field="name", words=("site.personas.refused.persona_taken",
                                                {"name": data.name,
                                                 "library": persona.library.name}))
    for field, value in _fields(data).items():
        setattr(persona, field, value)
    persona.save()
    version = _version(persona, user, note or "Edited")
    record(audit_action, persona, user=user, data={"version": version.number})
    return persona


@transaction.atomic
def persona_restore(
    *, persona: LibraryPersona, user: User | None, number: int
) -> LibraryPersona:
    """Makes an old version current again, as a new version (history only grows)."""
    version = persona.versions.filter(number=number).first()
    if version is None:
        raise PersonaError(f"{persona.name} has no version {number}.", words=(
            "site.personas.refused.no_version", {"name": persona.name, "number": number}))
    data = Persona.model_validate(version.data)
    if data == persona.as_persona():
        raise PersonaError(f"Version {number} is the same as the current one.", words=(
            "site.personas.refused.same_version", {"number": number}))
    return persona_update(persona=persona, user=user, data=data,
                          note=f"Restored version {number}", audit_action="persona.restore")


@transaction.atomic
def persona_set_archived(*, persona: LibraryPersona, archived: bool) -> LibraryPersona:
    persona.archived = archived
    persona.save(update_fields=["archived", "updated_at"])
    record("persona.archive" if archived else "persona.unarchive", persona)
    return persona


def _copy(persona: LibraryPersona, target: PersonaLibrary,
          user: User | None) -> LibraryPersona:
    data = persona.as_persona().model_copy(update={"name": _free_name(target, persona.name)})
    copy = LibraryPersona.objects.create(library=target, forked_from=persona, **_fields(data))
    _version(copy, user, f"Forked from {persona.library.name} / {persona.name}")
    return copy


@transaction.atomic
def persona_fork(
    *, persona: LibraryPersona, user: User | None, target: PersonaLibrary
) -> LibraryPersona:
    """A copy in ``target`` (the same or another library of the same team); a name
    already taken there gets "(fork)" appended."""
    if target.team_id != persona.library.team_id:
        raise PersonaError("A persona can only be forked into a library of the same team.",
                           field="library")
    _make_room(target)
    copy = _copy(persona, target, user)
    record("persona.fork", copy, user=user, data={"from": str(persona.code)})
    return copy


# --------------------------------------------------------------------------- files


@transaction.atomic
def personas_import(
    *, library: PersonaLibrary, user: User | None, text: str, filename: str
) -> list[LibraryPersona]:
    """All personas of a file, or none: the first invalid persona (named by file,
    index and field) or any name already in the library refuses the whole file."""
    source = shown_file_name(PurePath(filename).name) or "personas.yaml"  # named in messages
    personas = load_persona_text(text, source, limit=MAX_IMPORT_PERSONAS)
    if problem := _no_room(library, len(personas)):
        raise LibraryFull(f"{source}: {problem}")
    taken = [
        f"persona {i} ({p.name}): field 'name': '{p.name}' already exists in {library.name}"
        for i, p in enumerate(personas) if _name_taken(library, p.name)
    ]
    if taken:
        raise PersonaFileError(f"{source}: " + "; ".join(taken))
    for i, p in enumerate(personas):
        try:
            _check(p)
        except PersonaError as exc:
            raise PersonaFileError(f"{source}: persona {i} ({p.name}): {exc}") from None
    created = []
    for p in personas:
        persona = LibraryPersona.objects.create(library=library, **_fields(p))
        _version(persona, user, f"Imported from {source}")
        created.append(persona)
    record("persona.import", library, user=user, kind="library",
           data={"file": source, "personas": len(created)})
    return created


def personas_export(*, library: PersonaLibrary, fmt: ExportFormat) -> tuple[str, str]:
    """(text, filename) in the persona file format: YAML as a top-level list, JSON as
    ``{"personas": [...]}``. Archived personas stay out."""
    items = [persona_data(p.as_persona()) for p in library.personas.filter(archived=False)]
    stem = slugify(library.name) or "personas"
    if fmt == "json":
        return json.dumps({"personas": items}, indent=2, ensure_ascii=False) + "\n", f"{stem}.json"
    if fmt == "yaml":
        return yaml.safe_dump(items, sort_keys=False, allow_unicode=True, width=100), f"{stem}.yaml"
    raise PersonaError(f"Unknown export format {fmt!r}; use yaml or json.")


# --------------------------------------------------------------------------- debates


def agents_link_sources(*, debate: Debate, persona_codes: Iterable[object]) -> int:
    """Records which library persona each agent came from, by position: the debate was
    created with ``given_personas`` in the order of ``persona_codes``. Returns the
    number of agents linked."""
    codes = [str(c) for c in persona_codes]
    known = {str(c) for c in LibraryPersona.objects.filter(
        library__team=debate.team, code__in=codes).values_list("code", flat=True)}
    if unknown := [c for c in codes if c not in known]:
        raise PersonaError(f"Not personas of {debate.team.name}: {', '.join(unknown)}")
    linked = 0
    for index, code in enumerate(codes):
        linked += Agent.objects.filter(debate=debate, index=index).update(source_persona_id=code)
    return linked
