"""A throw-away Council site for the page and event benchmarks: its own SQLite file,
a member with a session, finished debates, and ``manage.py serve`` on a free port.

Everything runs in subprocesses of ``root`` (a checkout), so the same measurement can
be pointed at another checkout for a before/after comparison, and the benchmark never
touches the configured database.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.fleet import group_cpu_seconds

ROOT = Path(__file__).resolve().parents[1]

# Run by ``manage.py shell``: a member, a finished debate of ``mode``, a session cookie.
SEED = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from accounts.services import api_token_create, team_create
from debates.engine.schemas import DebateConfig
from debates.runtime.execution import run_to_completion
from debates.services import debate_create
user = get_user_model().objects.create_user("bench", password="bench-pass-1234")
team = team_create(name="Bench", owner=user)
debate = debate_create(team=team, user=user, question=QUESTION,
                       config=DebateConfig(mode=MODE), start=False)
run_to_completion(debate.code)
client = Client()
client.force_login(user)
_, token = api_token_create(user=user, name="bench")
print(json.dumps({"debate": str(debate.code), "session": client.cookies["sessionid"].value,
                  "team": team.pk, "token": token}))
"""
QUESTION = ("Our 40-person B2B SaaS company runs a 6-year-old Django monolith. Should we "
            "split it into microservices during the next 12 months?")


@dataclass
class Site:
    root: Path
    env: dict[str, str]
    base_url: str
    debate: str  # code of the finished debate
    session: str  # the member's session cookie
    token: str = ""  # an API token of the member (``Authorization: Bearer``)
    started_at: float = 0.0  # time.monotonic() when ``manage.py serve`` was started
    healthy_at: float = 0.0  # time.monotonic() when /healthz first answered "ok"

    def manage(self, *args: str, stdin: str | None = None) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=self.root,
                              env=self.env, input=stdin, capture_output=True, text=True,
                              timeout=300, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {args[0]} failed: {done.stderr[-2000:]}")
        return done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# Web processes listen once they have loaded the model stack (council_site/asgi.py):
# with two of them and the worker cluster importing litellm at once, 65 s at load 12.
def _wait_healthy(url: str, proc: subprocess.Popen[bytes], seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("manage.py serve exited during start-up")
        try:
            if urllib.request.urlopen(f"{url}/healthz", timeout=2).read().strip() == b"ok":
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer /healthz within {seconds:g} s")


def _wait_settled(pgid: int, seconds: float = 60, idle_share: float = 0.15) -> None:
    """Wait until the site's processes use under ``idle_share`` of a core: the worker
    cluster imports litellm and forks its workers after the web answers, and that
    start-up must not count against the first figures measured."""
    deadline = time.monotonic() + seconds
    used = group_cpu_seconds(pgid)
    while time.monotonic() < deadline:
        time.sleep(1.0)
        now = group_cpu_seconds(pgid)
        if now - used < idle_share:
            return
        used = now


@contextmanager
def running_site(*, root: Path = ROOT, mode: str = "medium", redis_url: str | None = None,
                 extra_env: dict[str, str] | None = None, settle: bool = True
                 ) -> Iterator[Site]:
    """A migrated, seeded site served by ``manage.py serve`` (web and workers), handed
    over once its processes are idle, or (``settle=False``) as soon as /healthz answers."""
    with tempfile.TemporaryDirectory(prefix="council-bench-") as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
               "DJANGO_SECRET_KEY": secrets.token_urlsafe(32), "DJANGO_DEBUG": "0",
               "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_SECURE": "0",
               "LITELLM_LOCAL_MODEL_COST_MAP": "True", "COUNCIL_SIM_LATENCY_MS": "0",
               **(extra_env or {})}
        env.pop("REDIS_URL", None)
        if redis_url:
            env["REDIS_URL"] = redis_url
        port = free_port()
        site = Site(root=root, env=env, base_url=f"http://127.0.0.1:{port}", debate="",
                    session="")
        site.manage("migrate", "-v0")
        seed = SEED.replace("QUESTION", json.dumps(QUESTION)).replace("MODE", json.dumps(mode))
        seeded = json.loads(site.manage("shell", stdin=seed).strip().splitlines()[-1])
        site.debate, site.session = seeded["debate"], seeded["session"]
        site.token = seeded.get("token", "")
        log = open(Path(tmp) / "serve.log", "wb")  # noqa: SIM115 - closed below
        proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)],
                                cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        site.started_at = time.monotonic()
        try:
            _wait_healthy(site.base_url, proc)
            site.healthy_at = time.monotonic()
            if settle:
                _wait_settled(proc.pid)
            yield site
        except Exception:
            log.flush()
            sys.stderr.write((Path(tmp) / "serve.log").read_text(errors="replace")[-3000:])
            raise
        finally:
            log.close()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
