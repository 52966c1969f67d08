"""``python -m tests.fuzz_api``: schemathesis against a served site's
``/api/openapi.json`` with an API token, a bounded number of examples per operation;
exits non-zero on any server error (5xx) or any answer its declared schema does not
describe. ``.ci/run`` runs it after ``make test`` (docs/api.md, "Fuzzing").

The site is ``manage.py serve`` over a fresh SQLite database (``tests.served_site``),
with one user, their team and a token; debates it starts run on the simulated model.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.served_site import ROOT, served_site

CHECKS = "not_a_server_error,response_schema_conformance"
# One user, their team and an API token (its secret on stdout), in one process.
SETUP = """
from django.contrib.auth.models import User
from accounts.services import api_token_create, team_create
user = User.objects.create_user("fuzz", password="fuzz-password-not-secret")
team_create(name="Fuzz", owner=user)
print(api_token_create(user=user, name="fuzz")[1])
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-examples", type=int, default=10,
                        help="test cases per operation and phase (default: 10)")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--workers", default="2")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="council-fuzz-") as directory, \
            served_site(Path(directory), COUNCIL_MODEL="sim/default") as site:
        token = site.manage("shell", "-c", SETUP).strip().splitlines()[-1]
        command = [
            str(Path(sys.executable).with_name("schemathesis")), "run",
            f"{site.url}/api/openapi.json", "--header", f"Authorization: Bearer {token}",
            "--checks", CHECKS, "--max-examples", str(args.max_examples),
            "--seed", str(args.seed), "--workers", args.workers,
            # Fuzzing only: the coverage phase's generator itself failed now and then
            # ("Inconsistent results" from hypothesis), a red run with no finding.
            "--phases", "fuzzing", "--request-timeout", "60",
            "--suppress-health-check", "all", "--no-shrink",
        ]
        return subprocess.run(command, cwd=ROOT, timeout=1200).returncode


if __name__ == "__main__":
    sys.exit(main())
