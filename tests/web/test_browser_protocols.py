"""The adversarial and workflow protocols in a real browser, against a real daphne and
django-q2 worker: start each from the form, watch its own structure arrive over the
websocket (rounds and the issue tally; phases and roles), then read its synthesis.
The screenshots land in docs/screenshots/."""

from __future__ import annotations

import pytest

from tests.conftest import PASSWORD
from tests.web.browser_support import (
    PATIENCE_MS,
    SCREENSHOTS,
    WATCHABLE,
    launch,
    real_password,
    require_chromium,
    shared_site,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADV_QUESTION = "Design the API and database schema for a multi-tenant rate limiter"
WF_QUESTION = "Should we adopt a four-day week for the support team?"


def test_adversarial_and_workflow_debates_live_and_synthesis(owner, team):
    require_chromium()
    real_password(owner)
    with shared_site(**WATCHABLE) as base:
        _drive(base, owner.username)


def _start_debate(page, base: str, question: str, protocol: str, mode: str,
                  max_rounds: int | None = None) -> None:
    page.goto(f"{base}/debates/new")
    page.fill("#id_question", question)
    page.check(f"input[name=protocol][value={protocol}]")
    page.check(f"input[name=mode][value={mode}]")
    if max_rounds is not None:
        page.click("details.advanced summary")
        page.fill("#id_max_rounds", str(max_rounds))
    page.click("form.debate-form button[type=submit]")
    page.wait_for_url(f"{base}/debates/*/")


def _drive(base: str, username: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(PATIENCE_MS)
            page.goto(f"{base}/accounts/login/")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", PASSWORD)
            page.click("main button[type=submit]")
            expect(page.locator("h1")).to_have_text("Debates")

            # Adversarial: rounds in the stepper, proposer and critic, the issue tally.
            # Three rounds at most: a shorter test, the same structure.
            _start_debate(page, base, ADV_QUESTION, "adversarial", "medium", max_rounds=3)
            page.evaluate("window.__sameDocument = true")
            expect(page.locator("#debate-live")).to_have_attribute("data-ws", "open")
            stepper, agents = page.locator("#debate-stepper"), page.locator("#debate-agents")
            expect(stepper).to_contain_text("round 1")
            expect(stepper).not_to_contain_text("premortem")
            expect(agents.locator("h2")).to_have_text("Proposer and critic")
            expect(agents.locator(".agent")).to_have_count(2)
            expect(page.locator("#debate-chart")).to_contain_text("1/3")
            expect(agents).to_contain_text("issues raised")
            page.screenshot(path=str(SCREENSHOTS / "adversarial-live.png"), full_page=True)
            synthesis = page.get_by_role("link", name="Read the full synthesis")
            expect(synthesis).to_be_visible()
            assert page.evaluate("window.__sameDocument") is True
            assert "step-running" not in stepper.inner_html()
            expect(page.locator("#adversarial-proposal")).to_be_visible()
            page.screenshot(path=str(SCREENSHOTS / "adversarial-debate.png"), full_page=True)
            synthesis.click()
            expect(page.locator("#key-decisions")).to_be_visible()
            page.screenshot(path=str(SCREENSHOTS / "adversarial-synthesis.png"),
                            full_page=True)

            # Workflow (deep): phases in the stepper, the three roles, no chart.
            _start_debate(page, base, WF_QUESTION, "workflow", "deep")
            page.evaluate("window.__sameDocument = true")
            expect(page.locator("#debate-live")).to_have_attribute("data-ws", "open")
            expect(stepper).to_contain_text("phase 1")
            expect(stepper).to_contain_text("convergence check")
            expect(agents.locator("h2")).to_have_text("Roles")
            expect(agents.locator(".agent")).to_have_count(3)
            expect(page.locator("#debate-chart")).to_have_count(0)
            expect(agents).to_contain_text("phase 2 contract")
            synthesis = page.get_by_role("link", name="Read the full synthesis")
            expect(synthesis).to_be_visible()
            assert page.evaluate("window.__sameDocument") is True
            expect(page.locator("#workflow-convergence")).to_be_visible()
            page.screenshot(path=str(SCREENSHOTS / "workflow-debate.png"), full_page=True)
            synthesis.click()
            expect(page.locator("#next-steps")).to_be_visible()
            page.screenshot(path=str(SCREENSHOTS / "workflow-synthesis.png"), full_page=True)
        finally:
            browser.close()
