"""Closing the loop in a real browser, on a desk and on a phone: record the team's
decision on a finished debate, review it (which option proved right), and read the
calibration page, and the decision log with each outcome. On the phone no page is wider
than the screen and the log's and calibration's controls are 44 px tap targets.
Screenshots of the
calibration page, and of what the first debate changed on its page, land in
docs/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from debates.engine.schemas import DebateConfig, SimulatorOptions
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

OPTIONS = ["Kafka", "SQS"]
# Three composed personas with pinned final verdicts: two say Kafka, one SQS.
SCRIPT = {"agents": [
    {"name": "Ana", "position_verdict": "Kafka", "position_confidence": 0.8},
    {"name": "Ben", "position_verdict": "Kafka", "position_confidence": 0.6},
    {"name": "Cleo", "position_verdict": "SQS", "position_confidence": 0.7},
]}
# The first debate: Ben and Cleo come round to Kafka, so the debate flips the first vote.
FLIP = {"agents": [
    {"name": "Ana", "position_verdict": "Kafka", "position_confidence": 0.8},
    {"name": "Ben", "position_verdict": "SQS", "position_confidence": 0.6,
     "rounds": [{"updated_verdict": "Kafka", "concessions": ["replays matter"]}]},
    {"name": "Cleo", "position_verdict": "SQS", "position_confidence": 0.7,
     "rounds": [{"updated_verdict": "Kafka"}]},
]}
CHANGED = ("First vote: SQS 2:1; after cross-examination: Kafka 3:0 "
           "(the debate changed the answer)")
DESK = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
OVERFLOW = """() => [...document.querySelectorAll('body *')]
    .filter(el => !el.closest('thead') && el.getBoundingClientRect().right > 391)
    .map(el => el.tagName + '.' + el.className + '#' + el.id + ' '
         + Math.round(el.getBoundingClientRect().right))"""


def test_decide_review_and_calibration_on_desk_and_phone(member, team):
    require_chromium()
    real_password(member)
    codes = []
    for question, script in (("Kafka or SQS for the billing events?", FLIP),
                             ("Kafka or SQS for audit logs?", SCRIPT)):
        debate = debate_create(team=team, user=None, question=question, config=DebateConfig(
            mode="quick", agents=3, options=OPTIONS, max_rounds=1,
            simulator=SimulatorOptions(script=script)), start=False)
        run_to_completion(debate.code)
        codes.append(str(debate.code))
    with shared_site() as base:
        _drive(base, member.username, codes)


def _no_overflow(page: Any) -> None:
    wide = page.evaluate(OVERFLOW)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide[:15]


def _decide_and_review(page: Any, base: str, code: str, *, right: str, phone: bool) -> None:
    from playwright.sync_api import expect

    page.goto(f"{base}/debates/{code}/")
    page.get_by_role("link", name="Record the team's decision").click()
    page.wait_for_url(f"{base}/debates/{code}/decision")
    if phone:
        _no_overflow(page)
    page.check("input[name=option][value=Kafka]")
    page.fill("#id_rationale", "Replays matter more than operations.")
    page.click("#decision-form button[type=submit]")
    page.wait_for_url(f"{base}/debates/{code}/")
    expect(page.locator("#decision")).to_contain_text("Kafka")

    page.locator("#decision-outcome a").click()
    page.wait_for_url(f"{base}/debates/{code}/outcome")
    if phone:
        _no_overflow(page)
    page.check(f"input[name=right_option][value={right}]")
    page.check("input[name=result][value=mixed]")
    page.fill("#id_notes", "Replays were used twice; operations cost more than planned.")
    page.click("#outcome-form button[type=submit]")
    page.wait_for_url(f"{base}/debates/{code}/")
    expect(page.locator("#decision-outcome")).to_contain_text(f"{right} proved right")
    expect(page.locator("#decision")).to_contain_text("Reviewed")
    if phone:
        _no_overflow(page)


def _drive(base: str, member: str, codes: list[str]) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            def login(**options: Any) -> Any:
                page = browser.new_context(**options).new_page()
                page.set_default_timeout(PATIENCE_MS)
                sign_in(page, base, member)
                return page

            # --- at a desk: the first debate proved Kafka (the majority) right.
            desk = login(**DESK)
            desk.goto(f"{base}/debates/{codes[0]}/")
            expect(desk.locator("#debate-change")).to_have_text(
                f"What the debate changed: {CHANGED}")
            desk.locator("#debate-synthesis").screenshot(
                path=str(SCREENSHOTS / "debate-change.png"))
            _decide_and_review(desk, base, codes[0], right="Kafka", phone=False)
            desk.goto(f"{base}/decisions/")
            desk.click("#calibration-link")
            desk.wait_for_url(f"{base}/calibration/")
            expect(desk.locator("#final-accuracy")).to_contain_text("1 of 1 (100%)")
            expect(desk.locator(".calibration-table tbody tr")).to_have_count(3)
            expect(desk.locator("svg.reliability-chart circle").first).to_be_visible()
            expect(desk.locator(f"#reviewed-{codes[0]}")).to_contain_text(CHANGED)

            # --- on a phone: the second debate proved SQS (the minority) right.
            phone = login(**PHONE)
            phone.goto(f"{base}/debates/{codes[0]}/")
            expect(phone.locator("#debate-change")).to_be_visible()
            _no_overflow(phone)
            phone.locator("#debate-change").scroll_into_view_if_needed()
            phone.screenshot(path=str(SCREENSHOTS / "debate-change-phone.png"))
            _decide_and_review(phone, base, codes[1], right="SQS", phone=True)
            phone.goto(f"{base}/calibration/")
            expect(phone.locator("#final-accuracy")).to_contain_text("1 of 2 (50%)")
            # Composed personas count within their debate: 3 agents x 2 debates.
            expect(phone.locator(".calibration-table tbody tr")).to_have_count(6)
            expect(phone.locator("svg.reliability-chart")).to_be_visible()
            expect(phone.locator(f"#reviewed-{codes[0]}")).to_contain_text(CHANGED)
            expect(phone.locator(f"#reviewed-{codes[1]}")).to_contain_text(
                "(the debate kept the answer)")
            _no_overflow(phone)
            assert phone.evaluate(SHORT_TARGETS) == []
            phone.screenshot(path=str(SCREENSHOTS / "calibration-phone.png"), full_page=True)
            phone.goto(f"{base}/decisions/")
            expect(phone.locator(".decision-log")).to_contain_text("SQS proved right · mixed")
            expect(phone.locator(".decision-log")).to_contain_text("Kafka proved right · mixed")
            _no_overflow(phone)
            assert phone.evaluate(SHORT_TARGETS) == []
            desk.reload()
            expect(desk.locator("#panel-accuracy")).to_contain_text("2 reviewed decisions")
            desk.screenshot(path=str(SCREENSHOTS / "calibration.png"), full_page=True)
        finally:
            browser.close()
