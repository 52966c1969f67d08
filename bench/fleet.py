"""Worker hosts running debates against one PostgreSQL database and one Redis queue.

A ``Fleet`` owns a fresh database (copied from a migrated template, so a run does not
pay ~20 s of migrations) and a queue name of its own, starts ``manage.py qcluster``
inside the namespaced hosts of a ``HostNetwork``, queues simulated debates and reads
the ledger back with plain SQL. Used by the scale-out test and by the hosts benchmark;
it imports no Django, so it runs in any process.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import redis

from bench.netns import Host, HostNetwork

ROOT = Path(__file__).resolve().parents[1]
_CONFIG_PREFIXES = ("DJANGO_", "DATABASE_", "REDIS_", "COUNCIL_", "PYTEST_")
POSTGRES_PORT = 5432
REDIS_PORT = 6379


def services(postgres_url: str, redis_url: str) -> dict[int, tuple[str, int]]:
    """What each host's link forwards to: port → the loopback service."""
    pg, rd = urlsplit(postgres_url), urlsplit(redis_url)
    return {POSTGRES_PORT: (pg.hostname or "127.0.0.1", pg.port or POSTGRES_PORT),
            REDIS_PORT: (rd.hostname or "127.0.0.1", rd.port or REDIS_PORT)}


def _with(url: str, *, host: str | None = None, port: int | None = None,
          database: str | None = None) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc
    if host is not None:
        userinfo = netloc.rpartition("@")[0]
        netloc = f"{userinfo + '@' if userinfo else ''}{host}:{port}"
    path = f"/{database}" if database is not None else parts.path
    return urlunsplit((parts.scheme, netloc, path, parts.query, parts.fragment))


# --- the database -----------------------------------------------------------------


def _migrations_digest() -> str:
    """Changes whenever a migration (ours or django-q2's) does."""
    import django_q

    digest = hashlib.sha256(getattr(django_q, "VERSION", ("?",)).__repr__().encode())
    for path in sorted(ROOT.glob("*/migrations/*.py")) + sorted(ROOT.glob("*/*/migrations/*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def _migrate(url: str) -> None:
    env = _clean_env(DATABASE_URL=url, DJANGO_LOG_LEVEL="WARNING")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                   env=env, check=True, capture_output=True, timeout=300)


def create_database(postgres_url: str, name: str) -> str:
    """A fresh, migrated database ``name``; returns its URL. The migrated template is
    made once per set of migrations (under an advisory lock, so parallel runs wait for
    one another instead of migrating twice) and kept for the next run."""
    template = f"council_tpl_{_migrations_digest()}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext('council-hosts-template'))")
        try:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                  (template,)).fetchone()
            if not exists:
                building = f"{template}_build_{uuid.uuid4().hex[:6]}"
                conn.execute(f'CREATE DATABASE "{building}"')
                try:
                    _migrate(_with(postgres_url, database=building))
                    conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{template}"')
                except BaseException:
                    conn.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
                    raise
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext('council-hosts-template'))")
    return _with(postgres_url, database=name)


def drop_database(postgres_url: str, name: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_CONFIG_PREFIXES)}
    # The debug key: every process of the fleet signs and reads the same tasks.
    env.update(DJANGO_DEBUG="1", LITELLM_LOCAL_MODEL_COST_MAP="True", **extra)
    return env


# --- the worker hosts ---------------------------------------------------------------


@dataclass(frozen=True)
class LocalHost:
    """A worker host on this machine's own network: it reaches the services at their
    own addresses, with no namespace or link in between (the fault tests and
    ``bench.faults``, whose faults are the services', not the network's)."""

    index: int
    namespace: str  # the host's name in logs

    def command(self, argv: list[str]) -> list[str]:
        return argv


@dataclass
class WorkerHost:
    """One ``qcluster`` (its own process group) inside a namespaced or local host."""

    host: Host | LocalHost
    proc: subprocess.Popen[bytes]
    log: IO[str]

    def output(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text()

    def holds(self, lease_owner: str) -> bool:
        """Whether the worker named in a lease (``hostname:pid:tag``) is one of ours:
        namespaces share the pid space, so the pid's process group tells."""
        try:
            return os.getpgid(int(lease_owner.split(":")[1])) == self.proc.pid
        except (IndexError, ValueError, ProcessLookupError):
            return False

    def cpu_seconds(self) -> float:
        """CPU time (user + system) used so far by the live processes of the cluster."""
        return group_cpu_seconds(self.proc.pid)

    def stop(self, timeout: float = 15) -> None:
        """SIGTERM to the group: qcluster ends every process within 10 s."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.log.close()


def group_cpu_seconds(pgid: int) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid pgrp ... utime stime": comm may hold spaces.
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[2]) == pgid:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


@dataclass(frozen=True)
class Settings:
    """The workers' configuration (defaults: the shipped ones, two workers a host)."""

    workers: int = 2
    lease_s: int = 10
    sweep_s: int = 5
    queue_grace_s: int = 60
    idle_transaction_s: int = 60


class Fleet:
    """A database, a queue and the worker hosts started on them; a context manager
    that stops every process and drops what it made."""

    def __init__(self, network: HostNetwork | None, *, postgres_url: str, redis_url: str,
                 log_dir: Path, settings: Settings = Settings()) -> None:
        self.network = network
        self.log_dir = log_dir
        self.settings = settings
        self.redis_url = redis_url
        self.postgres_url = postgres_url
        run_id = uuid.uuid4().hex[:8]
        self.db_name = f"council_hosts_{run_id}"
        self.queue = f"council-hosts-{run_id}"
        self.workers: list[WorkerHost] = []
        self.database_url = create_database(postgres_url, self.db_name)

    # -- processes

    def _env(self, database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
        s = self.settings
        return _clean_env(
            DATABASE_URL=database_url, REDIS_URL=redis_url, COUNCIL_Q_NAME=self.queue,
            COUNCIL_WORKERS=str(s.workers), COUNCIL_LEASE_SECONDS=str(s.lease_s),
            COUNCIL_SWEEP_SECONDS=str(s.sweep_s),
            COUNCIL_QUEUE_GRACE_SECONDS=str(s.queue_grace_s),
            DATABASE_IDLE_TRANSACTION_TIMEOUT=str(s.idle_transaction_s), **extra)

    def start_worker(self, host: Host | LocalHost) -> WorkerHost:
        """``manage.py qcluster`` inside ``host``, reaching the services over its link
        (a local host reaches them directly)."""
        database_url, redis_url = self.database_url, self.redis_url
        if isinstance(host, Host):
            database_url = _with(database_url, host=host.outer_ip, port=POSTGRES_PORT)
            redis_url = _with(redis_url, host=host.outer_ip, port=REDIS_PORT)
        # django-q2 says "running." at INFO
        env = self._env(database_url, redis_url, DJANGO_LOG_LEVEL="INFO")
        log = (self.log_dir / f"qcluster-{host.namespace}.log").open("w")
        proc = subprocess.Popen(host.command([sys.executable, "manage.py", "qcluster"]),
                                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        worker = WorkerHost(host=host, proc=proc, log=log)
        self.workers.append(worker)
        return worker

    def wait_ready(self, workers: list[WorkerHost], timeout: float = 90) -> None:
        wait_for(lambda: all("running." in w.output() for w in workers), timeout=timeout,
                 what="the worker hosts to start", fleet=self)

    @contextlib.contextmanager
    def seeder(self, count: int, latency_ms: int,
               faults: str = "") -> Iterator[Callable[[], None]]:
        """A started (Django set up) seeding process; calling the yielded function
        queues the debates and returns once all are queued."""
        proc = subprocess.Popen(
            [sys.executable, "-m", "bench.seed", str(count), str(latency_ms), faults],
            cwd=ROOT, env=self._env(self.database_url, self.redis_url,
                                    DJANGO_LOG_LEVEL="WARNING"),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert proc.stdin is not None and proc.stdout is not None
        try:
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError("the seeding process did not start")

            def go() -> None:
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write("go\n")
                proc.stdin.flush()
                if proc.stdout.readline().strip() != "queued":
                    raise RuntimeError("the seeding process failed to queue the debates")

            yield go
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=10)

    def close(self) -> None:
        for worker in self.workers:
            worker.kill()
        self.workers = []
        with contextlib.suppress(Exception):
            client = redis.Redis.from_url(self.redis_url, socket_timeout=5)
            keys = list(client.scan_iter(match=f"django_q:{self.queue}:*"))
            if keys:
                client.delete(*keys)
            client.close()
        drop_database(self.postgres_url, self.db_name)

    def __enter__(self) -> Fleet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the ledger

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.database_url, autocommit=True) as conn:
            return conn.execute(sql, params).fetchall()

    def statuses(self) -> Counter[str]:
        return Counter(dict(self.query(
            "SELECT status, count(*) FROM debates_debate GROUP BY status")))

    def lease_owners(self) -> list[str]:
        return [row[0] for row in self.query(
            "SELECT lease_owner FROM debates_debate WHERE lease_owner <> ''"
            " AND status IN ('queued', 'running')")]

    def span(self) -> tuple[datetime, datetime]:
        """First debate created → last one finished."""
        first, last = self.query(
            "SELECT min(created_at), max(finished_at) FROM debates_debate")[0]
        return first, last

    def ledger_problems(self) -> list[str]:
        return ledger_problems(self.query)


def ledger_problems(query: Callable[..., list[tuple[Any, ...]]]) -> list[str]:
    """Everything that says a debate did not complete exactly once: not succeeded, a
    turn or a paid answer stored twice, a paid answer without its turn, a step
    completed twice, not exactly one synthesis and one ``debate_finished``, a gap in
    the event log. A cut-off worker's answer that arrived after its turn was stored
    by the worker that took over is kept as ``superseded``: spent, not used twice."""
    problems = []
    for code, status, error in query(
            "SELECT code, status, error FROM debates_debate WHERE status <> 'succeeded'"):
        problems.append(f"debate {code} ended {status}: {error}")
    for row in query(
            "SELECT debate_id, phase, round, agent_index, count(*) FROM debates_turn"
            " GROUP BY 1, 2, 3, 4 HAVING count(*) > 1"):
        problems.append(f"turn stored twice: {row}")
    for row in query(
            "SELECT debate_id, phase, round, agent_index, count(*) FROM debates_llmcall"
            " WHERE ok AND purpose <> 'superseded' GROUP BY 1, 2, 3, 4 HAVING count(*) > 1"):
        problems.append(f"successful call repeated for one turn: {row}")
    for row in query(
            "SELECT c.debate_id, c.phase, c.round, c.agent_index FROM debates_llmcall c"
            " WHERE c.ok AND NOT EXISTS (SELECT 1 FROM debates_turn t"
            " WHERE t.debate_id = c.debate_id AND t.phase = c.phase"
            " AND t.round = c.round AND t.agent_index = c.agent_index)"):
        problems.append(f"paid-for answer without its turn: {row}")
    for row in query(
            "SELECT debate_id, payload->>'step', count(*) FROM debates_debateevent"
            " WHERE kind = 'step_completed' GROUP BY 1, 2 HAVING count(*) > 1"):
        problems.append(f"step completed twice: {row}")
    for row in query(
            "SELECT d.code, (SELECT count(*) FROM debates_synthesis s"
            " WHERE s.debate_id = d.id), (SELECT count(*) FROM debates_debateevent e"
            " WHERE e.debate_id = d.id AND e.kind = 'debate_finished')"
            " FROM debates_debate d"):
        if row[1:] != (1, 1):
            problems.append(f"debate {row[0]}: {row[1]} syntheses, {row[2]} debate_finished")
    for row in query(
            "SELECT debate_id, count(*), max(seq) FROM debates_debateevent GROUP BY 1"
            " HAVING count(*) <> max(seq)"):
        problems.append(f"event log with a gap: {row}")
    return problems


def wait_for(condition: Callable[[], object], *, timeout: float, what: str,
             fleet: Fleet | None = None) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    detail = ""
    if fleet is not None:
        detail = "".join(f"\n--- {w.host.namespace} ---\n{w.output()[-2000:]}"
                         for w in fleet.workers)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}{detail}")
