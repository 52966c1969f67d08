"""Issue 32 in a real browser: a debate that finishes while watched shows the "record
the team's decision" prompt without a reload, and a new invitation's link sits right
beside its "copy it now" note, in the first screen."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from debates.engine.schemas import DebateConfig
from debates.runtime.execution import run_to_completion
from debates.services import debate_create
from tests.web.browser_support import (
    PATIENCE_MS,
    launch,
    real_password,
    require_chromium,
    shared_site,
    sign_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The note and the link: at most this far apart (before the fix, about 1,000 px).
NEAR_PX = 120


def _in_a_thread(job, *args) -> None:  # noqa: ANN001 - any callable
    """Playwright's sync API keeps an event loop in this thread, where Django refuses
    database calls: run ``job`` in a thread of its own, with its own connection."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            job(*args)
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def _page(browser, base: str, username: str, **options):  # noqa: ANN202 - a page
    page = browser.new_context(**options).new_page()
    page.set_default_timeout(PATIENCE_MS)
    sign_in(page, base, username)
    return page


def test_a_debate_finishing_while_watched_brings_the_decision_prompt(owner, member, team):
    from playwright.sync_api import expect, sync_playwright

    require_chromium()
    real_password(member)
    debate = debate_create(team=team, user=owner, question="Should we move billing?",
                           config=DebateConfig(mode="quick"), start=False)
    with shared_site() as base, sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = _page(browser, base, member.username, viewport={"width": 1280, "height": 800})
            page.goto(f"{base}/debates/{debate.code}/")
            prompt = page.locator("#debate-decision", has_text="Record the team's decision")
            expect(prompt).to_have_count(0)
            # Finished behind the open page's back, as the worker would: only the page's
            # socket can bring the prompt (the page is not reloaded).
            _in_a_thread(run_to_completion, debate.code)
            expect(prompt).to_have_count(1)
            expect(prompt.get_by_role("link", name="Record the team's decision")).to_be_visible()
        finally:
            browser.close()


def test_a_new_invitations_link_sits_beside_its_copy_it_now_note(owner, team):
    from playwright.sync_api import expect, sync_playwright

    require_chromium()
    real_password(owner)
    with shared_site() as base, sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = _page(browser, base, owner.username, viewport={"width": 1280, "height": 800})
            page.goto(f"{base}/teams/{team.code}/")
            page.fill("#id_email", "colleague@example.com")
            page.get_by_role("button", name="Create invitation").click()
            link = page.locator("#new-invitation")
            expect(link).to_be_visible()
            note = page.get_by_text("Copy its link now")
            expect(note).to_be_visible()
            note_box, link_box = note.bounding_box(), link.bounding_box()
            gap = link_box["y"] - (note_box["y"] + note_box["height"])
            assert 0 <= gap <= NEAR_PX, (note_box, link_box)
            assert link_box["y"] + link_box["height"] <= 800, link_box  # the first screen
            assert "/invitations/" in (link.input_value() or "")
        finally:
            browser.close()
