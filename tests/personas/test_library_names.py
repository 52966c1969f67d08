"""Library names are unique per team (service, database, migration), and the debate
form's persona picker groups personas by library and shows the panel order."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from debates.engine.schemas import Persona
from personas.models import PersonaLibrary
from personas.services import (
    PersonaError,
    library_create,
    library_fork,
    library_update,
    persona_create,
)


def _persona(name: str) -> Persona:
    return Persona(name=name, background="b", expertise="e", approach="a", bias="x")


def test_a_second_library_with_the_same_name_is_refused(team, other_team, owner):
    library_create(team=team, user=owner, name="Finance")
    with pytest.raises(PersonaError, match="already has a library called 'finance'"):
        library_create(team=team, user=owner, name=" finance ")
    # Another team may use the name.
    assert library_create(team=other_team, user=None, name="Finance").name == "Finance"


def test_renaming_onto_another_librarys_name_is_refused(team, owner):
    library_create(team=team, user=owner, name="Finance")
    ops = library_create(team=team, user=owner, name="Ops")
    with pytest.raises(PersonaError):
        library_update(library=ops, name="FINANCE", description="")
    # Keeping one's own name (or changing its case) is fine.
    assert library_update(library=ops, name="OPS", description="d").name == "OPS"


def test_the_database_refuses_twins_too(team):
    PersonaLibrary.objects.create(team=team, name="Finance")
    with pytest.raises(IntegrityError), transaction.atomic():
        PersonaLibrary.objects.create(team=team, name="finance")


def test_forks_get_a_free_name(team, owner):
    finance = library_create(team=team, user=owner, name="Finance")
    assert library_fork(library=finance, user=owner).name == "Finance (fork)"
    assert library_fork(library=finance, user=owner).name == "Finance (fork 2)"
    with pytest.raises(PersonaError):
        library_fork(library=finance, user=owner, name="finance (fork)")


def test_the_pages_and_api_say_why_a_name_is_refused(owner_client, team, owner):
    library_create(team=team, user=owner, name="Finance")
    response = owner_client.post("/personas/libraries/new", {"name": "Finance"}, follow=True)
    assert "already has a library called" in response.content.decode()
    assert PersonaLibrary.objects.filter(team=team).count() == 1
    api = owner_client.post("/api/personas/libraries", {"name": "finance"},
                            content_type="application/json")
    assert api.status_code == 400 and "already has a library" in api.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_existing_twins():
    executor = MigrationExecutor(connection)
    executor.migrate([("personas", "0001_initial")])
    apps = executor.loader.project_state([("personas", "0001_initial")]).apps
    Team = apps.get_model("accounts", "Team")
    Library = apps.get_model("personas", "PersonaLibrary")
    team = Team.objects.create(name="T")
    for name in ("Finance", "finance", "FINANCE", "Finance (2)"):
        Library.objects.create(team=team, name=name)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    names = set(PersonaLibrary.objects.filter(team_id=team.pk).values_list("name", flat=True))
    # The oldest keeps its name; "finance (2)" is skipped because a library has it.
    assert names == {"Finance", "finance (3)", "FINANCE (4)", "Finance (2)"}


def test_the_picker_groups_by_library_and_shows_the_panel_order(member_client, team, owner):
    finance = library_create(team=team, user=owner, name="Finance")
    ops = library_create(team=team, user=owner, name="Ops")
    dana = persona_create(library=finance, user=owner, data=_persona("Dana"))
    persona_create(library=ops, user=owner, data=_persona("Eli"))
    html = member_client.get("/debates/new").content.decode()
    assert '<legend class="small">Finance</legend>' in html
    assert '<legend class="small">Ops</legend>' in html
    assert html.index("Finance</legend>") < html.index("Dana") < html.index("Ops</legend>")
    assert "Panel order" in html and "None chosen" in html
    # A form sent back with a choice lists it under "Panel order".
    response = member_client.post("/debates/new", {"question": "?", "library_personas": [
        str(dana.code)]})
    page = response.content.decode()
    order = page[page.index("Panel order"):]
    assert "<li>Dana" in order
