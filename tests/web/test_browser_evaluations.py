"""The Evaluations page in a real browser, on a desk and on a phone: an editor starts
an evaluation with a simulated accuracy in the form, a real worker runs it, the page
follows its progress and shows the arms table, the chart and the paired table. On the
phone no page is wider than the screen. Screenshots land in docs/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser_support import (
    PATIENCE_MS,
    SCREENSHOTS,
    launch,
    real_password,
    require_chromium,
    shared_site,
    sign_in,
)
from tests.web.test_browser_phone_walk import SMALL_TARGETS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESK = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
OVERFLOW = """() => [...document.querySelectorAll('body *')]
    .filter(el => !el.closest('thead') && el.getBoundingClientRect().right > 391)
    .map(el => el.tagName + '.' + el.className + '#' + el.id + ' '
         + Math.round(el.getBoundingClientRect().right))"""


def test_start_an_evaluation_watch_it_finish_and_read_it(member, team):
    require_chromium()
    real_password(member)
    with shared_site() as base:
        _drive(base, member.username)


def _start(page: Any, base: str, n: str, suffix: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{base}/evaluations/")
    expect(page.locator("h1")).to_have_text("Evaluations")
    page.click("#new-evaluation")
    page.select_option("#id_set_name", "compare")
    page.fill("#id_n", n)
    page.fill("#id_agents", "5")
    page.fill("#id_model", "sim/default")
    page.fill("#id_sim_accuracy", "0.6")
    page.screenshot(path=str(SCREENSHOTS / f"evaluation-new{suffix}.png"), full_page=True)
    page.click("#start-evaluation")
    page.wait_for_url(f"{base}/evaluations/*/")
    # The worker runs it; the polled partial shows it done, with its results.
    expect(page.locator("#evaluation-state")).to_have_text("done", timeout=PATIENCE_MS)
    # single, vote and council: the arms asked for (the synthesis reading stays in the
    # exports, issue 41)
    expect(page.locator("#arms-table tbody tr")).to_have_count(3)
    expect(page.locator("#arms-table")).to_contain_text("council")
    expect(page.locator("svg.arms-chart g.arm-bar")).to_have_count(3)
    expect(page.locator("#paired-table")).to_be_visible()
    expect(page.locator("#mcnemar")).to_contain_text("Exact McNemar")
    expect(page.locator("#simulated-banner")).to_be_visible()
    expect(page.locator(".own-model-notice")).to_be_visible()


def _fits_a_phone(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, \
        page.evaluate(OVERFLOW)[:15]
    assert page.evaluate(SMALL_TARGETS) == [], page.url


def _drive(base: str, username: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        desk = browser.new_context(**DESK).new_page()
        sign_in(desk, base, username)
        _start(desk, base, "60", "")
        desk.screenshot(path=str(SCREENSHOTS / "evaluation-detail.png"), full_page=True)

        phone = browser.new_context(**PHONE).new_page()
        sign_in(phone, base, username)
        _start(phone, base, "12", "-phone")  # few questions: marked "not a finding"
        from playwright.sync_api import expect

        expect(phone.locator("#arms-table .caveat").first).to_have_text("not a finding")
        _fits_a_phone(phone)
        phone.screenshot(path=str(SCREENSHOTS / "evaluation-detail-phone.png"), full_page=True)
        phone.goto(f"{base}/evaluations/new")
        _fits_a_phone(phone)
        phone.goto(f"{base}/evaluations/")
        _fits_a_phone(phone)
        phone.screenshot(path=str(SCREENSHOTS / "evaluation-list-phone.png"), full_page=True)
        browser.close()
