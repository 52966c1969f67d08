"""Cold start: the first request naming a real model in fresh web processes, against a
warm one (issue 39; docs/performance.md, "Cold starts").

A throw-away site (``bench.site``) is served by ``manage.py serve`` with one model
configured against the bench's OpenAI-compatible stub (``model_stub``), and measured as
soon as /healthz first answers, without waiting for its processes to go idle: the
first ``POST /api/debates/`` naming that model (a new connection: it lands on whichever
web process the kernel picks), then ``WARM_REQUESTS`` more, each on a new connection.
A web process that imported litellm on the first such request, or was still importing
it in the background, answered it seconds late; one that loads the model stack before
it listens answers it as fast as the later ones. Also recorded: how long the site took
from ``manage.py serve`` to its first "ok" (where that loading now shows).

``python -m bench --only coldstart``; ``measure(root=...)`` points it at another
checkout for a before/after comparison.
"""

from __future__ import annotations

import json
import os
import statistics
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from bench.figures import Figure
from bench.model_stub import ModelStub
from bench.site import ROOT, Site, running_site

MODEL = "openai/stub-model"
WARM_REQUESTS = 4
TARGET_EXTRA_S = 1.0
QUESTION = "Should our 40-person SaaS company move its billing to usage-based pricing?"


def _post_debate(site: Site) -> float:
    """Seconds for one ``POST /api/debates/`` naming ``MODEL`` (a quick debate, which
    the workers then run against the stub)."""
    body = json.dumps({"question": QUESTION, "mode": "quick", "model": MODEL}).encode()
    request = urllib.request.Request(
        f"{site.base_url}/api/debates/", data=body, method="POST",
        headers={"Authorization": f"Bearer {site.token}", "Content-Type": "application/json",
                 "Connection": "close"})
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=120) as reply:
        reply.read()
        if reply.status != 201:
            raise RuntimeError(f"POST /api/debates/ answered {reply.status}")
    return time.monotonic() - started


@dataclass(frozen=True)
class ColdStart:
    start_to_healthy_s: float  # ``manage.py serve`` started → /healthz first "ok"
    first_s: float  # the first request naming the model
    warm_s: list[float]  # the ones after it


def run(root: Path = ROOT) -> ColdStart:
    """The site's start to first "ok", the first request, and the warm ones after it."""
    with ModelStub(0.05) as stub:
        models = {MODEL: {"api_base": stub.api_base, "api_key_env": "COUNCIL_BENCH_STUB_KEY"}}
        env = {"COUNCIL_MODELS": json.dumps(models), "COUNCIL_BENCH_STUB_KEY": "sk-bench",
               # Another checkout must not get our bytecode written into its tree.
               **({"PYTHONDONTWRITEBYTECODE": "1"} if root != ROOT else {})}
        with running_site(root=root, mode="quick", extra_env=env, settle=False) as site:
            first = _post_debate(site)
            warm = [_post_debate(site) for _ in range(WARM_REQUESTS)]
            return ColdStart(site.healthy_at - site.started_at, first, warm)


def measure(*, root: Path = ROOT) -> list[Figure]:
    load = os.getloadavg()[0]
    measured = run(root)
    first, warm = measured.first_s, statistics.median(measured.warm_s)
    extra = first - warm
    detail = (f"POST /api/debates/ naming {MODEL} (OpenAI-compatible stub), new connection "
              f"each, right after /healthz first answered; load {load:.1f} at the start")
    return [
        Figure("coldstart", "site start → first /healthz ok", measured.start_to_healthy_s, "s",
               detail="manage.py serve (default web processes and the worker cluster)"),
        Figure("coldstart", "first real-model request", first, "s", detail=detail),
        Figure("coldstart", f"warm request (median of the next {WARM_REQUESTS})", warm, "s",
               detail=f"{detail}; each: {', '.join(f'{w:.3f}' for w in measured.warm_s)} s"),
        Figure("coldstart", "first − warm", extra, "s", target=f"≤ {TARGET_EXTRA_S:g} s",
               ok=extra <= TARGET_EXTRA_S, detail=detail),
    ]
