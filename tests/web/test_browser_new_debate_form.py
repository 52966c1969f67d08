"""The new-debate form in a real browser: the cost estimate and the options preview are
two htmx requests fired by the same typing, and each must land in its own box."""

from __future__ import annotations

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


def test_switching_protocol_while_typing_keeps_the_estimate_and_updates_the_options_preview(
        owner, team):
    require_chromium()
    real_password(owner)
    with shared_site() as base:
        from playwright.sync_api import expect, sync_playwright

        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.set_default_timeout(PATIENCE_MS)
                sign_in(page, base, owner.username)

                page.goto(f"{base}/debates/new")
                preview, estimate = page.locator("#options-preview"), page.locator("#estimate")
                expect(preview).to_contain_text("for")
                # Typed, then the protocol picked before the 600 ms typing pause ends.
                with page.expect_response(lambda r: "/options" in r.url):
                    page.locator("#id_question").press_sequentially(
                        "Should we use Kafka or SQS for events?")
                    page.check("input[name=protocol][value=adversarial]")
                expect(preview).to_contain_text("Kafka")
                expect(preview).to_contain_text("SQS")
                expect(estimate).to_contain_text("calls")
                expect(estimate).not_to_contain_text("Automatic for this question")
                expect(page.locator("#estimate")).to_have_count(1)
                assert preview.locator("#estimate").count() == 0
            finally:
                browser.close()


def test_the_previewed_options_fill_the_field_to_edit_and_the_debate_uses_the_edit(
        owner, team):
    from debates.models import Debate

    require_chromium()
    real_password(owner)
    question = ("Should we build enterprise SSO and audit logs this quarter, or keep "
                "focusing on self-serve onboarding?")
    with shared_site() as base:
        from playwright.sync_api import expect, sync_playwright

        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.set_default_timeout(PATIENCE_MS)
                sign_in(page, base, owner.username)
                page.goto(f"{base}/debates/new")
                page.locator("#id_question").fill(question)
                preview = page.locator("#options-preview")
                # Whole alternatives, not "this quarter · keep focusing".
                expect(preview).to_contain_text("keep focusing on self-serve onboarding")
                preview.get_by_role("button", name="Edit these").click()
                field = page.locator("#id_options")
                expect(field).to_have_value(
                    "build enterprise SSO and audit logs this quarter, keep focusing on "
                    "self-serve onboarding, conditional")
                expect(field).to_be_focused()
                field.fill("Enterprise SSO now, Self-serve first, conditional")
                page.get_by_role("button", name="Start the debate").click()
                page.wait_for_url(f"{base}/debates/*/")
            finally:
                browser.close()
    debate = Debate.objects.get()
    assert debate.settings["options"] == ["Enterprise SSO now", "Self-serve first",
                                          "conditional"]
