"""A newcomer's clone has no shared folder beside it: nothing the project runs may read it."""

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
