"""The pages a team reads most, in English and in Japanese, in a real browser at 1280 px
on a desk and on a 390 px phone, with a long question and a notification badge (issue
41, "Done when"; test_browser_look.py walks every page at 1024 px too): nothing wider
than the window, the answer on a finished debate's
first screen, no English interface text on a Japanese page (tests/web/english_left.py),
and the screenshots of docs/screenshots/ (new debate form, debate page, synthesis and
compare, desk and phone, en and ja) taken from the code as it is."""

from __future__ import annotations

import pytest

from accounts.models import AccountSettings
from debates.engine.schemas import DebateConfig
from debates.runtime.execution import run_to_completion
from debates.services import debate_create
from notifications.services import notification_create
from tests.web.browser_support import (
    PATIENCE_MS,
    SCREENSHOTS,
    launch,
    real_password,
    require_chromium,
    shared_site,
    sign_in,
)
from tests.web.english_left import english_left
from view_kit.site_words import ui

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUESTIONS = {
    "en": "Should the north depot switch all twenty-two of its expiring diesel van leases "
          "to electric vans in October, before the grid connection and the charging bays' "
          "fire assessment are confirmed, or wait for the spring?",
    "ja": "北側の車庫は、系統連系と充電ベイの防火評価が確認される前の十月に、期限を迎える"
          "ディーゼルバン二十二台のリースをすべて電気バンに切り替えるべきでしょうか、"
          "それとも春まで待つべきでしょうか？",
}
VIEWPORTS = {"desk": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
# Written as they are in every language: the output modes' identifiers (the API's and
# the model settings' values, shown on the form to pick from).
IDENTIFIERS = {"json_object", "json_schema", "auto", "tools", "prompt", "llama.cpp"}
SHOT = {"new": "new-debate", "detail": "answer", "synthesis": "synthesis",
        "compare": "compare"}


def _pages(team, owner, language: str) -> dict[str, str]:
    question = QUESTIONS[language]
    first = debate_create(team=team, user=owner, question=question,
                          config=DebateConfig(mode="quick", seed=3), start=False)
    run_to_completion(first.code)
    rerun = debate_create(team=team, user=owner, question=question,
                          config=DebateConfig(mode="quick", seed=5), start=False, parent=first)
    run_to_completion(rerun.code)
    notification_create(user=owner, kind="debate_finished", key=f"k-{language}",
                        title=question, url=f"/debates/{first.code}/", team=team)
    return {"new": "/debates/new", "detail": f"/debates/{first.code}/",
            "synthesis": f"/debates/{first.code}/synthesis",
            "compare": f"/debates/compare?a={first.code}&b={rerun.code}"}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_pages_a_team_reads_fit_and_speak_its_language(owner, team, language):
    require_chromium()
    real_password(owner)
    AccountSettings.objects.update_or_create(user=owner, defaults={"language": language})
    pages = _pages(team, owner, language)
    people = {owner.username, team.name, QUESTIONS[language], *IDENTIFIERS}
    debates = ui("site.nav.debates", language)
    problems: dict[str, list[str]] = {}
    with shared_site() as base:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                for width_name, viewport in VIEWPORTS.items():
                    phone = width_name == "phone"
                    page = browser.new_context(viewport=viewport, is_mobile=phone,
                                               has_touch=phone).new_page()
                    page.set_default_timeout(PATIENCE_MS)
                    sign_in(page, base, owner.username, debates)
                    for name, path in pages.items():
                        page.goto(base + path)
                        where = f"{width_name} {name}"
                        found = []
                        if page.locator("html").get_attribute("lang") != language:
                            found.append("html lang")
                        wide = page.evaluate("document.documentElement.scrollWidth")
                        if wide > viewport["width"]:
                            found.append(f"{wide} px wide")
                        if name == "detail":
                            box = page.locator("#answer").bounding_box()
                            if box is None or box["y"] >= viewport["height"]:
                                found.append(f"#answer at {box and round(box['y'])} px")
                        if language == "ja" and (left := english_left(
                                page.locator("main").inner_html(), people)):
                            found.append(f"English: {left[:6]}")
                        if found:
                            problems[where] = found
                        page.screenshot(path=str(
                            SCREENSHOTS / f"{SHOT[name]}-{width_name}-{language}.png"),
                            full_page=name != "synthesis")
                    page.context.close()
            finally:
                browser.close()
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
