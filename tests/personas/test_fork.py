"""Forking a persona (same or another library of the team) or a whole library."""

from __future__ import annotations

import pytest

from debates.engine.schemas import PERSONA_NAME_MAX, Persona
from personas.models import LibraryPersona
from personas.services import (
    PersonaError,
    library_create,
    library_fork,
    persona_create,
    persona_fork,
    persona_set_archived,
)


def _persona(library, user, name="Dana"):
    return persona_create(library=library, user=user, data=Persona(
        name=name, background="b", expertise="e", approach="a", bias="x"))


@pytest.fixture
def library(team, owner):
    return library_create(team=team, user=owner, name="Main")


def test_fork_into_the_same_library_gets_a_free_name(library, owner):
    original = _persona(library, owner)
    first = persona_fork(persona=original, user=owner, target=library)
    second = persona_fork(persona=original, user=owner, target=library)
    assert (first.name, second.name) == ("Dana (fork)", "Dana (fork 2)")
    assert first.forked_from == original
    assert first.versions.get().note == "Forked from Main / Dana"


def test_fork_into_another_library_keeps_the_name(library, team, owner):
    original = _persona(library, owner)
    other = library_create(team=team, user=owner, name="Other")
    fork = persona_fork(persona=original, user=owner, target=other)
    assert fork.library == other and fork.name == "Dana"


def test_fork_into_another_teams_library_is_refused(library, owner, other_team, outsider):
    original = _persona(library, owner)
    foreign = library_create(team=other_team, user=outsider, name="Theirs")
    with pytest.raises(PersonaError):
        persona_fork(persona=original, user=owner, target=foreign)


def test_fork_a_whole_library_copies_its_current_personas(library, owner):
    _persona(library, owner, "Dana")
    old = _persona(library, owner, "Kenji")
    persona_set_archived(persona=old, archived=True)
    fork = library_fork(library=library, user=owner)
    assert fork.name == "Main (fork)" and fork.forked_from == library
    assert list(fork.personas.values_list("name", flat=True)) == ["Dana"]
    assert fork.team == library.team


def test_fork_view_into_a_library_of_another_team_is_not_found(member_client, library, member,
                                                               other_team, outsider):
    original = _persona(library, member)
    foreign = library_create(team=other_team, user=outsider, name="Theirs")
    response = member_client.post(f"/personas/{original.code}/fork", {"target": foreign.code})
    assert response.status_code == 404
    assert LibraryPersona.objects.count() == 1


def test_fork_views(member_client, library, member):
    original = _persona(library, member)
    assert member_client.post(f"/personas/{original.code}/fork").status_code == 302
    assert member_client.post(f"/personas/libraries/{library.code}/fork").status_code == 302
    assert LibraryPersona.objects.count() == 4  # the fork, then both copied into a new library


def test_a_fork_of_a_library_with_the_longest_name_fits_the_column(team, owner):
    """A 200-character name plus " (fork)" was stored whole on SQLite (207 characters)
    and refused by PostgreSQL ("value too long", a 500)."""
    longest = library_create(team=team, user=owner, name="L" * 200)
    first, second = (library_fork(library=longest, user=owner) for _ in range(2))
    assert first.name == "L" * 193 + " (fork)"
    assert second.name == "L" * 191 + " (fork 2)"


def test_a_fork_of_a_persona_with_the_longest_name_fits_the_column(library, owner):
    original = _persona(library, owner, name="P" * PERSONA_NAME_MAX)
    first, second = (persona_fork(persona=original, user=owner, target=library)
                     for _ in range(2))
    assert first.name == "P" * (PERSONA_NAME_MAX - 7) + " (fork)"
    assert second.name == "P" * (PERSONA_NAME_MAX - 9) + " (fork 2)"
    assert first.versions.get().data["name"] == first.name


def test_a_fork_named_longer_than_the_column_is_refused(library, owner):
    with pytest.raises(PersonaError, match="at most 200 characters"):
        library_fork(library=library, user=owner, name="N" * 201)


def test_the_fork_view_says_why_a_long_name_is_refused(member_client, library):
    from django.contrib.messages import get_messages

    response = member_client.post(f"/personas/libraries/{library.code}/fork",
                                  {"name": "N" * 201})
    assert "at most 200 characters" in " ".join(
        str(m) for m in get_messages(response.wsgi_request))
    assert library.team.persona_libraries.count() == 1
