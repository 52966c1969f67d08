"""Live-page websockets under load: ``VIEWERS`` viewers on ``DEBATES`` running debates.

On a throw-away site (``manage.py serve``: the scale-out configuration, a PostgreSQL
database of its own and Redis when they answer, else the embedded one, said in the
detail) ``DEBATES`` debates are started on the simulated model, slowed down so they
still run while measured, and ``VIEWERS`` sockets open at once on ``/ws/debates/<code>/``,
spread over them, with a member's session. A socket counts as connected when its
handshake completes and it receives the page's fragments without being closed; the
handshake times (until the 101 answer) and the first fragment's are reported. Issue 39
measured 25 of 25 sockets reset during the handshake at 20 debates and 50 viewers while
the consumer read the database before accepting. ``COUNCIL_BENCH_VIEWERS`` and
``COUNCIL_BENCH_DEBATES`` change the load.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from contextlib import ExitStack
from pathlib import Path

from bench.events import redis_answers
from bench.figures import Figure
from bench.site import ROOT, Site, running_site

VIEWERS = int(os.environ.get("COUNCIL_BENCH_VIEWERS") or 50)
DEBATES = int(os.environ.get("COUNCIL_BENCH_DEBATES") or 20)
# Each simulated call waits this long, so a quick debate runs for a while on 2 workers.
SIM_LATENCY_MS = 400
# What a browser would wait for a handshake and its first fragment before giving up.
PATIENCE_S = 30.0

# Run by ``manage.py shell``: DEBATES started debates of the seeded member's team.
SEED = """
import json
from accounts.models import Team
from debates.engine.schemas import DebateConfig
from debates.services import debate_create
team = Team.objects.get(name="Bench")
user = team.memberships.get().user
codes = [str(debate_create(team=team, user=user, question=f"Socket load {n}?",
                           config=DebateConfig(mode="quick")).code) for n in range(COUNT)]
print(json.dumps(codes))
"""


def _postgres_answers() -> bool:
    from bench.streams import POSTGRES_URL

    try:
        import psycopg

        with psycopg.connect(POSTGRES_URL, connect_timeout=2):
            return True
    except Exception:  # noqa: BLE001 - no PostgreSQL here: the embedded configuration
        return False


async def _viewer(site: Site, code: str) -> dict[str, float | str]:
    import aiohttp

    url = site.base_url.replace("http://", "ws://") + f"/ws/debates/{code}/?after=0"
    started = time.monotonic()
    try:
        async with aiohttp.ClientSession() as http:
            # The cookie as a header: aiohttp's jar keeps none for an IP address.
            opening = http.ws_connect(url, origin=site.base_url,
                                      headers={"Cookie": f"sessionid={site.session}"})
            async with await asyncio.wait_for(opening, PATIENCE_S) as ws:
                handshake = time.monotonic() - started
                message = await ws.receive(timeout=PATIENCE_S)
                first = time.monotonic() - started
                if message.type != aiohttp.WSMsgType.TEXT:
                    return {"outcome": f"closed {ws.close_code}", "handshake": handshake}
                return {"outcome": "connected", "handshake": handshake, "first": first}
    except (aiohttp.ClientError, TimeoutError, OSError) as exc:
        return {"outcome": f"{type(exc).__name__}: {exc}"[:120],
                "handshake": time.monotonic() - started}


def _quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


async def _all_viewers(site: Site, codes: list[str]) -> list[dict[str, float | str]]:
    return list(await asyncio.gather(*(_viewer(site, codes[n % len(codes)])
                                       for n in range(VIEWERS))))


def _load() -> float:
    return os.getloadavg()[0]


def measure(*, root: Path = ROOT) -> list[Figure]:
    from bench.streams import REDIS_URL, _database

    scaleout = _postgres_answers()
    redis_url = REDIS_URL if scaleout and redis_answers(REDIS_URL) else None
    with ExitStack() as stack:
        env = {"COUNCIL_SIM_LATENCY_MS": str(SIM_LATENCY_MS)}
        if scaleout:
            _, env["DATABASE_URL"] = stack.enter_context(_database())
        site = stack.enter_context(running_site(root=root, mode="quick", redis_url=redis_url,
                                                extra_env=env))
        codes = json.loads(site.manage("shell", stdin=SEED.replace("COUNT", str(DEBATES)))
                           .strip().splitlines()[-1])
        load = _load()
        results = asyncio.run(_all_viewers(site, codes))
    connected = [r for r in results if r["outcome"] == "connected"]
    others: dict[str, int] = {}
    for r in results:
        if r["outcome"] != "connected":
            others[str(r["outcome"])] = others.get(str(r["outcome"]), 0) + 1
    handshakes = [float(r["handshake"]) for r in connected]
    firsts = [float(r["first"]) for r in connected]
    config = ("scale-out (PostgreSQL" + (", Redis)" if redis_url else ", no Redis answered)")
              if scaleout else "embedded (SQLite, in-memory channel layer: no PostgreSQL "
              "answered)")
    detail = (f"{VIEWERS} viewers on {DEBATES} running debates, {config}; load "
              f"{load:.1f} at the start on {os.cpu_count()} cores"
              + (f"; not connected: {others}" if others else ""))
    return [
        Figure("sockets", "websocket viewers connected", len(connected), f"of {VIEWERS}",
               target=f"{VIEWERS}", ok=len(connected) == VIEWERS, detail=detail),
        Figure("sockets", "websocket handshake, p50", _quantile(handshakes, 0.5) * 1000, "ms",
               detail=f"p95 {_quantile(handshakes, 0.95) * 1000:.0f} ms, max "
                      f"{max(handshakes, default=0) * 1000:.0f} ms (until the 101 answer)"),
        Figure("sockets", "first fragments after connecting, p50",
               _quantile(firsts, 0.5) * 1000, "ms",
               detail=f"p95 {_quantile(firsts, 0.95) * 1000:.0f} ms, max "
                      f"{max(firsts, default=0) * 1000:.0f} ms"),
    ]
