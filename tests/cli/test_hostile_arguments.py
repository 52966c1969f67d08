"""``manage.py debate`` refuses arguments that are not UTF-8 with exit code 2 and a
one-line message, before anything runs or is saved (it used to crash with --save)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from debates.models import Debate

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args", [
    ["Should we \udcff\udcfe ship?", "--save"],
    ["Should we ship?", "--context", "bad \udcff", "--save"],
    ["Should we ship?", "--team", "T\udcff", "--save"],
])
def test_arguments_that_are_not_utf8_exit_2_and_save_nothing(db, args):
    with pytest.raises(CommandError, match="not valid UTF-8") as caught:
        call_command("debate", *args, "--mode", "quick",
                     stdout=io.StringIO(), stderr=io.StringIO())
    assert caught.value.returncode == 2
    assert not Debate.objects.exists()


def test_a_real_process_with_latin1_bytes_exits_2_without_a_traceback(tmp_path):
    env = {**os.environ, "DJANGO_DEBUG": "1", "LC_ALL": "C.UTF-8",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    proc = subprocess.run([sys.executable.encode(), b"manage.py", b"debate",
                           b"Soll man \xe4ndern?", b"--save", b"--mode", b"quick"],
                          cwd=ROOT, env=env, capture_output=True, timeout=600)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, stderr
    assert "not valid UTF-8" in stderr and "Traceback" not in stderr
    assert proc.stdout == b""
