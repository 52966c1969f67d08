"""Real worker processes for the durability tests: a ``qcluster`` subprocess talking
to the very database (and broker) the test is using."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.db import connection

from tests.waiting import PATIENCE_S, wait_until

ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    cfg = connection.settings_dict
    if cfg["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(cfg['NAME']).resolve()}"
    user = cfg.get("USER") or "postgres"
    host = cfg.get("HOST") or "127.0.0.1"
    port = cfg.get("PORT") or 5432
    return f"postgresql://{user}@{host}:{port}/{cfg['NAME']}"


def worker_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        DJANGO_DEBUG="1",
        DATABASE_URL=database_url(),
        COUNCIL_Q_NAME=settings.Q_CLUSTER["name"],
        COUNCIL_LEASE_SECONDS=str(settings.COUNCIL_LEASE_SECONDS),
        COUNCIL_WORKERS="2",
        DJANGO_LOG_LEVEL="WARNING",
    )
    if settings.REDIS_URL:
        env["REDIS_URL"] = settings.REDIS_URL
    else:
        env.pop("REDIS_URL", None)
    env.update(extra)
    return env


class Cluster:
    """A ``manage.py qcluster`` in its own process group, so SIGKILL takes its
    worker children down with it, as a machine crash would."""

    def __init__(self, log_dir: Path, **env: str) -> None:
        self.log = (log_dir / f"qcluster-{uuid.uuid4().hex[:6]}.log").open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"], cwd=ROOT, env=worker_env(**env),
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
        )

    def wait_ready(self, timeout: float = PATIENCE_S) -> None:
        """Needs ``DJANGO_LOG_LEVEL=INFO``: django-q2 logs "… running." once it is up."""
        wait_for(lambda: "running." in self.output(), timeout=timeout,
                 what="the cluster to start", cluster=self)

    def holds(self, lease_owner: str) -> bool:
        """Whether the worker named in a lease (``host:pid:tag``) is one of ours."""
        try:
            return os.getpgid(int(lease_owner.split(":")[1])) == self.proc.pid
        except (IndexError, ValueError, ProcessLookupError):
            return False

    def processes(self) -> list[str]:
        """Every process still running in the cluster's group."""
        self.proc.poll()  # reaps our own child once it exited
        return group_members(self.proc.pid)

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()

    def output(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text()


def group_members(pgid: int) -> list[str]:
    """Processes of a group that still run (an exited one waiting to be reaped, a
    zombie, holds nothing and counts as gone)."""
    rows = subprocess.run(["ps", "-e", "-o", "pid=,pgid=,stat="], capture_output=True,
                          text=True).stdout.splitlines()
    return [pid for pid, group, stat in (row.split() for row in rows)
            if int(group) == pgid and not stat.startswith("Z")]


def wait_for(condition: Callable[[], object], *, what: str, timeout: float = PATIENCE_S,
             cluster: Cluster | None = None) -> object:
    """``tests.waiting.wait_until`` that shows the cluster's log when it times out."""
    def log() -> str:
        return f"\n--- worker log ---\n{cluster.output()[-3000:]}" if cluster else ""

    return wait_until(condition, what=what, timeout=timeout, interval=0.2, detail=log)
