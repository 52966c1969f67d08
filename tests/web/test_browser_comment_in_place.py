"""Comment in place, in a real browser: select text in the synthesis, comment on it, and
the thread sits beside the passage on a desk (1280x800) and below it on a phone
(390x844), and is anchored there again after a reload. A viewer gets no way to comment.
@-mentions complete from the team's members."""

from __future__ import annotations

import pytest

from collab.models import Comment
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

# Selects the first 24 characters of the first long passage; returns them.
SELECT = """() => {
  const passage = [...document.querySelectorAll('.synthesis [data-passage]')]
      .find(p => p.textContent.trim().length > 40);
  const walker = document.createTreeWalker(passage, NodeFilter.SHOW_TEXT);
  let node = walker.nextNode();
  while (node.nodeValue.trim().length < 30) node = walker.nextNode();
  const start = node.nodeValue.search(/\\S/);
  const range = document.createRange();
  range.setStart(node, start);
  range.setEnd(node, start + 24);
  passage.id = 'the-passage';
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  return range.toString();
}"""


def _box(page, selector):
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _beside(page) -> None:
    passage, thread = _box(page, "#the-passage"), _box(page, ".thread.placed")
    assert thread["x"] >= passage["x"] + passage["width"], (passage, thread)
    assert abs(thread["y"] - passage["y"]) < passage["height"] + 8, (passage, thread)


def test_select_comment_and_see_the_thread_beside_then_below(owner, viewer, team, make_debate):
    require_chromium()
    real_password(owner, viewer)
    debate = make_debate()
    url = f"/debates/{debate.code}/synthesis"
    with shared_site() as base:
        from playwright.sync_api import expect, sync_playwright

        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.set_default_timeout(PATIENCE_MS)
                sign_in(page, base, owner.username)
                page.goto(base + url)
                expect(page.locator("#comments-panel")).to_be_attached()
                quote = page.evaluate(SELECT)
                button = page.locator("#comment-selection")
                expect(button).to_be_visible()
                button.click()
                form = page.locator("#selection-comment")
                expect(form).to_be_visible()
                expect(form.locator("[data-selection-quote]")).to_have_text(quote.strip())
                box = form.locator("textarea[name=body]")
                box.type("Is this right, @vi")
                option = page.locator(".mention-option", has_text="@viewer")
                expect(option).to_be_visible()
                option.click()
                expect(box).to_have_value("Is this right, @viewer ")
                form.get_by_role("button", name="Comment").click()
                thread = page.locator(".thread.placed")
                expect(thread).to_be_visible()
                expect(thread.locator(".mention")).to_have_text("@viewer")
                expect(form).to_be_hidden()
                _beside(page)
                page.screenshot(path=str(SCREENSHOTS / "comment-in-place.png"))

                page.reload()  # the thread is anchored again from the stored quote
                page.evaluate(SELECT)  # marks the passage (and selects it again)
                expect(page.locator(".thread.placed")).to_be_visible()
                _beside(page)

                page.set_viewport_size({"width": 390, "height": 844})
                page.reload()
                page.evaluate(SELECT)
                thread = page.locator(".thread.placed.below")
                expect(thread).to_be_visible()
                passage, below = _box(page, "#the-passage"), _box(page, ".thread.placed")
                assert below["y"] >= passage["y"] + passage["height"] - 1, (passage, below)
                assert below["x"] < passage["x"] + 40 and below["x"] + below["width"] <= 390
                page.screenshot(path=str(SCREENSHOTS / "comment-in-place-phone.png"))

                # A viewer reads the thread but gets no way to comment.
                viewer_page = browser.new_page(viewport={"width": 1280, "height": 800})
                viewer_page.set_default_timeout(PATIENCE_MS)
                sign_in(viewer_page, base, viewer.username)
                viewer_page.goto(base + url)
                expect(viewer_page.locator(".thread.placed")).to_be_visible()
                viewer_page.evaluate(SELECT)
                expect(viewer_page.locator("#comment-selection")).to_have_count(0)
                expect(viewer_page.locator("a.comment-link")).to_have_count(0)
            finally:
                browser.close()
    comment = Comment.objects.get()
    assert comment.target_kind == "quote" and comment.quote == quote.strip()
    assert comment.quote_offset is not None
