"""On PostgreSQL, input that SQLite stores quietly fails at the INSERT (a 500): a lone
surrogate in a question, and a forked name longer than its column. The API must refuse
the first (422) and fit the second (issue 27). Runs against a throw-away database."""

from __future__ import annotations

import json

import pytest

from tests import test_scaleout_services
from tests.test_scaleout_services import run_scaleout

scratch_database = test_scaleout_services.scratch_database  # the throw-away database fixture

pytestmark = pytest.mark.scaleout

_PROBE = r"""
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
    migrated = run_scaleout(scaleout, ["manage.py", "migrate", "--noinput"], scratch_database)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    result = run_scaleout(scaleout, ["-c", _PROBE], scratch_database)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["question"]["status"] == 422, out["question"]
    assert list(out["question"]["body"]["errors"]) == ["question"]
    assert out["debates"] == 0
    assert out["library_fork"]["status"] == 201, out["library_fork"]
    assert out["library_fork"]["body"]["name"] == "L" * 193 + " (fork)"
    assert out["persona_fork"]["status"] == 201, out["persona_fork"]
    assert out["persona_fork"]["body"]["name"] == "P" * 73 + " (fork)"
