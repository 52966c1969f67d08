"""Deciding in a real browser: an editor records the team's decision from the debate
page (desk), then the decision log, the debate page with its decision, My actions and
the calibration page are read on a 390 px phone with nothing wider than the screen and
every control a 44 px tap target."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from collab.models import Action
from debates.engine.schemas import DebateConfig
from debates.runtime.execution import run_to_completion
from debates.services import debate_create
from tests.web.browser_support import (
    PATIENCE_MS,
    SCREENSHOTS,
    SHORT_TARGETS,
    launch,
    real_password,
    require_chromium,
    shared_site,
    sign_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUESTION = "Should we move the billing service to a managed database next quarter?"
WIDE = """() => [...document.querySelectorAll('body *')].filter(el => !el.closest('thead'))
    .filter(el => el.getBoundingClientRect().right > 391)
    .map(el => el.tagName + '.' + el.className + ' '
         + Math.round(el.getBoundingClientRect().right))"""


def test_decide_on_desk_and_read_the_log_and_my_actions_on_a_phone(owner, member, team):
    require_chromium()
    real_password(owner, member)
    debate = debate_create(team=team, user=owner, question=QUESTION,
                           config=DebateConfig(mode="quick"), start=False)
    run_to_completion(debate.code)
    Action.objects.create(debate=debate, target_kind="risk", target_ref="R1",
                          title="Ask the vendor about exit costs and data export formats",
                          owner=member, due_date=timezone.localdate() + timedelta(days=3))
    with shared_site() as base:
        _drive(base, member.username, debate.code)
    assert debate.decision.rationale == "Cheaper after the freeze; the vendor agreed."


def _drive(base: str, member: str, code: object) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            def login(**options):  # noqa: ANN202 - a page
                page = browser.new_context(**options).new_page()
                page.set_default_timeout(PATIENCE_MS)
                sign_in(page, base, member)
                return page

            desk = login(viewport={"width": 1280, "height": 900})
            desk.goto(f"{base}/debates/{code}/")
            desk.click("text=Record the team's decision")
            desk.locator("#decision-form input[type=radio]").first.check()
            chosen = desk.locator("#decision-form input[type=radio]").first.get_attribute(
                "value")
            desk.fill("#id_rationale", "Cheaper after the freeze; the vendor agreed.")
            desk.click("#decision-form button[type=submit]")
            banner = desk.locator("#decision")
            expect(banner).to_contain_text(chosen or "")
            expect(banner).to_contain_text("Cheaper after the freeze")
            desk.screenshot(path=str(SCREENSHOTS / "debate-decision.png"))

            phone = login(viewport={"width": 390, "height": 844}, is_mobile=True,
                          has_touch=True)
            for path, text in ((f"/debates/{code}/", "Cheaper after the freeze"),
                               ("/decisions/", "1 decision"),
                               ("/actions/", "Ask the vendor"),
                               ("/calibration/", "Calibration")):
                phone.goto(base + path)
                expect(phone.locator("main")).to_contain_text(text)
                assert phone.evaluate("document.documentElement.scrollWidth") <= 390, \
                    (path, phone.evaluate(WIDE)[:15])
                if path != f"/debates/{code}/":
                    assert phone.evaluate(SHORT_TARGETS) == [], path
                if path == "/decisions/":
                    phone.screenshot(path=str(SCREENSHOTS / "decision-log-phone.png"),
                                     full_page=True)
        finally:
            browser.close()
