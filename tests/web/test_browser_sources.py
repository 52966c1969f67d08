"""Sources in a real browser: a file uploaded on the new-debate form, the debate
waiting while a worker reads it and then running, a citation followed from the debate
page's evidence and from an agent's turn to its passage (anchored, highlighted), the
synthesis page's evidence, and the library page; at desk and phone widths."""

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

NOTES = ("# Event bus notes\n\n"
         + "\n\n".join(f"Paragraph {i}: Kafka needs a cluster we run; SQS is managed. "
                       + "It costs more to run ourselves. " * 25 for i in range(1, 6)))


def follow_a_citation(page, expect, shot) -> str:
    """Opens the debate page's evidence, follows its first passage link and checks it
    lands on the passage, highlighted as cited; returns the passage id."""
    evidence = page.locator("#evidence")
    expect(evidence).to_contain_text("Evidence used")
    if evidence.get_attribute("open") is None:
        evidence.locator("summary").click()
    link = evidence.locator("a.cite").first
    expect(link).to_be_visible()
    evidence.screenshot(path=str(shot))
    href = link.get_attribute("href") or ""
    pid = href.split("#")[1]
    assert "/sources/S1#" in href, href
    link.click()
    passage = page.locator(f'li.passage.cited[id="{pid}"]')
    expect(passage).to_be_visible()
    expect(passage).to_be_in_viewport()
    assert page.evaluate("location.hash") == f"#{pid}"
    return pid


def test_upload_on_the_form_watch_the_debate_and_follow_a_citation(owner, team, tmp_path):
    require_chromium()
    real_password(owner)
    notes = tmp_path / "bus-notes.md"
    notes.write_text(NOTES)
    shots = tmp_path / "shots"
    # The shared site keeps its uploads in a directory of its own (COUNCIL_MEDIA_ROOT).
    with shared_site() as base:
        from playwright.sync_api import expect, sync_playwright

        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.set_default_timeout(PATIENCE_MS)
                sign_in(page, base, owner.username)
                page.goto(f"{base}/debates/new")
                page.locator("#id_question").fill("Kafka or SQS for the event bus?")
                page.check("input[name=mode][value=quick]")
                estimate = page.locator("#estimate")
                before = estimate.inner_text()
                page.set_input_files("#source-files", str(notes))
                # The estimate counts the chosen file by its size before it is sent.
                expect(page.locator("#upload-bytes")).to_have_value(str(notes.stat().st_size))
                expect(estimate).not_to_have_text(before)
                page.screenshot(path=str(shots / "new-desk.png"), full_page=True)
                page.click("main form.debate-form button[type=submit]")
                sources = page.locator("#debate-sources")
                expect(sources).to_contain_text("S1")
                expect(sources).to_contain_text("bus-notes")
                expect(sources).to_contain_text("ready")
                # Read, then run: the live page fills in the synthesis.
                expect(page.locator("#debate-synthesis .synthesis-card")).to_be_visible()
                page.screenshot(path=str(shots / "debate-desk.png"), full_page=True)
                debate_path = page.url.removeprefix(base)
                # The evidence on the debate page: each passage id a link to its passage.
                follow_a_citation(page, expect, shots / "evidence-desk.png")
                page.screenshot(path=str(shots / "cited-desk.png"), full_page=True)
                # An agent's own citation in the rounds leads there too.
                page.goto(base + debate_path)
                page.locator("details.rounds-fold > summary").click()
                in_rounds = page.locator("#debate-rounds a.cite").first
                in_rounds.evaluate("a => a.closest('details.turn').open = true")
                target = in_rounds.get_attribute("href") or ""
                page.locator("#debate-rounds details.turn[open]").first.screenshot(
                    path=str(shots / "turn-desk.png"))
                in_rounds.click()
                expect(page.locator(f'li.passage.cited[id="{target.split("#")[1]}"]')
                       ).to_be_visible()
                page.goto(base + debate_path + "synthesis")
                page.locator("#evidence").screenshot(
                    path=str(shots / "evidence-synthesis-desk.png"))
                page.goto(base + debate_path)
                sources.get_by_role("link", name="S1 bus-notes").click()
                expect(page.locator("h1")).to_contain_text("bus-notes")
                # A citation's link: the source page at its passage, highlighted.
                page.goto(page.url + "?cited=S1.2#S1.2")
                cited = page.locator('li.passage.cited[id="S1.2"]')
                expect(cited).to_be_visible()
                expect(cited).to_contain_text("Paragraph")
                assert page.evaluate("location.hash") == "#S1.2"
                page.screenshot(path=str(shots / "source-desk.png"), full_page=True)
                source_path = page.url.removeprefix(base)
                page.goto(f"{base}/sources/")
                expect(page.locator("table")).to_contain_text("bus-notes")
                page.screenshot(path=str(shots / "library-desk.png"), full_page=True)
                page.get_by_role("link", name="bus-notes").click()
                expect(page.locator(".history")).to_contain_text("Version 1")
                expect(page.locator('li.passage[id="p2"]')).to_contain_text("Paragraph")
                page.screenshot(path=str(shots / "entry-desk.png"), full_page=True)
                entry_path = page.url.removeprefix(base)

                phone = browser.new_page(viewport={"width": 390, "height": 844})
                phone.context.add_cookies(page.context.cookies())
                for name, path in (("library", "/sources/"), ("new", "/debates/new"),
                                   ("source", source_path), ("entry", entry_path),
                                   ("debate", debate_path),
                                   ("synthesis", debate_path + "synthesis")):
                    phone.goto(base + path)
                    width = phone.evaluate("document.documentElement.scrollWidth")
                    assert width <= 390, f"{path} scrolls sideways on a phone ({width}px)"
                    phone.screenshot(path=str(shots / f"{name}-phone.png"), full_page=True)
                phone.goto(base + debate_path)
                follow_a_citation(phone, expect, shots / "evidence-phone.png")
                phone.goto(base + debate_path + "synthesis")
                phone.locator("#evidence").screenshot(
                    path=str(shots / "evidence-synthesis-phone.png"))
                phone.screenshot(path=str(shots / "cited-phone.png"), full_page=True)
            finally:
                browser.close()
    if (keep := __import__("os").environ.get("COUNCIL_KEEP_SHOTS")):
        __import__("shutil").copytree(shots, keep, dirs_exist_ok=True)
