"""An evaluation of 100 questions × single, vote, council on the simulated model, run by
the embedded site's own workers (``manage.py serve``), and the finished debate page's
latency while it runs (20 clients, closed loop, as in bench/pages.py).

Two runs: the simulated population (``sim_accuracy`` 0.6: no engine call, the site's
own overhead per question), and the engine path (model ``sim/default`` without a
simulated accuracy: a simulated debate per question). Until the engine path answers,
its questions fail with the engine's message and the figure says so.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.figures import Figure
from bench.pages import CLIENTS, TARGET_P95_MS, run_load
from bench.site import ROOT, Site, running_site

QUESTIONS = 100
ARMS = ["single", "vote", "council"]
# The load runs in slices while the evaluation runs, so its p95 covers the run only.
SLICE_SECONDS = 3.0
MAX_RUN_SECONDS = 240.0

TOKEN = """
from django.contrib.auth import get_user_model
from accounts.services import api_token_create
_, secret = api_token_create(user=get_user_model().objects.get(username="bench"), name="bench")
print(secret)
"""


def _api(site: Site, token: str, method: str, path: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        f"{site.base_url}/api{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def _percentile(values: list[float], q: int) -> float:
    return (statistics.quantiles(values, n=100, method="inclusive")[q - 1]
            if len(values) > 1 else values[0])


def _run(site: Site, token: str, spec: dict[str, Any]) -> tuple[dict[str, Any], list[float]]:
    """Starts the evaluation, loads the debate page until it ends: its final state and
    the page's latencies meanwhile."""
    url = f"{site.base_url}/debates/{site.debate}/"
    latencies: list[float] = []
    done = threading.Event()

    def load() -> None:
        while not done.is_set():
            latencies.extend(run_load(url, site.session, CLIENTS, SLICE_SECONDS))

    loader = threading.Thread(target=load, daemon=True)
    loader.start()
    code = _api(site, token, "POST", "/evaluations/", spec)["code"]
    deadline = time.monotonic() + MAX_RUN_SECONDS
    state: dict[str, Any] = {}
    while time.monotonic() < deadline:
        state = _api(site, token, "GET", f"/evaluations/{code}")
        if state["status"] not in ("queued", "running"):
            break
        time.sleep(0.2)
    done.set()
    loader.join()
    return state, latencies


def _wall(state: dict[str, Any]) -> float:
    if not state.get("finished_at"):
        return float("nan")
    return (datetime.fromisoformat(state["finished_at"])
            - datetime.fromisoformat(state["created_at"])).total_seconds()


def _figures(label: str, state: dict[str, Any], latencies: list[float]) -> list[Figure]:
    failed = state.get("failed_questions", 0)
    detail = (f"{state.get('done', 0)} of {QUESTIONS} questions stored, {failed} failed, "
              f"status {state.get('status')}; manage.py serve (embedded), SQLite")
    if failed == QUESTIONS:
        detail += "; every question failed: the engine path does not answer yet"
    p95 = _percentile(latencies, 95) * 1000 if latencies else float("nan")
    return [
        Figure("evaluations", f"{QUESTIONS} questions × {','.join(ARMS)}, {label}: wall",
               _wall(state), "s", detail=detail),
        Figure("evaluations", f"finished debate page while it runs ({label}), "
               f"{CLIENTS} clients: p95", p95, "ms", target=f"≤ {TARGET_P95_MS:g} ms",
               ok=p95 <= TARGET_P95_MS,
               detail=f"{len(latencies)} requests in {SLICE_SECONDS:g} s slices over the run"),
    ]


def measure(latency_ms: int = 500, *, root: Path = ROOT) -> list[Figure]:
    del latency_ms  # the simulated model answers at once
    with running_site(root=root, mode="quick") as site:
        token = site.manage("shell", stdin=TOKEN).strip().splitlines()[-1]
        page = f"{site.base_url}/debates/{site.debate}/"
        run_load(page, site.session, 2, 2.0)  # warm-up
        # The same page the same way with no evaluation running: what the runs compare to.
        rest = run_load(page, site.session, CLIENTS, SLICE_SECONDS)
        figures = [Figure("evaluations", f"finished debate page, no evaluation running, "
                          f"{CLIENTS} clients: p95", _percentile(rest, 95) * 1000, "ms",
                          detail=f"{len(rest)} requests in one {SLICE_SECONDS:g} s slice")]
        base = {"set": "compare", "n": QUESTIONS, "arms": ARMS, "agents": 5,
                "model": "sim/default"}
        for label, spec in (("simulated population 0.6", {**base, "sim_accuracy": 0.6}),
                            ("engine path, sim/default", base)):
            state, latencies = _run(site, token, spec)
            figures += _figures(label, state, latencies)
    return figures
