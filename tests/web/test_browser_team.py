"""The team's daily loop in a real browser: find a past debate by searching, see a
notification arrive (sent by a real django-q2 worker) without reloading, and read the
synthesis on a 390 px phone. Screenshots land in docs/screenshots/."""

from __future__ import annotations

import pytest

from debates.engine.schemas import DebateConfig
from debates.runtime.execution import run_to_completion
from debates.services import debate_create
from tests.web.browser_support import (
    PATIENCE_MS,
    SCREENSHOTS,
    launch,
    real_password,
    require_chromium,
    shared_site,
    sign_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LISBON = "Should we open an office in Lisbon next spring?"
HIRING = "Should we hire a second SRE before the migration?"


def test_search_a_notification_arriving_and_the_synthesis_on_a_phone(owner, member, team):
    require_chromium()
    real_password(owner, member)
    debates = {}
    for question in (LISBON, HIRING):
        # Started by no one (as a CLI --save is): the owner's first notification must be
        # the mention below, not "your debate finished".
        debate = debate_create(team=team, user=None, question=question,
                               config=DebateConfig(mode="quick"), start=False)
        run_to_completion(debate.code)
        debates[question] = debate
    with shared_site() as base:
        _drive(base, owner.username, member.username, debates[LISBON].code)


def _drive(base: str, owner: str, member: str, code: object) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            def login(username: str, **options):  # noqa: ANN202 - a page
                page = browser.new_context(**options).new_page()
                page.set_default_timeout(PATIENCE_MS)
                sign_in(page, base, username)
                return page

            # --- find a past debate: results refresh as one types, the URL follows.
            desk = login(owner, viewport={"width": 1280, "height": 900})
            rows = desk.locator("table.debate-list tbody tr")
            expect(rows).to_have_count(2)
            desk.fill("#id_q", "Lisbon")
            expect(rows).to_have_count(1)
            expect(rows.first).to_contain_text("Lisbon")
            assert "q=Lisbon" in desk.url
            desk.screenshot(path=str(SCREENSHOTS / "debate-search.png"), full_page=True)
            expect(desk.locator("#nav-notifications .badge-unread")).to_have_count(0)

            # --- a notification arrives: member mentions owner; the worker sends it and
            # the owner's open page shows the count without a reload.
            desk.evaluate("window.__sameDocument = true")
            other = login(member, viewport={"width": 1280, "height": 900})
            other.goto(f"{base}/debates/{code}/comments/")
            other.fill("#id_body", f"@{owner} is the Lisbon lease risk real?")
            other.click("#new-comment button[type=submit]")
            expect(other.locator(".comment").first).to_contain_text("Lisbon lease")
            badge = desk.locator("#nav-notifications .badge-unread")
            expect(badge).to_have_text("1")
            assert desk.evaluate("window.__sameDocument") is True
            desk.click("#nav-notifications")
            expect(desk.locator(".notification.unread")).to_contain_text(
                f"{member} mentioned you")
            desk.screenshot(path=str(SCREENSHOTS / "notifications.png"), full_page=True)
            desk.locator(".notification-title").first.click()
            desk.wait_for_url(f"{base}/debates/{code}/comments/*")
            expect(desk.locator("#nav-notifications .badge-unread")).to_have_count(0)

            # --- the synthesis on a phone: stacked rows, nothing wider than the screen.
            phone = login(owner, viewport={"width": 390, "height": 844}, is_mobile=True,
                          has_touch=True)
            phone.goto(f"{base}/debates/{code}/synthesis")
            expect(phone.locator("h1")).to_have_text("Council synthesis")
            # (The stacked tables' header rows are clipped to 1 px for screen readers.)
            wide = phone.evaluate("""() => [...document.querySelectorAll('body *')]
                .filter(el => !el.closest('thead'))
                // The header's link rows scroll sideways by design (test_browser_phone_walk).
                .filter(el => !el.closest('.nav-links, .nav-user'))
                .filter(el => el.getBoundingClientRect().right > 391)
                .map(el => el.tagName + '.' + el.className + '#' + el.id + ' '
                     + Math.round(el.getBoundingClientRect().right))""")
            assert wide == [], wide[:15]
            cell = phone.locator("#risks table td[data-label=raised\\ by]").first
            assert cell.evaluate("el => getComputedStyle(el).display") == "block"
            label = cell.evaluate("el => getComputedStyle(el, '::before').content")
            assert "raised by" in label
            for table in phone.locator("table.stack-table").all():
                box = table.bounding_box()
                assert box is not None and box["width"] <= 390
            small = phone.evaluate("""() => [...document.querySelectorAll(
                'main button, main .button, nav a')].filter(el => el.offsetParent)
                .map(el => [el.textContent.trim(), el.getBoundingClientRect().height])
                .filter(([, h]) => h < 44)""")
            assert small == [], small
            phone.screenshot(path=str(SCREENSHOTS / "synthesis-phone.png"), full_page=True)
            phone.goto(f"{base}/debates/{code}/")
            expect(phone.locator("#debate-status")).to_be_visible()
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390, phone.evaluate(
                """() => [...document.querySelectorAll('body *')].filter(el => !el.closest(
                'thead') && el.getBoundingClientRect().right > 391).map(el => el.tagName
                + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))""")
            phone.screenshot(path=str(SCREENSHOTS / "debate-phone.png"), full_page=True)
        finally:
            browser.close()
