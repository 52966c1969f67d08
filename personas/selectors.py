"""Reads on persona libraries, always scoped to one team."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Count, QuerySet
from pydantic import BaseModel, StrictBool, ValidationError

from accounts.models import Team
from debates.engine import Persona
from debates.models import Agent, Synthesis
from personas.models import PERSONA_FIELDS, LibraryPersona, PersonaLibrary, PersonaVersion

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class PersonaCount(TypedDict):
    persona_count: int


class UnknownPersonas(LookupError):
    """Some requested persona codes are not (usable) personas of the team."""

    def __init__(self, codes: list[str]) -> None:
        super().__init__(f"Unknown or archived personas: {', '.join(codes)}")
        self.codes = codes


def libraries_for_team(
    *, team: Team, include_archived: bool = True
) -> QuerySet[WithAnnotations[PersonaLibrary, PersonaCount]]:
    libraries = PersonaLibrary.objects.filter(team=team).annotate(persona_count=Count("personas"))
    return libraries if include_archived else libraries.filter(archived=False)


def library_personas(
    *, library: PersonaLibrary, include_archived: bool = True
) -> QuerySet[LibraryPersona]:
    personas = library.personas.select_related("forked_from__library")
    return personas if include_archived else personas.filter(archived=False)


def team_personas(*, team: Team) -> QuerySet[LibraryPersona]:
    """Usable personas of every active library: what a debate form offers."""
    return LibraryPersona.objects.filter(
        library__team=team, library__archived=False, archived=False
    ).select_related("library").order_by("library__name", "name")


def library_personas_for_debate(team: Team, codes: Sequence[object]) -> list[Persona]:
    """The engine personas for ``codes`` (in that order), for a debate's
    ``given_personas``. Raises ``UnknownPersonas`` for codes that are not usable
    personas of ``team`` (another team's, archived, or made up)."""
    wanted = [str(c) for c in codes]
    found = {
        str(p.code): p
        for p in team_personas(team=team).filter(code__in=[_uuid(c) for c in wanted if _uuid(c)])
    }
    missing = [c for c in wanted if c not in found]
    if missing:
        raise UnknownPersonas(missing)
    return [found[c].as_persona() for c in wanted]


def _uuid(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


def persona_versions(*, persona: LibraryPersona) -> QuerySet[PersonaVersion]:
    return persona.versions.select_related("changed_by")


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: object
    new: object


def version_diff(old: dict[str, object] | None, new: dict[str, object]) -> list[FieldChange]:
    """Field-level changes from ``old`` to ``new`` (every set field when ``old`` is None)."""
    old = old or {}
    return [
        FieldChange(field, old.get(field), new.get(field))
        for field in PERSONA_FIELDS
        if old.get(field) != new.get(field)
    ]


@dataclass(frozen=True)
class VersionWithDiff:
    version: PersonaVersion
    changes: list[FieldChange]


def persona_history(*, persona: LibraryPersona) -> list[VersionWithDiff]:
    """Newest first, each version with what it changed relative to the one before."""
    versions = list(persona_versions(persona=persona).order_by("number"))
    history, previous = [], None
    for version in versions:
        history.append(VersionWithDiff(version, version_diff(previous, version.data)))
        previous = version.data
    return list(reversed(history))


@dataclass(frozen=True)
class PersonaUsage:
    debates: int = 0
    # Debates whose synthesis placed this persona's agent outside the final majority.
    dissents: int = 0
    # Debates with a final majority verdict for the agent (the base of the dissent rate).
    judged: int = 0

    @property
    def dissent_rate(self) -> float | None:
        return self.dissents / self.judged if self.judged else None


def persona_usage(
    *, team: Team, personas: Iterable[LibraryPersona]
) -> dict[uuid.UUID, PersonaUsage]:
    """How many of the team's debates used each persona, and how often it dissented."""
    codes = [p.code for p in personas]
    agents = list(
        Agent.objects.filter(source_persona_id__in=codes, debate__team=team)
        .values_list("source_persona_id", "debate_id", "index")
    )
    results = dict(
        Synthesis.objects.filter(debate_id__in={d for _, d, _ in agents})
        .values_list("debate_id", "result")
    )
    # Keyed like Agent.source_persona_id, which is nullable (the filter leaves no None).
    debates: dict[uuid.UUID | None, set[int]] = defaultdict(set)
    dissents: dict[uuid.UUID | None, set[int]] = defaultdict(set)
    judged: dict[uuid.UUID | None, set[int]] = defaultdict(set)
    for code, debate_id, index in agents:
        debates[code].add(debate_id)
        verdict = _in_final_majority(results.get(debate_id), index)
        if verdict is not None:
            judged[code].add(debate_id)
            if verdict is False:
                dissents[code].add(debate_id)
    return {
        code: PersonaUsage(len(debates[code]), len(dissents[code]), len(judged[code]))
        for code in codes
    }


class _AgentVerdict(BaseModel):
    """The part of a stored result's agent (``AgentResult``) that usage reads."""

    index: int | None = None
    in_final_majority: StrictBool | None = None


class _ResultAgents(BaseModel):
    """The agents of a stored result, of any protocol that lists them; the rest of the
    result is ignored, so usage over many debates does not parse whole results."""

    agents: list[_AgentVerdict] | None = None


def _in_final_majority(result: object, index: int) -> bool | None:
    try:
        agents = _ResultAgents.model_validate(result).agents or []
    except ValidationError:
        return None
    for i, agent in enumerate(agents):
        if (i if agent.index is None else agent.index) == index:
            return agent.in_final_majority
    return None
