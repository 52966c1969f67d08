"""Every page of a team's walk on a 390×844 phone: nothing wider than the screen, every
tap target (buttons, links in the navigation, radios and checkboxes with their label)
at least 44 px high, a header that leaves the screen to the page; and the desk header
on one row at 1280 px. A finished debate of each protocol shows its answer (#answer)
on the first screen, on the phone and on an 800 px high desk."""

from __future__ import annotations

import pytest

from accounts.services import api_token_create
from debates.engine.schemas import DebateConfig, Persona
from debates.runtime.execution import run_to_completion
from debates.services import debate_create
from notifications.services import notification_create
from personas.services import library_create, persona_create
from tests.web.browser_support import (
    PATIENCE_MS,
    launch,
    real_password,
    require_chromium,
    shared_site,
    sign_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
MAX_PHONE_HEADER_PX = 120
ANSWERED = ("detail", "adversarial", "workflow")  # a finished debate of each protocol


def answer_off_screen(page, height: int) -> str:
    """Why the page's answer block is not on its first screen, or "" when it is."""
    box = page.locator("#answer").bounding_box()
    if box is None:
        return "no visible #answer"
    return "" if box["y"] < height and page.locator("#answer .answer-text").is_visible() \
        else f"#answer starts at {box['y']:.0f} px"

# What sticks out past the right edge, and which tap targets are too small.
OVERFLOW = """(width) => [...document.querySelectorAll('body *')]
  .filter(el => el.offsetParent !== null && !el.closest('thead, .visually-hidden'))
  .filter(el => !el.closest('.site-header') || el.closest('.site-header') === el)
  .filter(el => el.getBoundingClientRect().right > width + 1)
  .map(el => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))
  .slice(0, 8)"""
SMALL_TARGETS = """() => {
  const visible = el => el.offsetParent !== null && el.getBoundingClientRect().height > 0;
  const target = el => (el.matches('input[type=checkbox], input[type=radio]')
    && el.closest('label')) || el;
  return [...document.querySelectorAll(
      'main button, main .button, main select, main input:not([type=hidden]), '
      + '.site-header a, .site-header button')]
    .filter(visible).map(el => [el, target(el).getBoundingClientRect().height])
    .filter(([, h]) => h < 43.5)
    .map(([el, h]) => el.tagName + '[' + (el.name || el.textContent.trim().slice(0, 30))
         + '] ' + Math.round(h)).slice(0, 12);
}"""


def desk_answers(desk, base: str, pages: dict[str, str]) -> dict[str, list[str]]:
    """The finished debates whose answer is not on the desk's first screen."""
    problems = {}
    for name in ANSWERED:
        desk.goto(base + pages[name])
        if late := answer_off_screen(desk, DESK["height"]):
            problems[f"desk {name}"] = [late]
    return problems


def walk_pages(team, owner):
    """The team's walk: a debate of each protocol, a re-run, a library and persona, an
    API token and a notification; the URLs of its pages and the debates by protocol."""
    made = {}
    for protocol in ("council", "adversarial", "workflow"):
        debate = debate_create(team=team, user=None, question=f"Should we adopt {protocol}?",
                               config=DebateConfig(mode="quick", protocol=protocol),
                               start=False)
        run_to_completion(debate.code)
        made[protocol] = debate
    rerun = debate_create(team=team, user=None, question="Should we adopt council?",
                          config=DebateConfig(mode="quick", seed=5), start=False,
                          parent=made["council"])
    run_to_completion(rerun.code)
    library = library_create(team=team, user=owner, name="Finance")
    dana = persona_create(library=library, user=owner, data=Persona(
        name="Dana", background="CFO", expertise="Pricing", approach="Downside",
        bias="Cautious"))
    api_token_create(user=owner, name="a laptop script with a long name")
    notification_create(user=owner, kind="debate_finished", key="k", title="Your debate "
                        "finished: Should we adopt council?", url="/", team=team)
    c = made["council"].code
    urls = {
        "list": "/", "new": "/debates/new", "detail": f"/debates/{c}/",
        "synthesis": f"/debates/{c}/synthesis",
        "adversarial": f"/debates/{made['adversarial'].code}/",
        "workflow": f"/debates/{made['workflow'].code}/",
        "compare": f"/debates/compare?a={c}&b={rerun.code}",
        "libraries": "/personas/", "library": f"/personas/libraries/{library.code}/",
        "persona": f"/personas/{dana.code}/", "team": f"/teams/{team.code}/",
        "tokens": "/accounts/tokens/", "notifications": "/notifications/",
        "notification settings": "/notifications/settings",
        "decisions": "/decisions/", "my actions": "/actions/", "calibration": "/calibration/",
    }
    return {"urls": urls, "codes": made}


def test_every_page_fits_a_phone_with_44px_targets(owner, team):
    require_chromium()
    real_password(owner)
    pages = walk_pages(team, owner)["urls"]
    with shared_site() as base:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                phone = browser.new_context(viewport=PHONE, is_mobile=True,
                                            has_touch=True).new_page()
                phone.set_default_timeout(PATIENCE_MS)
                sign_in(phone, base, owner.username)
                problems = {}
                for name, path in pages.items():
                    phone.goto(base + path)
                    wide = phone.evaluate("document.documentElement.scrollWidth")
                    found = []
                    if wide > PHONE["width"]:
                        found.append(f"{wide} px wide")
                    # Inside a scrolling box the page keeps its width, yet a column or
                    # a button past the edge is still off-screen.
                    beyond = phone.evaluate(OVERFLOW, PHONE["width"])
                    if beyond:
                        found.append(f"past the edge: {beyond}")
                    small = phone.evaluate(SMALL_TARGETS)
                    if small:
                        found.append(f"small targets: {small}")
                    header = phone.locator(".site-header").bounding_box()["height"]
                    if header > MAX_PHONE_HEADER_PX:
                        found.append(f"header {header:.0f} px")
                    if name in ANSWERED and (late := answer_off_screen(phone, PHONE["height"])):
                        found.append(late)
                    if found:
                        problems[name] = found
                desk = browser.new_page(viewport=DESK)
                sign_in(desk, base, owner.username)
                problems |= desk_answers(desk, base, pages)
                desk.goto(base + "/")
                rows = desk.evaluate("""() => new Set([...document.querySelectorAll(
                    '.site-header nav > *')].filter(el => el.offsetParent !== null)
                    .map(el => Math.round(el.getBoundingClientRect().top / 20))).size""")
                if rows != 1:
                    problems["desk header"] = [f"{rows} rows at 1280 px"]
            finally:
                browser.close()
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
