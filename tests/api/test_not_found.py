"""An object in a team the caller is not in answers exactly like one that does not
exist (docs/teams.md), for every kind of object the API serves; and a team named by
X-Council-Team that is not one of the caller's is one and the same 404 on every route
that honours the header."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

from accounts.services import api_token_create, membership_add
from collab.services import comment_create
from personas.models import LibraryPersona, PersonaLibrary
from tests.factories import add_synthesis, make_debate

pytestmark = pytest.mark.django_db

MISSING = uuid.UUID(int=1)


@pytest.fixture
def objects(team, owner):
    """One object of each kind in ``team``, by the API path that reads it."""
    debate = make_debate(team, owner)
    add_synthesis(debate)
    comment = comment_create(debate=debate, author=owner, body="Check the vendor's SLA.")
    library = PersonaLibrary.objects.create(team=team, name="Main")
    persona = LibraryPersona.objects.create(
        library=library, name="Dana", background="CFO", expertise="x", approach="x", bias="x")
    return {
        "debate": "/api/debates/{}",
        "debate events": "/api/debates/{}/events",
        "debate export": "/api/debates/{}/export.json",
        "comments": "/api/debates/{}/comments",
        "library": "/api/personas/libraries/{}",
        "persona": "/api/personas/{}",
        "team": "/api/teams/{}",
    }, {
        "debate": debate.code, "debate events": debate.code, "debate export": debate.code,
        "comments": debate.code, "library": library.code, "persona": persona.code,
        "team": team.code,
    }, (f"/api/debates/{debate.code}/comments/{comment.code}", f"/api/debates/{{}}/comments/"
        f"{comment.code}", debate.code)


@pytest.mark.parametrize("as_token", [False, True])
def test_another_teams_object_and_a_missing_one_answer_byte_identical_404s(
        objects, outsider, outsider_client, as_token):
    paths, codes, _ = objects
    client = outsider_client
    if as_token:
        _, secret = api_token_create(user=outsider, name="CI")
        client = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    for kind, path in paths.items():
        foreign = client.get(path.format(codes[kind]))
        missing = client.get(path.format(MISSING))
        assert foreign.status_code == missing.status_code == 404, kind
        assert foreign.content == missing.content, (kind, foreign.content, missing.content)
        assert foreign.json()["code"] == "not_found"


def test_a_comment_of_another_teams_debate_and_a_missing_one_answer_alike(
        objects, outsider_client):
    _, _, (_, pattern, debate_code) = objects
    url = pattern.format(debate_code)
    foreign = outsider_client.patch(url, {"body": "x"}, content_type="application/json")
    missing = outsider_client.patch(pattern.format(MISSING), {"body": "x"},
                                    content_type="application/json")
    assert foreign.status_code == missing.status_code == 404
    assert foreign.content == missing.content


ROUTES_WITH_THE_HEADER = [
    ("get", "/api/debates/"),
    ("post", "/api/debates/"),
    ("get", "/api/personas/libraries"),
    ("post", "/api/personas/libraries"),
    ("get", "/api/debates/schemas/result"),
]
PAYLOADS = {"/api/debates/": {"question": "Hire a second SRE?"},
            "/api/personas/libraries": {"name": "Lib"}}


@pytest.mark.parametrize(("method", "url"), ROUTES_WITH_THE_HEADER)
def test_a_foreign_or_unknown_team_in_the_header_is_the_same_404_everywhere(
        owner, team, other_team, method, url):
    """The caller is in a team (``team``), so the answer must not say they are in none;
    a team that exists and one that does not are refused alike."""
    _, secret = api_token_create(user=owner, name="CI")
    bodies = []
    for named in (str(other_team.code), str(MISSING), "nonsense"):
        client = Client(HTTP_AUTHORIZATION=f"Bearer {secret}", HTTP_X_COUNCIL_TEAM=named)
        if method == "post":
            response = client.post(url, PAYLOADS[url], content_type="application/json")
        else:
            response = client.get(url)
        assert response.status_code == 404, (named, response.content)
        body = response.json()
        assert body["code"] == "not_found" and "X-Council-Team" in body["message"]
        assert "any team" not in body["message"]
        bodies.append(response.content)
    assert len(set(bodies)) == 1


def test_a_caller_in_no_team_is_403_on_debates_and_personas_alike(db):
    from django.contrib.auth.models import User

    loner = User.objects.create_user("loner", password="x")
    client = Client()
    client.force_login(loner)
    for url in ("/api/debates/", "/api/personas/libraries"):
        response = client.get(url)
        assert response.status_code == 403, url
        assert response.json()["message"] == "You are not a member of any team yet."


def test_the_header_still_picks_a_team_of_the_caller(owner, team, other_team, outsider):
    membership_add(team=other_team, user=owner, role="viewer")
    client = Client(HTTP_X_COUNCIL_TEAM=str(other_team.code))
    client.force_login(owner)
    assert client.get("/api/personas/libraries").status_code == 200
    # A viewer there: the header's team decides the role, so a write is 403.
    response = client.post("/api/personas/libraries", {"name": "Lib"},
                           content_type="application/json")
    assert response.status_code == 403


def as_compared(response, code: object) -> str:
    """The page with what differs by request alone blanked: the CSRF tokens the site's
    layout (and so the 404 page) carries, fresh on every render, and the path asked for
    (the layout links back to it)."""
    html = response.content.decode().replace(str(code), "CODE")
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"',
                  'name="csrfmiddlewaretoken" value=""', html)
    return re.sub(r'"X-CSRFToken": "[^"]+"', '"X-CSRFToken": ""', html)


def test_the_pages_answer_alike_too(objects, outsider_client):
    """Django's 404 page shows no message today; this keeps a future 404 template that
    shows one from telling the two apart."""
    _, codes, _ = objects
    for kind, page in (("debate", "/debates/{}/"), ("library", "/personas/libraries/{}/"),
                       ("team", "/teams/{}/")):
        foreign = outsider_client.get(page.format(codes[kind]))
        missing = outsider_client.get(page.format(MISSING))
        assert foreign.status_code == missing.status_code == 404, page
        assert as_compared(foreign, codes[kind]) == as_compared(missing, MISSING), page
