"""On PostgreSQL, a NUL in a path or query value made the lookup raise (a 500, to
anonymous callers too). The request guard refuses it first; this runs the app against a
throw-away PostgreSQL database to prove it there. The SQLite side is test_request_guard.py."""

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

user = User.objects.create_user("probe", password="x")
team_create(name="Probe", owner=user)
anonymous = Client(raise_request_exception=False)
signed_in = Client(raise_request_exception=False)
signed_in.force_login(user)
out = {}
for who, client in (("anonymous", anonymous), ("signed_in", signed_in)):
    for url in ("/invitations/a%00b/", "/accounts/login/?next=/invitations/a%00b/",
                "/accounts/signup/?next=/invitations/a%00b/", "/api/debates/a%00b",
                "/api/debates/?status=queued%00"):
        out[f"{who} GET {url}"] = client.get(url).status_code
# The login form posts its next back in the body, where the query guard does not look:
# the invitation URL's slug converter keeps it from reaching the database.
out["anonymous POST login next"] = anonymous.post(
    "/accounts/login/", {"username": "probe", "password": "wrong",
                         "next": "/invitations/a\x00b/"}).status_code
print(json.dumps(out))
"""


def test_nul_in_paths_and_query_values_is_refused_cleanly_on_postgres(scaleout,
                                                                       scratch_database):
    migrated = run_scaleout(scaleout, ["manage.py", "migrate", "--noinput"], scratch_database)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    result = run_scaleout(scaleout, ["-c", _PROBE], scratch_database)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out.pop("anonymous POST login next") == 200, out  # the form again, with its error
    assert len(out) == 10
    for request, status in out.items():
        # A NUL in the query string is a 400, one in the path a 404; never a 500.
        assert status == (400 if "?" in request else 404), (request, out)
