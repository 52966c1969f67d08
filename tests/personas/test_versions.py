"""Version history: every create, edit and restore stores a version with a diff."""

from __future__ import annotations

import pytest

from debates.engine.schemas import Persona
from personas.selectors import persona_history, version_diff
from personas.services import (
    PersonaError,
    library_create,
    persona_create,
    persona_restore,
    persona_update,
)

BASE = dict(name="Dana", background="CFO", expertise="Pricing", approach="Downside first",
            bias="Cautious")


@pytest.fixture
def persona(team, owner):
    library = library_create(team=team, user=owner, name="L")
    return persona_create(library=library, user=owner, data=Persona(**BASE))


def test_create_stores_version_one_with_the_author(persona, owner):
    version = persona.versions.get()
    assert (version.number, version.changed_by, version.note) == (1, owner, "Created")
    assert version.data == BASE


def test_an_edit_stores_a_new_version_with_who_and_what(persona, member):
    persona_update(persona=persona, user=member, data=Persona(**{**BASE, "bias": "Bold"}),
                   note="after the offsite")
    history = persona_history(persona=persona)
    assert [h.version.number for h in history] == [2, 1]
    latest = history[0]
    assert latest.version.changed_by == member and latest.version.note == "after the offsite"
    assert [(c.field, c.old, c.new) for c in latest.changes] == [("bias", "Cautious", "Bold")]


def test_an_unchanged_save_stores_no_version(persona, owner):
    persona_update(persona=persona, user=owner, data=Persona(**BASE))
    assert persona.versions.count() == 1


def test_restore_brings_back_an_old_version_as_a_new_one(persona, owner, member):
    persona_update(persona=persona, user=member, data=Persona(**{**BASE, "bias": "Bold",
                                                                 "model": "sim/other"}))
    persona_restore(persona=persona, user=owner, number=1)
    persona.refresh_from_db()
    assert persona.bias == "Cautious" and persona.model == ""
    latest = persona_history(persona=persona)[0]
    assert latest.version.number == 3 and latest.version.note == "Restored version 1"
    assert {c.field for c in latest.changes} == {"bias", "model"}


def test_restoring_the_current_or_a_missing_version_is_refused(persona, owner):
    with pytest.raises(PersonaError, match="same as the current"):
        persona_restore(persona=persona, user=owner, number=1)
    with pytest.raises(PersonaError, match="no version 9"):
        persona_restore(persona=persona, user=owner, number=9)


def test_a_diff_against_nothing_lists_every_set_field():
    assert [c.field for c in version_diff(None, BASE)] == list(BASE)


def test_edit_view_saves_and_the_detail_page_shows_the_diff(member_client, persona):
    response = member_client.post(f"/personas/{persona.code}/edit", {
        **BASE, "expertise": "Pricing and cash", "note": "broader"})
    assert response.status_code == 302
    html = member_client.get(f"/personas/{persona.code}/").content.decode()
    assert "Version 2" in html and "broader" in html and "Pricing and cash" in html
    assert "Restore this version" in html


def test_restore_view(member_client, persona, owner):
    persona_update(persona=persona, user=owner, data=Persona(**{**BASE, "bias": "Bold"}))
    response = member_client.post(f"/personas/{persona.code}/restore", {"number": "1"})
    assert response.status_code == 302
    persona.refresh_from_db()
    assert persona.bias == "Cautious"


def test_renaming_onto_another_persona_is_refused(persona, owner):
    other = persona_create(library=persona.library, user=owner,
                           data=Persona(**{**BASE, "name": "Kenji"}))
    with pytest.raises(PersonaError, match="already exists"):
        persona_update(persona=other, user=owner, data=Persona(**{**BASE, "name": "DANA"}))
