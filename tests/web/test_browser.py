"""A real browser against a real daphne and a real django-q2 worker.

Sign in, start a debate from the form, watch rounds arrive over the websocket
without reloading, open the synthesis and download the Markdown export. The
screenshots land in docs/screenshots/ for people to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import PASSWORD
from tests.web.browser_support import (
    PATIENCE_MS,
    SCREENSHOTS,
    WATCHABLE,
    SharedSite,
    launch,
    real_password,
    require_chromium,
    shared_site,
    the_shared_site,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_submit_watch_rounds_live_read_synthesis_and_export(owner, team):
    require_chromium()
    real_password(owner)
    # The web process puts the simulator settings into the debate it creates.
    with shared_site(**WATCHABLE) as base:
        _drive_browser(base, owner.username, the_shared_site())


def _drive_browser(base: str, username: str, site: SharedSite) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900},
                                    accept_downloads=True)
            page.set_default_timeout(PATIENCE_MS)
            sockets: list[str] = []
            # The debate's own socket (every page also opens the site's /ws/live/).
            page.on("websocket", lambda ws: "/ws/debates/" in ws.url and sockets.append(ws.url))

            page.goto(f"{base}/accounts/login/")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", PASSWORD)
            page.click("main button[type=submit]")
            expect(page.locator("h1")).to_have_text("Debates")

            page.goto(f"{base}/debates/new")
            page.fill("#id_question", "Should we move our billing system to a new "
                                      "payment provider before the end of the year?")
            page.check("input[name=mode][value=quick]")
            page.click("details.advanced summary")
            # The lowest threshold: rounds usually run to the cap. (The simulated panel
            # can still agree to 0.009 in round 1; what follows needs only that events
            # keep coming after the restart, and the synthesis always does.)
            page.fill("#id_threshold", "0.01")
            page.fill("#id_max_rounds", "3")
            page.locator("#id_max_rounds").blur()
            expect(page.locator("#estimate")).to_contain_text("18 calls")
            page.click("form.debate-form button[type=submit]")
            page.wait_for_url(f"{base}/debates/*/")
            # Survives only as long as the page is never reloaded.
            page.evaluate("window.__sameDocument = true")
            live = page.locator("#debate-live")
            expect(live).to_have_attribute("data-ws", "open")

            rounds = page.locator("#debate-rounds")
            expect(rounds).to_contain_text("Round 1")
            expect(page.locator("#debate-agents .agent")).to_have_count(3)
            page.screenshot(path=str(SCREENSHOTS / "live-debate.png"), full_page=True)

            # The web server goes away mid-debate (a deploy, a crash) while the worker
            # keeps appending events; the page must reconnect and catch up on its own.
            seen = int(page.locator("#debate-seq").get_attribute("data-last-seq") or 0)
            site.stop_web()
            expect(live).to_have_attribute("data-ws", "closed")
            site.start_web()
            expect(live).to_have_attribute("data-ws", "open")
            assert len(sockets) >= 2, sockets
            resumed_from = int(sockets[-1].rsplit("after=", 1)[1])
            assert resumed_from >= seen > 0, (seen, sockets)

            expect(page.locator("#debate-chart svg polyline").first).to_be_visible()
            synthesis_link = page.get_by_role("link", name="Read the full synthesis")
            expect(synthesis_link).to_be_visible()
            assert page.evaluate("window.__sameDocument") is True
            assert "step-running" not in page.locator("#debate-stepper").inner_html()
            expect(page.locator("#debate-status")).to_contain_text("Stopped")
            # Nothing lost, nothing twice: the activity log holds every event once.
            last = int(page.locator("#debate-seq").get_attribute("data-last-seq") or 0)
            seqs = [int(x) for x in page.locator("#debate-activity li").evaluate_all(
                "items => items.map(li => li.dataset.seq)")]
            assert seqs == list(range(1, last + 1))

            synthesis_link.click()
            expect(page.locator("h1")).to_have_text("Council synthesis")
            expect(page.locator("#risks table")).to_be_visible()
            page.screenshot(path=str(SCREENSHOTS / "synthesis.png"), full_page=True)

            with page.expect_download() as download_info:
                page.locator(".exports-menu > summary").click()  # the Export menu
                page.get_by_role("link", name="Export Markdown").click()
            download = download_info.value
            assert download.suggested_filename.endswith(".md")
            text = Path(download.path()).read_text(encoding="utf-8")
            assert text.startswith("# Council synthesis")
            assert "## Convergence" in text
        finally:
            browser.close()
