"""Waiting clients on PostgreSQL: what 200 open event streams cost the database.

On a throw-away scale-out site (``manage.py serve`` on a fresh PostgreSQL database, Redis
for the cache and channel layer when it answers) one API token opens ``STREAMS`` event
streams (``/api/debates/{code}/events/stream``) on a running debate and keeps them open.
The connections are counted in ``pg_stat_activity`` (the site's database only; those of
the daphne processes told apart by their client ports, ``ss -tnp``) before, while the
streams open and while they wait; meanwhile ordinary requests must all still answer
200. A waiting stream should hold no connection of its own: a web process holds at most
5 whatever the number of streams, its 4 pool threads' and the shared thread's that does
every stream's short reads.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.events import redis_answers
from bench.figures import Figure
from bench.site import ROOT, Site, running_site

POSTGRES_URL = os.environ.get("POSTGRES_URL") or "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
STREAMS = 200
WEB_PROCESSES = 2
# A web process's bound: its 4 pool threads (sync views) and the one shared thread that
# runs every coroutine view's sync parts (site_edge.dispatch).
WEB_CONNECTIONS = 5
ORDINARY_REQUESTS = 100

# Run by ``manage.py shell``: a running (queued, never started) debate and a token.
SEED = """
import json
from accounts.models import Team
from accounts.services import api_token_create
from debates.engine.schemas import DebateConfig
from debates.services import debate_create
team = Team.objects.get(name="Bench")
debate = debate_create(team=team, user=team.memberships.get().user, question="Streams?",
                       config=DebateConfig(mode="quick"), start=False)
_, secret = api_token_create(user=team.memberships.get().user, name="bench streams")
print(json.dumps({"code": str(debate.code), "secret": secret}))
"""


@contextmanager
def _database() -> Iterator[tuple[str, str]]:
    """A database of its own (name, URL), dropped afterwards."""
    import psycopg
    from psycopg import sql

    name = f"council_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=2) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield name, f"{POSTGRES_URL.rpartition('/')[0]}/{name}"
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=2) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))


def _web_ports() -> set[int]:
    """Local ports of the TCP connections to PostgreSQL that daphne processes hold."""
    listing = subprocess.run(["ss", "-tnpH", "dport", "= :5432"], capture_output=True,
                             text=True, check=True).stdout
    ports = set()
    for line in listing.splitlines():
        pids = re.findall(r"pid=(\d+)", line)
        local = line.split()[3]
        if pids and "daphne" in Path(f"/proc/{pids[0]}/cmdline").read_text(errors="replace"):
            ports.add(int(local.rpartition(":")[2]))
    return ports


class _Counter:
    """Samples the site's connections (all, and the web processes') every 0.2 s on a
    thread of its own."""

    def __init__(self, database: str) -> None:
        import psycopg

        self.conn = psycopg.connect(POSTGRES_URL, autocommit=True)
        self.database = database
        self.samples: list[tuple[int, int]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> tuple[int, int]:
        """(the site's connections, those of its web processes)."""
        rows = self.conn.execute("SELECT client_port FROM pg_stat_activity "
                                 "WHERE datname = %s", (self.database,)).fetchall()
        web = _web_ports()
        return len(rows), sum(1 for (port,) in rows if port in web)

    def peak(self) -> tuple[int, int]:
        samples = self.samples or [self.now()]
        return max(s[0] for s in samples), max(s[1] for s in samples)

    def _run(self) -> None:
        while not self.stop.wait(0.2):
            self.samples.append(self.now())

    def __enter__(self) -> _Counter:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)


async def _streams_and_requests(site: Site, code: str, secret: str, counter: _Counter
                                ) -> dict[str, float]:
    import aiohttp

    headers = {"Authorization": f"Bearer {secret}"}
    stream_url = f"{site.base_url}/api/debates/{code}/events/stream"
    opened = asyncio.Event()
    ready = 0
    hold = asyncio.Event()

    async def one_stream(http: aiohttp.ClientSession) -> int:
        nonlocal ready
        async with http.get(stream_url, headers=headers) as response:
            if response.status != 200:
                return response.status
            async for line in response.content:
                if line.startswith(b"event: debate_created"):
                    break
            ready += 1
            if ready == STREAMS:
                opened.set()
            await hold.wait()
            return 200

    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=300)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        # Warm up first: every pool thread of every web process opens the connection it
        # keeps, so ``before`` is the site's steady count without streams.
        async def ordinary() -> None:
            async with http.get(f"{site.base_url}/debates/{site.debate}/",
                                cookies={"sessionid": site.session}) as response:
                await response.read()

        for _ in range(5):
            await asyncio.gather(*(ordinary() for _ in range(8 * WEB_PROCESSES)))
        before = counter.now()
        started = time.monotonic()
        streams = [asyncio.create_task(one_stream(http)) for _ in range(STREAMS)]
        await asyncio.wait_for(opened.wait(), 240)
        open_seconds = time.monotonic() - started
        during_opening = counter.peak()
        counter.samples.clear()
        # Ordinary requests while every stream waits: a sync API route and a page.
        statuses = []
        latencies = []
        for i in range(ORDINARY_REQUESTS):
            url = (f"{site.base_url}/api/debates/{code}/events" if i % 2 else
                   f"{site.base_url}/debates/{site.debate}/")
            sent = time.monotonic()
            async with http.get(url, headers=headers if i % 2 else None,
                                cookies=None if i % 2 else {"sessionid": site.session}
                                ) as response:
                await response.read()
                statuses.append(response.status)
            latencies.append(time.monotonic() - sent)
        await asyncio.sleep(3)  # a few polls of every stream, sampled
        while_waiting = counter.peak()
        hold.set()
        stream_statuses = await asyncio.gather(*streams)
    latencies.sort()
    return {"before": before[0], "opening": during_opening[0], "waiting": while_waiting[0],
            "web_before": before[1], "web_opening": during_opening[1],
            "web_waiting": while_waiting[1], "open_seconds": open_seconds,
            "ok": sum(s == 200 for s in statuses), "streams_ok": stream_statuses.count(200),
            "p95_ms": latencies[int(len(latencies) * 0.95) - 1] * 1000}


def measure(*, root: Path = ROOT) -> list[Figure]:
    redis_url = REDIS_URL if redis_answers(REDIS_URL) else None
    with _database() as (name, url), running_site(
            root=root, mode="quick", redis_url=redis_url,
            extra_env={"DATABASE_URL": url, "COUNCIL_STREAMS_PER_USER": str(STREAMS),
                       "COUNCIL_STREAMS_PER_TOKEN": str(STREAMS),
                       "COUNCIL_WEB_PROCESSES": str(WEB_PROCESSES)}) as site:
        seeded = json.loads(site.manage("shell", stdin=SEED).strip().splitlines()[-1])
        with _Counter(name) as counter:
            got = asyncio.run(_streams_and_requests(site, seeded["code"], seeded["secret"],
                                                    counter))
    bound = WEB_CONNECTIONS * WEB_PROCESSES
    config = (f"{STREAMS} streams of one token, {WEB_PROCESSES} web processes, "
              f"{'Redis' if redis_url else 'local-memory'} cache")
    peak = max(got["web_opening"], got["web_waiting"])
    return [
        Figure("streams", f"web processes' PostgreSQL connections, {STREAMS} streams open",
               peak, "", target=f"≤ {bound}", ok=peak <= bound,
               detail=f"{config}; {got['web_before']:.0f} before, {got['web_opening']:.0f} "
                      f"at most while they opened (in {got['open_seconds']:.1f} s), "
                      f"{got['web_waiting']:.0f} while they waited; the whole site "
                      f"(workers too): {got['before']:.0f} before, at most "
                      f"{max(got['opening'], got['waiting']):.0f}"),
        Figure("streams", "ordinary requests answered 200 meanwhile",
               got["ok"], f"of {ORDINARY_REQUESTS}", target=f"{ORDINARY_REQUESTS}",
               ok=got["ok"] == ORDINARY_REQUESTS and got["streams_ok"] == STREAMS,
               detail=f"a page and GET /events in turn, one at a time; p95 "
                      f"{got['p95_ms']:.0f} ms; {got['streams_ok']:.0f} streams answered"),
    ]
