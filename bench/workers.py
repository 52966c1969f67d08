"""Area "workers": 20 medium debates queued at once against one alone, on a real worker
cluster (``manage.py qcluster``, default settings), on each configuration.

Each configuration runs in a child process of its own (``python -m
bench.workers``) with its own fresh database, so the bench never touches the
site's data: embedded (a scratch SQLite file, the ORM broker) and, when both are
reachable, scale-out (a scratch PostgreSQL database, Redis under a queue name of its
own). The child migrates, starts the cluster, runs a warm-up debate, then one medium
debate alone, then 20 queued in one transaction (each set of debates is created first,
and the clock starts when they are queued), and reports wall times and the peak RSS
(VmHWM) of the cluster's processes as one JSON line.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.failure import DebatesFailed
from bench.figures import Figure

AREA = "workers"
ROOT = Path(__file__).resolve().parents[1]
AT_ONCE = 20
LATENCY_MS = 1000
ROUNDS = 2
RATIO_TARGET = 2.0
RSS_TARGET_MIB = 400
POSTGRES_URL = os.environ.get("COUNCIL_BENCH_POSTGRES_URL",
                              "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("COUNCIL_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
# Leave the environment's own configuration out of the child's: it gets its own.
_CONFIG_PREFIXES = ("DJANGO_", "DATABASE_", "REDIS_", "COUNCIL_", "PYTEST")


@dataclass(frozen=True)
class Run:
    configuration: str
    alone_s: float
    at_once_s: float
    failed: list[str]
    worker_rss_mib: float
    workers: int
    per_worker: int

    @property
    def ratio(self) -> float:
        return self.at_once_s / self.alone_s


def measure() -> list[Figure]:
    figures: list[Figure] = []
    failures: list[str] = []
    for name, setup in (("embedded", _embedded), ("PostgreSQL + Redis", _scaleout)):
        with setup() as env:
            if isinstance(env, str):
                figures.append(Figure(AREA, f"20 at once / one alone, {name}", float("nan"),
                                      "×", f"≤ {RATIO_TARGET}×", None, f"skipped: {env}"))
                continue
            run = _run_child(name, env)
        figures += _figures(run)
        failures += [f"{name}: {f}" for f in run.failed]
    if failures:
        raise DebatesFailed(f"{len(failures)} debate(s) failed: {failures[:3]}", figures)
    return figures


def _figures(run: Run) -> list[Figure]:
    setup = (f"{run.configuration}; {run.workers} worker processes, up to "
             f"{run.per_worker} debates each; medium, {ROUNDS} rounds, "
             f"{LATENCY_MS} ms simulated latency")
    return [
        Figure(AREA, f"one medium debate alone, {run.configuration}", run.alone_s, "s",
               detail=setup),
        Figure(AREA, f"{AT_ONCE} medium debates queued at once, {run.configuration}",
               run.at_once_s, "s", detail=setup),
        Figure(AREA, f"{AT_ONCE} at once / one alone, {run.configuration}", run.ratio, "×",
               f"≤ {RATIO_TARGET}×", run.ratio <= RATIO_TARGET,
               f"{len(run.failed)} of {AT_ONCE + 1} failed"),
        Figure(AREA, f"peak RSS of a worker process, {run.configuration}",
               run.worker_rss_mib, "MiB", f"≤ {RSS_TARGET_MIB} MiB",
               run.worker_rss_mib <= RSS_TARGET_MIB,
               "VmHWM, largest process of the cluster after the 20"),
    ]


# --- configurations -------------------------------------------------------------------


class _Scratch:
    """A context manager yielding the child's environment, or why it cannot run."""

    def __init__(self, env: dict[str, str] | str, cleanup: Any = None) -> None:
        self.env, self.cleanup = env, cleanup

    def __enter__(self) -> dict[str, str] | str:
        return self.env

    def __exit__(self, *exc: object) -> None:
        if self.cleanup:
            self.cleanup()


def _base_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_CONFIG_PREFIXES)}
    env.update(DJANGO_SETTINGS_MODULE="council_site.settings", DJANGO_DEBUG="0",
               DJANGO_SECRET_KEY=f"bench-{secrets.token_hex(16)}", DJANGO_LOG_LEVEL="INFO",
               LITELLM_LOCAL_MODEL_COST_MAP="True", **extra)
    return env


def _embedded() -> _Scratch:
    folder = tempfile.TemporaryDirectory(prefix="council-bench-")
    url = f"sqlite:///{Path(folder.name) / 'bench.sqlite3'}"
    return _Scratch(_base_env(DATABASE_URL=url), folder.cleanup)


def _scaleout() -> _Scratch:
    try:
        import psycopg
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
        admin = psycopg.connect(POSTGRES_URL, connect_timeout=2, autocommit=True)
    except Exception as exc:  # any failure means "unreachable"
        return _Scratch(f"PostgreSQL or Redis unreachable ({type(exc).__name__}: {exc})")
    name = f"council_bench_{secrets.token_hex(4)}"
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()

    url = f"{POSTGRES_URL.rsplit('/', 1)[0]}/{name}"
    return _Scratch(_base_env(DATABASE_URL=url, REDIS_URL=REDIS_URL,
                              COUNCIL_Q_NAME=f"council-bench-{name}"), drop)


def _run_child(name: str, env: dict[str, str]) -> Run:
    proc = subprocess.run([sys.executable, "-m", "bench.workers", name], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=240)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"workers bench on {name} failed:\n{proc.stderr[-3000:]}")
    return Run(**json.loads(lines[-1]))


# --- the child: one configuration -------------------------------------------------------


def _child(configuration: str) -> dict[str, Any]:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.models import Team

    team = Team.objects.create(name="bench")
    log = tempfile.NamedTemporaryFile("w+", prefix="qcluster-", suffix=".log", delete=False)
    cluster = subprocess.Popen([sys.executable, "manage.py", "qcluster"], cwd=ROOT,
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait(lambda: "running." in Path(log.name).read_text(), 120, "the cluster to start")
        _run_debates(team, 1, latency_ms=0, mode="quick")  # warm-up: first-call costs
        alone, failed = _run_debates(team, 1)
        at_once, failed_at_once = _run_debates(team, AT_ONCE)
        rss = max(_peak_rss_mib(pid) for pid in _group(cluster.pid) if pid != cluster.pid)
    finally:
        os.killpg(cluster.pid, signal.SIGTERM)
        cluster.wait(timeout=20)
        log.close()
    return {"configuration": configuration, "alone_s": alone, "at_once_s": at_once,
            "failed": failed + failed_at_once, "worker_rss_mib": rss,
            "workers": settings.COUNCIL_WORKERS,
            "per_worker": settings.COUNCIL_DEBATES_PER_WORKER}


def _run_debates(team: Any, count: int, *, latency_ms: int = LATENCY_MS,
                 mode: str = "medium") -> tuple[float, list[str]]:
    """Creates ``count`` identical debates, then queues them in one transaction; the
    wall time from queueing to the last finish, and the errors of those that did not
    succeed."""
    from django.db import transaction

    from debates.engine import DebateConfig, Mode, SimulatorOptions
    from debates.models import ACTIVE_STATUSES, Debate, DebateStatus
    from debates.runtime.queue import enqueue_step
    from debates.services import debate_create

    config = DebateConfig(mode=Mode(mode), max_rounds=ROUNDS, seed=7,
                          simulator=SimulatorOptions(latency_ms=latency_ms, seed=7))
    debates = [debate_create(team=team, user=None, question=f"Bench question {i}?",
                             config=config, start=False) for i in range(count)]
    codes = [d.code for d in debates]
    started = time.monotonic()
    with transaction.atomic():
        for debate in debates:
            enqueue_step(debate)
    _wait(lambda: not Debate.objects.filter(code__in=codes,
                                            status__in=ACTIVE_STATUSES).exists(),
          180, f"{count} debate(s) to finish")
    wall = time.monotonic() - started
    failed = [f"{status}: {error}" for status, error in Debate.objects.filter(
        code__in=codes).exclude(status=DebateStatus.SUCCEEDED).values_list("status", "error")]
    return wall, failed


def _wait(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


def _group(pgid: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == pgid:
                    pids.append(int(entry.name))
            except ProcessLookupError:
                pass
    return pids


def _peak_rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


if __name__ == "__main__":
    print(json.dumps(_child(sys.argv[1])))
