"""The finished debate page under load: 20 clients in a closed loop.

Each client sends the next request as soon as its previous answer is read in full, so
the server's speed sets the pace (a closed loop; an open loop would measure the queue).
The load runs in its own process (aiohttp, one event loop) against ``manage.py serve``
on a throw-away site (``site.running_site``); one client alone gives the unloaded
latency. ``latency_ms`` is not used: no model is called.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.figures import Figure
from bench.site import ROOT, running_site

CLIENTS = 20
LOAD_SECONDS = 10.0
TARGET_P95_MS = 150.0


async def closed_loop(url: str, cookie: str, clients: int, seconds: float) -> list[float]:
    """Seconds per request of ``clients`` clients looping for ``seconds``."""
    import aiohttp  # litellm's own HTTP client: installed with it

    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def client(session: aiohttp.ClientSession) -> None:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            async with session.get(url, allow_redirects=False) as response:
                await response.read()
                if response.status != 200:
                    raise RuntimeError(f"GET {url}: {response.status}")
            latencies.append(time.perf_counter() - started)

    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(connector=connector,
                                     cookies={"sessionid": cookie}) as session:
        await asyncio.gather(*(client(session) for _ in range(clients)))
    return latencies


def run_load(url: str, cookie: str, clients: int, seconds: float) -> list[float]:
    """``closed_loop`` in a child process, so the load's CPU is not the measurer's."""
    code = ("import asyncio, json, sys; from bench.pages import closed_loop; "
            "print(json.dumps(asyncio.run(closed_loop(*json.loads(sys.argv[1])))))")
    done = subprocess.run([sys.executable, "-c", code, json.dumps([url, cookie, clients,
                                                                   seconds])],
                          cwd=ROOT, capture_output=True, text=True, timeout=seconds + 120)
    if done.returncode != 0:
        raise RuntimeError(f"the load client failed: {done.stderr[-1500:]}")
    return list(json.loads(done.stdout))


def _percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 \
        else values[0]


def measure(latency_ms: int = 500, *, root: Path = ROOT, clients: int = CLIENTS,
            seconds: float = LOAD_SECONDS) -> list[Figure]:
    del latency_ms  # pages call no model
    with running_site(root=root, mode="medium") as site:
        url = f"{site.base_url}/debates/{site.debate}/"
        run_load(url, site.session, 2, 2.0)  # warm-up: templates, the page cache
        alone = run_load(url, site.session, 1, 3.0)
        loaded = run_load(url, site.session, clients, seconds)
    p50_alone = statistics.median(alone) * 1000
    p50 = statistics.median(loaded) * 1000
    p95 = _percentile(loaded, 95) * 1000
    detail = (f"finished medium debate, manage.py serve (embedded), {clients} clients closed "
              f"loop for {seconds:g} s, {len(loaded)} requests")
    return [
        Figure("page", "finished debate page, one client alone: p50", p50_alone, "ms",
               detail="one client, 3 s"),
        Figure("page", f"finished debate page, {clients} clients: p50", p50, "ms",
               detail=detail),
        Figure("page", f"finished debate page, {clients} clients: p95", p95, "ms",
               target=f"≤ {TARGET_P95_MS:g} ms", ok=p95 <= TARGET_P95_MS, detail=detail),
        Figure("page", f"finished debate page, {clients} clients: throughput",
               len(loaded) / seconds, "req/s", detail=detail),
    ]
