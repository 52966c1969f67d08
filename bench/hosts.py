"""Throughput with 1, 2 and 3 worker hosts sharing one PostgreSQL and one Redis.

Each host is a network namespace with its own veth link (``bench.netns``),
running ``manage.py qcluster`` with the shipped settings (two workers). The hosts join
one at a time; after each joins, 30 quick simulated debates are queued at once and
timed from the first created to the last finished (database clock). A run where any
debate fails or anything happens twice (``fleet.ledger_problems``) is reported as a
failed figure.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import psycopg
import redis

from bench.figures import Figure
from bench.fleet import Fleet, Settings, services, wait_for
from bench.netns import HostNetwork, netns_problem

AREA = "hosts"
HOSTS = 3
DEBATES = 30
POSTGRES_URL = os.environ.get("COUNCIL_TEST_POSTGRES_URL",
                              "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("COUNCIL_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _problem() -> str | None:
    try:
        with psycopg.connect(POSTGRES_URL, connect_timeout=2) as conn:
            conn.execute("SELECT 1")
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        client.ping()
        client.close()
    except Exception as exc:  # noqa: BLE001 - any failure means "cannot measure here"
        return f"PostgreSQL or Redis unreachable: {exc}"
    return netns_problem()


def measure(latency_ms: int = 500) -> list[Figure]:
    problem = _problem()
    if problem:
        return [Figure(area=AREA, name="debates per minute by worker hosts",
                       value=float("nan"), unit="debates/min", ok=False,
                       target="measured", detail=f"not measured: {problem}")]
    with tempfile.TemporaryDirectory(prefix="council-hosts-") as tmp:
        return _measure(latency_ms, Path(tmp))


def _measure(latency_ms: int, log_dir: Path) -> list[Figure]:
    settings = Settings()
    figures = []
    rates: dict[int, float] = {}
    with HostNetwork(HOSTS, services=services(POSTGRES_URL, REDIS_URL),
                     log_dir=log_dir) as network, \
            Fleet(network, postgres_url=POSTGRES_URL, redis_url=REDIS_URL,
                  log_dir=log_dir, settings=settings) as fleet:
        for count, host in enumerate(network.hosts, start=1):
            worker = fleet.start_worker(host)
            last_id = fleet.query("SELECT coalesce(max(id), 0) FROM debates_debate")[0][0]
            with fleet.seeder(DEBATES, latency_ms) as queue_debates:
                fleet.wait_ready([worker])
                queue_debates()
            cpu_before = sum(w.cpu_seconds() for w in fleet.workers)
            started = time.monotonic()
            wait_for(lambda: not fleet.query(
                "SELECT 1 FROM debates_debate WHERE status IN ('queued', 'running')"),
                timeout=900, what=f"{DEBATES} debates on {count} host(s)", fleet=fleet)
            elapsed = time.monotonic() - started
            cpu = sum(w.cpu_seconds() for w in fleet.workers) - cpu_before
            load = os.getloadavg()[0]
            first, last = fleet.query(
                "SELECT min(created_at), max(finished_at) FROM debates_debate WHERE id > %s",
                (last_id,))[0]
            span = (last - first).total_seconds()
            rates[count] = DEBATES / span * 60
            problems = fleet.ledger_problems()
            figures.append(Figure(
                area=AREA,
                name=f"{DEBATES} quick debates at once on {count} worker host(s)",
                value=rates[count], unit="debates/min",
                target=f"all {DEBATES} succeed, none twice", ok=not problems,
                detail=(f"{span:.1f} s first created → last finished; workers used "
                        f"{cpu / DEBATES:.2f} CPU s a debate ({cpu / elapsed:.2f} cores); "
                        f"load average {load:.1f} on {os.cpu_count()} cores; "
                        f"{settings.workers} workers a host; simulator {latency_ms} ms; "
                        f"PostgreSQL + Redis over veth links"
                        + (f"; PROBLEMS: {problems[:3]}" if problems else "")),
            ))
    figures.append(Figure(
        area=AREA, name=f"throughput, {HOSTS} hosts vs 1", value=rates[HOSTS] / rates[1],
        unit="×", detail=f"ideal {HOSTS}×: each host adds {settings.workers} workers"))
    return figures
