"""Destructive buttons ask in a real browser, under the site's Content-Security-Policy:
dismissing the dialog changes nothing, accepting it acts. An API token's Revoke goes
through council.js (``data-confirm``), a comment's Delete through htmx (``hx-confirm``)."""

from __future__ import annotations

import pytest

from accounts.models import ApiToken
from accounts.services import api_token_create
from collab.services import comment_create
from tests.web.browser_support import (
    PATIENCE_MS,
    launch,
    real_password,
    require_chromium,
    shared_site,
    sign_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_revoke_and_delete_ask_and_a_dismissed_dialog_changes_nothing(
        owner, team, make_debate):
    require_chromium()
    real_password(owner)
    token, _ = api_token_create(user=owner, name="ci-deploy")
    debate = make_debate()
    comment = comment_create(debate=debate, author=owner, body="Is the window long enough?")
    with shared_site() as base:
        from playwright.sync_api import expect, sync_playwright

        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.set_default_timeout(PATIENCE_MS)
                asked: list[str] = []
                answer = {"accept": False}

                def on_dialog(dialog) -> None:  # noqa: ANN001 - a Playwright Dialog
                    asked.append(dialog.message)
                    dialog.accept() if answer["accept"] else dialog.dismiss()

                page.on("dialog", on_dialog)
                sign_in(page, base, owner.username)

                page.goto(f"{base}/accounts/tokens/")
                revoke = page.get_by_role("button", name="Revoke")
                revoke.click()
                assert asked and asked[-1].startswith("Revoke the token ci-deploy?")
                page.reload()  # (no ORM here: Playwright's loop makes this an async context)
                expect(revoke).to_have_count(1)
                answer["accept"] = True
                with page.expect_navigation():
                    revoke.click()
                expect(page.locator(".messages")).to_contain_text("revoked")
                expect(revoke).to_have_count(0)

                answer["accept"] = False
                page.goto(f"{base}/debates/{debate.code}/comments/")
                delete = page.locator(f"#comment-{comment.code}").get_by_role(
                    "button", name="Delete")
                delete.click()
                assert asked[-1].startswith("Delete this comment?")
                page.reload()
                expect(page.locator(f"#comment-{comment.code}")).to_contain_text(
                    "Is the window long enough?")
                answer["accept"] = True
                delete.click()
                expect(page.locator(f"#comment-{comment.code}")).to_contain_text("deleted")
                assert len(asked) == 4
            finally:
                browser.close()
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    comment.refresh_from_db()
    assert comment.is_deleted
