"""Live lag: an event's commit → the change on screen, in a real browser, two viewers.

``events`` times commit → websocket frame; a reader sees the page only after htmx has
swapped the frame into the DOM, so this area opens the debate page in two Chromium
pages (two viewers, each with its own browser context and the member's session) while
another process (standing in for a worker) runs a quick debate with the simulated
latency. A ``MutationObserver`` installed before the page's own scripts notes, for
each activity line (``<li data-seq>``) added to the page, the browser's wall clock
(``performance.timeOrigin + performance.now()``; one machine, one clock), which is
compared with the event's ``created_at``, written in the transaction that commits it.
Issue 41 asks p90 ≤ 1 s on an idle machine (docs/performance.md, "Live lag").

Needs Debian's chromium (``/usr/bin/chromium``, as the browser tests); skipped
without it.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.events import CREATE, RUN, configurations
from bench.failure import AreaSkipped
from bench.figures import Figure
from bench.site import ROOT, Site, running_site

CHROMIUM = "/usr/bin/chromium"
TARGET_MS = 1000.0
VIEWERS = 2
# Before the page's scripts: note when each activity line first appears in the DOM.
OBSERVE = """
window.__seen = {};
new MutationObserver(function (records) {
  var now = performance.timeOrigin + performance.now();
  records.forEach(function (record) {
    record.addedNodes.forEach(function (node) {
      if (node.nodeType !== 1) { return; }
      var lines = node.matches("li[data-seq]") ? [node] : node.querySelectorAll("li[data-seq]");
      lines.forEach(function (line) {
        var seq = line.getAttribute("data-seq");
        if (!(seq in window.__seen)) { window.__seen[seq] = now; }
      });
    });
  });
}).observe(document, {childList: true, subtree: true});
"""


@contextmanager
def _viewers(site: Site, code: str) -> Iterator[list[Any]]:
    """``VIEWERS`` browser pages on the debate's page, each with its socket open."""
    from playwright.sync_api import sync_playwright

    host = site.base_url.split("//", 1)[1].split(":", 1)[0]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-background-networking"])
        try:
            pages = []
            for _ in range(VIEWERS):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                context.add_cookies([{"name": "sessionid", "value": site.session,
                                      "domain": host, "path": "/"}])
                context.add_init_script(OBSERVE)
                page = context.new_page()
                page.goto(f"{site.base_url}/debates/{code}/")
                page.wait_for_selector("#debate-live[data-ws='open']", timeout=30_000)
                pages.append(page)
            yield pages
        finally:
            browser.close()


def _lags_of_one_debate(site: Site, latency_ms: int) -> tuple[list[list[float]], int]:
    """Commit → screen seconds per event, one list per viewer, and the events' count."""
    create = CREATE.replace("LATENCY", str(latency_ms)).replace(
        "QUESTION", json.dumps("Should the support team move to a four-day week?"))
    created = json.loads(site.manage("shell", stdin=create).strip().splitlines()[-1])
    with _viewers(site, created["code"]) as pages:
        committed = {int(seq): at for seq, at in json.loads(site.manage(
            "shell", stdin=RUN.replace("CODE", json.dumps(created["code"])))
            .strip().splitlines()[-1]).items() if int(seq) > created["seq"]}
        last = max(committed)
        for page in pages:
            page.wait_for_function(f"'{last}' in window.__seen", timeout=30_000)
        seen = [{int(seq): at / 1000 for seq, at in page.evaluate("window.__seen").items()}
                for page in pages]
    missing = [sorted(set(committed) - set(viewer)) for viewer in seen]
    if any(missing):
        raise RuntimeError(f"a viewer never showed events {missing}")
    return [[viewer[seq] - at for seq, at in committed.items()] for viewer in seen], \
        len(committed)


def measure(latency_ms: int = 500, *, root: Path = ROOT) -> list[Figure]:
    if not os.path.exists(CHROMIUM):
        raise AreaSkipped(f"no browser at {CHROMIUM} (apt-get install chromium)")
    figures: list[Figure] = []
    for name, redis_url in configurations().items():
        with running_site(root=root, mode="quick", redis_url=redis_url) as site:
            started = time.monotonic()
            per_viewer, events = _lags_of_one_debate(site, latency_ms)
            took = time.monotonic() - started
        lags = sorted(lag for viewer in per_viewer for lag in viewer)
        deciles = statistics.quantiles(lags, n=10, method="inclusive")
        apart = max(abs(a - b) for a, b in zip(*per_viewer, strict=True))
        figures.append(Figure(
            "livelag", f"event commit → on screen p90 ({name}, {VIEWERS} viewers)",
            deciles[-1] * 1000, "ms", target=f"≤ {TARGET_MS:g} ms",
            ok=deciles[-1] * 1000 <= TARGET_MS,
            detail=f"median {statistics.median(lags) * 1000:.0f} ms, max "
                   f"{lags[-1] * 1000:.0f} ms over {events} events × {VIEWERS} viewers "
                   f"(quick debate at {latency_ms} ms per call, {took:.0f} s); the two "
                   f"viewers at most {apart * 1000:.0f} ms apart on one event"))
    return figures
