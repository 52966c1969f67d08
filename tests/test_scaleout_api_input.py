"""On PostgreSQL, input that SQLite stores quietly fails at the INSERT (a 500): text
with NUL (refused with a 400), a lone surrogate (a 422) and a forked name longer than
its column (cut to fit, issue 27). Runs against a throw-away database."""

from __future__ import annotations

import pytest

from tests import test_scaleout_services
from tests.test_scaleout_services import run_probe

scratch_database = test_scaleout_services.scratch_database  # the throw-away database fixture

pytestmark = pytest.mark.scaleout

_PROBE = r"""
import json, django
django.setup()
from django.contrib.auth.models import User
from django.db import DataError, transaction
from django.test import Client
from collab.models import Comment
from accounts.models import Membership
from accounts.services import team_create
from personas.models import LibraryPersona, PersonaLibrary
from tests.factories import add_synthesis, make_debate

user = User.objects.create_user("probe", password="x")
team = team_create(name="Probe", owner=user)
debate = make_debate(team, user)
add_synthesis(debate)
library = PersonaLibrary.objects.create(team=team, name="Main")
client = Client()
client.force_login(user)

def post(url, data):
    r = client.post(url, data, content_type="application/json")
    return {"status": r.status_code, "body": r.json()}

persona = {"name": "Dana", "background": "CFO\u0000", "expertise": "x", "approach": "x",
           "bias": "x"}
out = {
    "comment": post(f"/api/debates/{debate.code}/comments", {"body": "a\u0000b"}),
    "persona": post(f"/api/personas/libraries/{library.code}/personas", persona),
    "debate": post("/api/debates/", {"question": "Should we\u0000?"}),
    "comments": Comment.objects.count(),
    "personas": LibraryPersona.objects.count(),
}
# Without the refusal the database would fail: the reason the API checks.
try:
    with transaction.atomic():
        Comment.objects.create(debate=debate, author=user, body="a\x00b")
    out["database"] = "stored"
except (DataError, ValueError) as exc:
    out["database"] = type(exc).__name__
print(json.dumps(out))
"""


def test_nul_in_api_text_is_a_400_on_postgres_and_nothing_is_saved(scaleout, scratch_database):
    out = run_probe(scaleout, _PROBE, scratch_database)
    assert out["database"] != "stored"
    for name in ("comment", "persona", "debate"):
        assert out[name]["status"] == 400, out[name]
        assert out[name]["body"]["code"] == "invalid_characters", out[name]
    assert out["comment"]["body"]["errors"] == {"body": ["NUL characters are not allowed."]}
    assert "background" in out["persona"]["body"]["errors"]
    assert out["comments"] == 0 and out["personas"] == 0


_SURROGATE_AND_FORK_PROBE = r"""
import json, django
django.setup()
from django.contrib.auth.models import User
from django.test import Client
from accounts.services import team_create
from debates.models import Debate
from personas.models import PersonaLibrary

user = User.objects.create_user("probe", password="x")
team = team_create(name="Probe", owner=user)
client = Client()
client.force_login(user)

def post(url, body):
    r = client.post(url, body, content_type="application/json")
    return {"status": r.status_code, "body": r.json()}

library = post("/api/personas/libraries", {"name": "L" * 200})
code = library["body"]["code"]
persona = post(f"/api/personas/libraries/{code}/personas", {
    "name": "P" * 80, "background": "x", "expertise": "x", "approach": "x", "bias": "x"})
out = {
    "question": post("/api/debates/", '{"question": "Should we \\ud800 go?"}'),
    "library_fork": post(f"/api/personas/libraries/{code}/fork", {}),
    "persona_fork": post(f"/api/personas/{persona['body']['code']}/fork", {}),
    "debates": Debate.objects.count(),
}
print(json.dumps(out))
"""


def test_surrogates_and_long_fork_names_answer_4xx_or_fit_on_postgres(scaleout,
                                                                     scratch_database):
    out = run_probe(scaleout, _SURROGATE_AND_FORK_PROBE, scratch_database)
    assert out["question"]["status"] == 422, out["question"]
    assert list(out["question"]["body"]["errors"]) == ["question"]
    assert out["debates"] == 0
    assert out["library_fork"]["status"] == 201, out["library_fork"]
    assert out["library_fork"]["body"]["name"] == "L" * 193 + " (fork)"
    assert out["persona_fork"]["status"] == 201, out["persona_fork"]
    assert out["persona_fork"]["body"]["name"] == "P" * 73 + " (fork)"
