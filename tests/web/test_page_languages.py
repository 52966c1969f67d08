"""A debate in Chinese or Japanese shows its live page's stepper, diagnostic and chart
and its synthesis page (the "action" links included) in that language, through the
one translation table (debates/engine/i18n.py); English debates keep English."""

from __future__ import annotations

import re

import pytest

from debates.engine.i18n import TRANSLATIONS
from tests.web.htmltools import outer_html

QUESTIONS = {
    "en": "Should we move the billing service next year?",
    "zh": "我们明年应该迁移计费服务吗？",
    "ja": "請求サービスを来年移行すべきでしょうか？",
}
# Identifiers a page shows as they are in every language: model and protocol names,
# file formats, the prompt version; "token" is the Chinese table's own loanword.
IDENTIFIERS = {"sim/default", "council", "quick", "JSON", "Markdown", "v1", "token"}


def _english_words(html: str) -> list[str]:
    """Visible text with an English word of three letters or more (tags, attributes
    and the identifiers left out)."""
    texts = (" ".join(t.split()) for t in re.findall(r">([^<>]+)<", html))
    found = []
    for text in texts:
        for identifier in IDENTIFIERS:
            text = text.replace(identifier, "")
        if re.search(r"[A-Za-z]{3,}", text):
            found.append(text)
    return found


@pytest.fixture(params=["zh", "ja"])
def foreign(request, make_debate):
    debate = make_debate(question=QUESTIONS[request.param])
    return request.param, debate


def test_the_live_pages_stepper_diagnostic_and_chart_speak_the_debates_language(
        member_client, foreign):
    language, debate = foreign
    t = TRANSLATIONS[language]
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    stepper = outer_html(html, "debate-stepper")
    assert t["step.compose"] in stepper and t["step.synthesis"] in stepper
    status = outer_html(html, "debate-status")
    assert t["stopped"] in status and t["diagnostic"] in status
    assert _english_words(status) == [], _english_words(status)
    head = re.search(r'<header class="debate-head">.*?</header>', html, re.S).group(0)
    assert _english_words(head) == [], _english_words(head)
    activity = outer_html(html, "debate-activity")
    assert t["event.debate_created"] in activity
    assert _english_words(activity) == [], _english_words(activity)
    chart = outer_html(html, "debate-chart")
    assert t["chart.title"] in chart and t["agreement_legend"] in chart
    card = outer_html(html, "debate-synthesis")
    assert t["nav.read_synthesis"] in card and t["activity_log"] in html
    rounds, agents = outer_html(html, "debate-rounds"), outer_html(html, "debate-agents")
    assert t["field.reasoning"] in rounds and t["panel.position"] in rounds
    for part, fragment in (("stepper", stepper), ("chart", chart), ("synthesis card", card),
                           ("rounds", rounds), ("agents", agents)):
        assert _english_words(fragment) == [], (part, _english_words(fragment))
    diagnostic = re.search(r'<p class="diagnostic">.*?</p>', status, re.S).group(0)
    assert _english_words(diagnostic) == [], _english_words(diagnostic)


def test_the_synthesis_page_has_no_untranslated_label(member_client, foreign):
    language, debate = foreign
    t = TRANSLATIONS[language]
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    main = html.split("<main", 1)[1].split("</main>", 1)[0]
    assert t["nav.action"] in main and t["nav.new_action"] in main
    assert _english_words(main) == [], _english_words(main)


def test_an_english_debate_keeps_english_words(member_client, make_debate):
    debate = make_debate(question=QUESTIONS["en"])
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "<strong>Stopped: " in html and "</span>compose<span" in html


def test_the_transcripts_headings_and_navigation_speak_the_debates_language(
        member_client, foreign):
    language, debate = foreign
    t = TRANSLATIONS[language]
    html = member_client.get(f"/debates/{debate.code}/transcript").content.decode()
    assert f"<h1>{t['nav.transcript']}</h1>" in html
    headings = re.findall(r"<h2>(.*?)</h2>", html, re.S)
    assert t["transcript.compose"] in headings and t["panel.premortem"] in headings
    crumbs = re.search(r'<p class="crumbs">.*?</p>', html, re.S).group(0)
    links = re.search(r'<p class="no-print small links">.*?</p>', html, re.S).group(0)
    for part in (*headings, crumbs, links):
        assert _english_words(part) == [], part
