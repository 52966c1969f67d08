"""A newcomer's clone: no shared folder beside it (nothing the project runs may read it),
and `make run` set up for the address it serves."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Built from parts so this file does not match itself.
_SHARED = re.compile(r"\.\./" + "shared|/work/" + "shared|\"shared\"\\s*/\\s*\"cases\"")


def test_no_code_or_test_reads_the_shared_folder():
    tracked = subprocess.run(
        ["git", "ls-files", "*.py", "Makefile", "*.toml", "*.cfg", ".ci/*"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()
    offenders = [
        name for name in tracked
        if (ROOT / name).is_file() and _SHARED.search((ROOT / name).read_text(errors="replace"))
    ]
    assert offenders == []


def test_make_run_links_mail_to_the_address_it_serves():
    """Mail links (password reset, confirmations, notifications) start with
    COUNCIL_SITE_URL: ``make run`` on another port must not send people to :8000."""
    dry_run = subprocess.run(
        ["make", "-n", "run", "HOST=127.0.0.1", "PORT=8123"], cwd=ROOT,
        capture_output=True, text=True, check=True, timeout=60).stdout
    serve = next(line for line in dry_run.splitlines() if "manage.py serve" in line)
    assert "COUNCIL_SITE_URL=${COUNCIL_SITE_URL:-http://127.0.0.1:8123}" in serve
