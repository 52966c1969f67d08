"""A real served site for tests that need the HTTP server itself (daphne, Twisted):
``manage.py serve`` on a free port over a fresh SQLite database, one web process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Site:
    port: int
    env: dict[str, str]
    # What the ``setup`` script given to ``served_site`` printed.
    setup_output: str = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args: str) -> str:
        """``manage.py`` against the site's database; its stdout."""
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
                              check=True, timeout=300, capture_output=True,
                              text=True).stdout


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=10) as response:
            return response.status == 200
    except OSError:
        return False


# The migration and a caller's setup script in one interpreter: each ``manage.py``
# start costs seconds of Django and app imports on a loaded machine.
_MIGRATE = "from django.core.management import call_command\ncall_command('migrate', verbosity=0)\n"


@contextmanager
def served_site(directory: Path, *, setup: str = "", **environ: str) -> Iterator[Site]:
    """The site, migrated, with ``setup`` (Python run by ``manage.py shell`` after the
    migration, before the server starts; its stdout is ``Site.setup_output``)."""
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECURE": "0",
           "DJANGO_SECRET_KEY": "served-site-test-key-" + "x" * 40,
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
           "LITELLM_LOCAL_MODEL_COST_MAP": "True",
           "DATABASE_URL": f"sqlite:///{directory / 'site.sqlite3'}", **environ}
    port = free_port()
    output = Site(port, env).manage("shell", "-c", _MIGRATE + setup)
    site = Site(port, env, setup_output=output)
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(site.port),
                             "--web-processes", "1"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        wait_until(lambda: proc.poll() is not None or _answers(site.url),
                   what="the site to answer", interval=0.1)
        assert proc.poll() is None, "manage.py serve exited"
        yield site
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
