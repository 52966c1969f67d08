"""Live updates: event commit → websocket client latency, and bytes pushed per update.

On a throw-away site (``site.running_site``) a websocket client follows a new quick
debate while another process (standing in for a worker) runs it with the simulated
latency; every event's ``created_at`` (written in the same transaction that commits it)
is compared with the moment the client receives that event's activity line. Measured on
the embedded configuration (in-memory channel layer: the consumer polls the log every
0.5 s) and, when Redis answers, with the Redis channel layer (the doorbell crosses
processes). The bytes figure counts what the socket pushed per frame after the first
(the first one brings a page of unknown age up to date and sends every part).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import threading
import time
from pathlib import Path
from typing import Any

from bench.figures import Figure
from bench.site import ROOT, Site, running_site

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
TARGETS_MS = {"embedded": 1000.0, "redis": 150.0}
SEQ = re.compile(r'<li data-seq="(\d+)"')

CREATE = """
import json
from accounts.models import Team
from debates.engine.schemas import DebateConfig, SimulatorOptions
from debates.services import debate_create
team = Team.objects.get(name="Bench")
debate = debate_create(team=team, user=None, question=QUESTION,
                       config=DebateConfig(mode="quick", simulator=SimulatorOptions(
                           latency_ms=LATENCY)), start=False)
debate.refresh_from_db()
print(json.dumps({"code": str(debate.code), "seq": debate.last_event_seq}))
"""
RUN = """
import json
from debates.runtime.execution import run_to_completion
from debates.models import DebateEvent
run_to_completion(CODE)
print(json.dumps({e.seq: e.created_at.timestamp()
                  for e in DebateEvent.objects.filter(debate__code=CODE)}))
"""


class _Follower:
    """A websocket client on its own thread, noting when each event's line arrives."""

    def __init__(self, site: Site, code: str, after: int) -> None:
        self.url = (site.base_url.replace("http://", "ws://")
                    + f"/ws/debates/{code}/?after={after}")
        self.origin = site.base_url
        self.session = site.session
        self.arrived: dict[int, float] = {}
        self.frames: list[int] = []  # bytes per frame
        self.ready = threading.Event()
        self.loop: asyncio.AbstractEventLoop
        self.socket: Any
        self.close_code: int | None = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._follow()),
                                       daemon=True)

    async def _follow(self) -> None:
        import aiohttp  # litellm's own HTTP client: installed with it

        self.loop = asyncio.get_running_loop()
        async with aiohttp.ClientSession(cookies={"sessionid": self.session}) as http, \
                http.ws_connect(self.url, headers={"Origin": self.origin}) as socket:
            self.socket = socket
            self.ready.set()
            # No receive timeout: aiohttp treats one as a broken connection. __exit__
            # closes the socket instead, which ends this loop.
            async for message in socket:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                now = time.time()
                self.frames.append(len(message.data.encode()))
                for seq in SEQ.findall(message.data):
                    self.arrived.setdefault(int(seq), now)
            self.close_code = socket.close_code

    def __enter__(self) -> _Follower:
        self.thread.start()
        if not self.ready.wait(30):
            raise RuntimeError("the websocket did not connect")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.thread.is_alive():
            asyncio.run_coroutine_threadsafe(self.socket.close(), self.loop).result(10)
        self.thread.join(10)


def _follow_one_debate(site: Site, latency_ms: int) -> tuple[list[float], list[int]]:
    """(commit → client seconds per event, bytes per frame) for one quick debate."""
    create = CREATE.replace("LATENCY", str(latency_ms)).replace(
        "QUESTION", json.dumps("Should the support team move to a four-day week?"))
    created = json.loads(site.manage("shell", stdin=create).strip().splitlines()[-1])
    with _Follower(site, created["code"], created["seq"]) as follower:
        committed = json.loads(site.manage("shell", stdin=RUN.replace(
            "CODE", json.dumps(created["code"]))).strip().splitlines()[-1])
        deadline = time.monotonic() + 10
        last = max(int(s) for s in committed)
        while last not in follower.arrived and time.monotonic() < deadline:
            time.sleep(0.1)
    delays = [follower.arrived[int(seq)] - at for seq, at in committed.items()
              if int(seq) > created["seq"] and int(seq) in follower.arrived]
    if len(delays) < len(committed) - created["seq"]:
        raise RuntimeError(f"the websocket client missed events (socket closed with "
                           f"{follower.close_code}): {len(follower.frames)} frames, "
                           f"{sorted(follower.arrived)} of {sorted(committed)}")
    return delays, follower.frames


def redis_answers(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_timeout=1).ping())
    except Exception:  # noqa: BLE001 - no Redis here: that configuration is skipped
        return False


def configurations() -> dict[str, str | None]:
    """The channel layers to measure: the embedded one, and Redis when it answers."""
    return {"embedded": None, **({"redis": REDIS_URL} if redis_answers(REDIS_URL) else {})}


def measure(latency_ms: int = 500, *, root: Path = ROOT) -> list[Figure]:
    figures: list[Figure] = []
    layers = configurations()
    for name, redis_url in layers.items():
        with running_site(root=root, mode="quick", redis_url=redis_url) as site:
            delays, frames = _follow_one_debate(site, latency_ms)
        p95 = statistics.quantiles(delays, n=20, method="inclusive")[-1] * 1000
        target = TARGETS_MS[name]
        figures.append(Figure(
            "events", f"event commit → websocket client p95 ({name})", p95, "ms",
            target=f"≤ {target:g} ms", ok=p95 <= target,
            detail=f"quick debate at {latency_ms} ms per call, {len(delays)} events"))
        if name == "embedded":
            later = frames[1:] or frames
            figures.append(Figure(
                "events", "bytes pushed per update (after the first frame)",
                statistics.fmean(later) / 1024, "KB",
                detail=f"{len(frames)} frames, {sum(frames) / 1024:.0f} KB in all, first "
                       f"frame {frames[0] / 1024:.1f} KB (every part)"))
    if "redis" not in layers:
        figures.append(Figure("events", "event commit → websocket client p95 (redis)",
                              float("nan"), "ms", target="≤ 150 ms", ok=False,
                              detail=f"not measured: no Redis at {REDIS_URL}"))
    return figures
