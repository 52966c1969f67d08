"""The debate list and the notification badge follow the live channel: a running
debate's row turns to its final status, and the badge counts the notification its end
sends, on a page that is never reloaded."""

from __future__ import annotations

import re

import pytest

from tests.web.browser_support import (
    PATIENCE_MS,
    launch,
    real_password,
    require_chromium,
    shared_site,
    sign_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_running_debates_row_and_the_badge_update_without_a_reload(owner, team):
    require_chromium()
    real_password(owner)
    # Slow calls: the debate is still running when the list opens.
    with shared_site(COUNCIL_SIM_LATENCY_MS="700") as base:
        from playwright.sync_api import expect, sync_playwright

        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.set_default_timeout(PATIENCE_MS)
                sign_in(page, base, owner.username)
                page.goto(f"{base}/debates/new")
                page.locator("#id_question").fill("Should we adopt a four-day week?")
                page.get_by_role("button", name="Start the debate").click()
                page.wait_for_url(f"{base}/debates/*/")
                code = page.url.rstrip("/").rsplit("/", 1)[-1]

                page.goto(f"{base}/")
                page.evaluate("window.__sameDocument = true")
                row = page.locator(f"#debate-row-{code}")
                expect(row).to_contain_text(re.compile("Queued|Running"))
                expect(page.locator("#nav-notifications .badge-unread")).to_have_count(0)
                expect(row).to_contain_text("Succeeded")
                expect(row.locator("td[data-label='stop reason']")).not_to_have_text("–")
                # The end notifies its author: the badge counts it, same channel.
                expect(page.locator("#nav-notifications .badge-unread")).to_have_text("1")
                assert page.evaluate("window.__sameDocument") is True
            finally:
                browser.close()
