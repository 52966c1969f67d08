"""The header and the pages of a team's walk as a person meets them (issue 32): on a
390×844 phone nothing of the header sits off-screen and every control, summary and
link outside running text is a 44 px tap target; on a desk the header keeps one row at
1240 and 1280 px with the notification badge; and axe-core finds no serious or critical
violation on any page of the walk, desk or phone.

COUNCIL_WALK_SCREENSHOTS=<dir> also saves every page of the walk there, desk and phone,
to look at."""

from __future__ import annotations

import os
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import pytest

from collab.services import comment_create, comment_set_hidden
from tests.web.axe_support import axe_source, axe_violations
from tests.web.browser_support import (
    PATIENCE_MS,
    launch,
    real_password,
    require_chromium,
    shared_site,
    sign_in,
)
from tests.web.test_browser_phone_walk import PHONE, walk_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("COUNCIL_WALK_SCREENSHOTS")
DESK = {"width": 1280, "height": 800}

# The header's visible parts that reach past either edge of the screen.
OFF_SCREEN = """(width) => [...document.querySelectorAll('.site-header *')]
  .filter(el => el.checkVisibility() && el.getBoundingClientRect().width > 0)
  .filter(el => !el.closest('.visually-hidden'))
  .filter(el => { const box = el.getBoundingClientRect();
                  return box.left < -1 || box.right > width + 1; })
  .map(el => el.tagName + '[' + el.textContent.trim().slice(0, 20) + '] '
       + Math.round(el.getBoundingClientRect().left) + '…'
       + Math.round(el.getBoundingClientRect().right))"""
# Every control a thumb aims at: buttons, fields, each <summary>, and links that are not
# words inside a sentence (prose the models wrote, a muted remark, an empty state).
TAP_TARGETS = """() => {
  // checkVisibility: not inside a closed <details> (or anything else that hides it).
  const visible = el => el.checkVisibility() && el.getBoundingClientRect().height > 0;
  const target = el => (el.matches('input[type=checkbox], input[type=radio]')
    && el.closest('label')) || el;
  // A citation chip is a target wherever it sits, prose included (issue 41).
  return [...document.querySelectorAll('body a, body button, body select, body summary, '
      + 'body input:not([type=hidden])')]
    .filter(visible)
    .filter(el => el.matches('a.cite') || !el.closest('.prose, p.muted, .empty, .visually-hidden'))
    .filter(el => !el.closest('.visually-hidden'))
    .map(el => [el, target(el).getBoundingClientRect()])
    .filter(([, box]) => box.height < 43.5 || box.width < 43.5)
    .map(([el, box]) => el.tagName + '[' + (el.name || el.textContent.trim().slice(0, 30))
         + '] ' + Math.round(box.width) + 'x' + Math.round(box.height)).slice(0, 12);
}"""
HEADER_ROWS = """() => new Set([...document.querySelectorAll('.site-header nav > *')]
  .filter(el => el.offsetParent !== null)
  .map(el => Math.round(el.getBoundingClientRect().top / 20))).size"""


def _pages(team, owner, member):
    pages = walk_pages(team, owner)
    council, adversarial = pages["codes"]["council"], pages["codes"]["adversarial"]
    hidden = comment_create(debate=council, author=member, body="An aside to hide.")
    comment_create(debate=council, author=owner, body="We checked the **rollback**, @member.")
    comment_set_hidden(comment=hidden, user=owner, hidden=True)
    return {**pages["urls"],
            "adversarial synthesis": f"/debates/{adversarial.code}/synthesis",
            "workflow synthesis": f"/debates/{pages['codes']['workflow'].code}/synthesis",
            "comments": f"/debates/{council.code}/comments/",
            "transcript": f"/debates/{council.code}/transcript",
            "print": f"/debates/{council.code}/print",
            "teams": "/teams/"}


@pytest.fixture
def base(owner):
    """The walks' shared site, with ``owner`` able to sign in there."""
    require_chromium()
    real_password(owner)
    with shared_site() as url:
        yield url


@contextmanager
def _page(**options):
    """Chromium and a page with the patient default timeout, opened once the test's
    rows are made: Playwright's sync API runs an event loop in this thread while it is
    open, and the services refuse to run under one."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_context(**options).new_page()
            page.set_default_timeout(PATIENCE_MS)
            yield page
        finally:
            browser.close()


def _shoot(page, name: str, size: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name.replace(' ', '-')}-{size}.png"),
                        full_page=True)


def test_the_phone_header_and_every_tap_target(owner, member, team, base):
    """Every target at least 44×44 px (WCAG 2.5.5): citation chips, source links,
    export links and a comment's Edit too (issue 41, item 7)."""
    pages = _pages(team, owner, member)
    with _page(viewport=PHONE, is_mobile=True, has_touch=True) as phone:
        sign_in(phone, base, owner.username)
        problems = {}
        for name, path in pages.items():
            phone.goto(base + path)
            found = []
            if off := phone.evaluate(OFF_SCREEN, PHONE["width"]):
                found.append(f"header off-screen: {off}")
            if small := phone.evaluate(TAP_TARGETS):
                found.append(f"small targets: {small}")
            if found:
                problems[name] = found
        # The menu holds every link of the header, each on screen and tappable.
        phone.goto(base + "/")
        phone.locator(".nav-menu > summary").click()
        links = phone.locator(".nav-menu a, .nav-menu button")
        assert links.count() >= 9
        for index in range(links.count()):
            box = links.nth(index).bounding_box()
            assert box is not None, links.nth(index).text_content()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
            assert box["y"] + box["height"] <= PHONE["height"]
            assert box["height"] >= 43.5, links.nth(index).text_content()
        if off := phone.evaluate(OFF_SCREEN, PHONE["width"]):
            problems["open menu"] = [f"off-screen: {off}"]
        _shoot(phone, "menu", "phone")
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_the_desk_header_keeps_one_row_with_the_badge(owner, team, base):
    walk_pages(team, owner)  # a notification: the unread badge shows
    with _page(viewport={"width": 1240, "height": 800}) as desk:
        sign_in(desk, base, owner.username)
        for width in (1240, 1280):  # one site, both widths: a served site costs seconds
            desk.set_viewport_size({"width": width, "height": 800})
            assert desk.locator("#nav-notifications .badge-unread").is_visible()
            assert desk.evaluate(HEADER_ROWS) == 1, width
            assert desk.evaluate(OFF_SCREEN, width) == [], width


# One test a size: the two walks are the module's slowest part, and as two tests the
# suite's two processes can run them side by side.
@pytest.mark.parametrize("size", ["desk", "phone"])
def test_axe_finds_nothing_serious_on_any_page_of_the_walk(owner, member, team, base, size):
    source = axe_source()
    pages = _pages(team, owner, member)
    viewport = {"desk": DESK, "phone": PHONE}[size]
    problems = {}
    with _page(viewport=viewport, bypass_csp=True, is_mobile=size == "phone") as page:
        sign_in(page, base, owner.username)
        for name, path in pages.items():
            page.goto(base + path)
            _shoot(page, name, size)
            if found := axe_violations(page, source):
                problems[f"{name} ({size})"] = found
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_the_desk_pages_line_up(owner, member, team, base):
    """The list's header row spans its table; the comments card is as wide as the
    synthesis column beside the comment margin."""
    pages = _pages(team, owner, member)
    with _page(viewport=DESK) as desk:
        sign_in(desk, base, owner.username)
        table = desk.locator("table.debate-list").bounding_box()
        head = desk.locator("table.debate-list thead tr").bounding_box()
        assert abs(head["width"] - table["width"]) <= 2, (head, table)
        desk.goto(base + pages["synthesis"])
        column = desk.locator("article.synthesis").bounding_box()
        comments = desk.locator("#comments").bounding_box()
        assert abs(comments["width"] - column["width"]) <= 2, (comments, column)


# A question as people paste them: long, with an unbroken address in it.
LONG_QUESTION = ("Should we move every team's nightly reconciliation of the warehouse, the "
                 "billing ledger and the partner feeds from the old cron host to the new "
                 "event-driven pipeline before the end of the quarter, given "
                 "https://wiki.example.com/platform/migrations/2026/reconciliation-"
                 "pipeline-cutover-plan-and-rollback-checklist-final-final and the "
                 "on-call load we saw in the last three incidents? " * 2).strip()
LONG_NAME = "Platform reliability and data engineering working group (EMEA and APAC)"
WIDE = """(width) => [...document.querySelectorAll('body *')]
  .filter(el => el.checkVisibility() && !el.closest('.visually-hidden, thead'))
  .filter(el => !el.parentElement.closest('[tabindex="0"]'))
  .filter(el => el.getBoundingClientRect().right > width + 1)
  .map(el => el.tagName + '.' + el.className + ' '
       + Math.round(el.getBoundingClientRect().right)).slice(0, 6)"""


def _long_pages(team, owner, member):
    """The walk's pages once the team has a long name, a long persona library, and a
    finished debate with a long question that has a decision and an action."""
    from collab.services import action_create
    from debates.engine.schemas import DebateConfig
    from debates.runtime.execution import run_to_completion
    from debates.services import debate_create
    from decisions.services import decision_record
    from personas.services import library_create

    team.name = LONG_NAME
    team.save(update_fields=["name"])
    pages = _pages(team, owner, member)
    debate = debate_create(team=team, user=owner, question=LONG_QUESTION,
                           config=DebateConfig(mode="quick"), start=False)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    decision_record(debate=debate, user=owner, choice=LONG_QUESTION[:180],
                    rationale="Cheaper " * 40)
    action_create(debate=debate, user=owner, target_kind="synthesis", target_ref="",
                  owner=owner, due_date=date.today(), title=LONG_QUESTION[:250])
    library_create(team=team, user=owner, name=LONG_NAME + " " + LONG_NAME)
    return {**pages, "long detail": f"/debates/{debate.code}/",
            "long synthesis": f"/debates/{debate.code}/synthesis"}


def test_nothing_is_wider_than_the_window_with_long_names_and_the_badge(
        owner, member, team, base):
    """At 1024 and 1280 px and on a 390 px phone, with the notification badge, a long
    question, a long team name and a long library: no page scrolls sideways and nothing
    reaches past the right edge (a table inside its own keyboard-scrollable region, tabindex=0, may
    scroll within it)."""
    pages = _long_pages(team, owner, member)
    problems = {}
    for size in ({"width": 1024, "height": 800}, {"width": 1280, "height": 800}, PHONE):
        phone = size is PHONE
        with _page(viewport=size, is_mobile=phone, has_touch=phone) as page:
            sign_in(page, base, owner.username)
            assert page.locator("#nav-notifications .badge-unread").count() == 1
            for name, path in pages.items():
                page.goto(base + path)
                found = []
                if (wide := page.evaluate("document.documentElement.scrollWidth")) \
                        > size["width"]:
                    found.append(f"{wide} px wide")
                if beyond := page.evaluate(WIDE, size["width"]):
                    found.append(f"past the edge: {beyond}")
                if found:
                    problems[f"{name} at {size['width']}"] = found
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
