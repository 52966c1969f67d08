"""The site's own pages run under their Content-Security-Policy in a real browser.

Chromium walks the debate list, the new-debate form with its live estimate, a debate
page that fills in over its websocket, the synthesis with its comments, a comment
posted through htmx, the print view and the team page. Every policy violation the
browser reports (the ``securitypolicyviolation`` event, or a "Content Security
Policy" message in the console) fails the test, and the live page must still update.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import PASSWORD
from tests.web.browser_support import (
    PATIENCE_MS,
    WATCHABLE,
    launch,
    real_password,
    require_chromium,
    shared_site,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs before any script of each page; reports to the test through an exposed function.
LISTEN = """document.addEventListener("securitypolicyviolation", function (e) {
  window.reportViolation([e.violatedDirective, e.blockedURI, e.sourceFile + ":" + e.lineNumber,
                          e.sample].join(" "));
});"""


def test_main_pages_run_with_no_policy_violation_and_the_live_page_updates(
        owner, team):
    require_chromium()
    real_password(owner)
    with shared_site(**WATCHABLE) as base:
        from playwright.sync_api import expect, sync_playwright

        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                violations: list[str] = []
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.set_default_timeout(PATIENCE_MS)
                page.expose_function("reportViolation", lambda text: violations.append(text))
                page.add_init_script(LISTEN)
                page.on("console", lambda m: violations.append(f"console: {m.text}")
                        if "Content Security Policy" in m.text else None)

                def visit(path: str) -> Any:
                    response = page.goto(f"{base}{path}")
                    assert response is not None and response.ok, path
                    assert "script-src 'self'" in response.headers["content-security-policy"]
                    return response

                visit("/accounts/login/")
                page.fill("input[name=username]", owner.username)
                page.fill("input[name=password]", PASSWORD)
                page.click("main button[type=submit]")
                expect(page.locator("h1")).to_have_text("Debates")
                visit("/")
                with page.expect_response(lambda r: "q=billing" in r.url):
                    page.fill("#id_q", "billing")  # the list filters through htmx

                visit("/debates/new")
                page.fill("#id_question", "Should we move our billing system to a new "
                                          "payment provider before the end of the year?")
                page.check("input[name=mode][value=quick]")
                expect(page.locator("#estimate")).to_contain_text("calls")
                page.click("form.debate-form button[type=submit]")
                page.wait_for_url(f"{base}/debates/*/")
                code = page.url.rstrip("/").rsplit("/", 1)[1]
                expect(page.locator("#debate-live")).to_have_attribute("data-ws", "open")
                expect(page.locator("#debate-rounds")).to_contain_text("Round 1")
                synthesis = page.get_by_role("link", name="Read the full synthesis")
                expect(synthesis).to_be_visible()
                expect(page.locator("#debate-agents .agent .swatch")).to_have_count(3)

                visit(f"/debates/{code}/synthesis")
                expect(page.locator("#comments-panel")).to_be_visible()  # loaded by htmx
                visit(f"/debates/{code}/comments/")
                page.fill("#id_body", "Is the migration window long enough?")
                page.click("#new-comment button[type=submit]")
                expect(page.locator(".comment").first).to_contain_text("migration window")
                visit(f"/debates/{code}/print")
                visit(f"/teams/{team.code}/")
                expect(page.locator("h1")).to_contain_text(team.name)
                assert violations == []

                # The listener does hear a violation: a style attribute is refused.
                page.evaluate("document.body.setAttribute('style', 'color: red')")
                for _ in range(300):  # the report arrives asynchronously; up to 30 s
                    if violations:
                        break
                    page.wait_for_timeout(100)
                assert violations and "style-src" in violations[0], violations
            finally:
                browser.close()
