"""A private file written once, safely when processes race to create it.

The embedded configuration keeps its own secrets in ``var/`` (the secret key,
council_site/env.py; the receipt signing key, decisions/receipts_key.py). ``make run``
starts the web server and the workers at once, so two processes can both find the file
missing: each writes a private temporary file (mode 0600) and hard-links it into place,
and the loser keeps the winner's file, never a half-written one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_once(path: Path, content: bytes) -> None:
    """``content`` at ``path`` (mode 0600) unless a file is already there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process won the race; use its file
    finally:
        os.unlink(tmp)
