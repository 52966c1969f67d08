"""A debate in Chinese or Japanese shows its live page's stepper, diagnostic and chart
and its synthesis page (the "action" links included) in that language, through the
one set of catalogues (docs/engine.md, "Translations"); English debates keep English.
Every debate page (live, synthesis, transcript, print, compare) of every protocol is
checked for English labels of those catalogues."""

from __future__ import annotations

import re
from html import unescape

import pytest

from debates.engine.protocols.adversarial.schemas import AdversarialResult
from debates.engine.protocols.workflow.contracts import check_discussion
from debates.engine.protocols.workflow.schemas import Discussion, WorkflowResult
from debates.page_words import PageWords
from debates.runtime.execution import run_next_step
from tests.web.english_left import texts_in
from tests.web.htmltools import outer_html
from tests.wording import page_wording

QUESTIONS = {
    "en": "Should we move the billing service next year?",
    "zh": "我们明年应该迁移计费服务吗？",
    "ja": "請求サービスを来年移行すべきでしょうか？",
    "fr": "Devrions-nous migrer notre service de facturation l’an prochain ?",
}
# Identifiers a page shows as they are in every language: model names, file formats,
# the prompt version; "token" is the Chinese table's own loanword. (The protocol's and
# the mode's names are words of the tables: "council · quick" is translated.)
IDENTIFIERS = {"sim/default", "JSON", "Markdown", "v1", "v2", "v3", "v4", "v5", "token"}


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
    t = page_wording(language)
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
    answer = outer_html(html, "debate-answer")  # the answer first, in the debate's language
    assert t["answer.vote"] in answer and t["answer.quality.sound"] in answer
    assert _english_words(answer) == [], _english_words(answer)
    rounds, agents = outer_html(html, "debate-rounds"), outer_html(html, "debate-agents")
    assert t["field.reasoning"] in rounds and t["panel.position"] in rounds
    for part, fragment in (("stepper", stepper), ("chart", chart), ("synthesis card", card),
                           ("rounds", rounds), ("agents", agents)):
        assert _english_words(fragment) == [], (part, _english_words(fragment))
    diagnostic = re.search(r'<p class="diagnostic">.*?</p>', status, re.S).group(0)
    assert _english_words(diagnostic) == [], _english_words(diagnostic)


def test_the_synthesis_page_has_no_untranslated_label(member_client, foreign):
    language, debate = foreign
    t = page_wording(language)
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
    t = page_wording(language)
    html = member_client.get(f"/debates/{debate.code}/transcript").content.decode()
    assert f"<h1>{t['nav.transcript']}</h1>" in html
    headings = re.findall(r"<h2>(.*?)</h2>", html, re.S)
    assert t["transcript.compose"] in headings and t["panel.premortem"] in headings
    crumbs = re.search(r'<p class="crumbs">.*?</p>', html, re.S).group(0)
    links = re.search(r'<p class="no-print small links">.*?</p>', html, re.S).group(0)
    for part in (*headings, crumbs, links):
        assert _english_words(part) == [], part


# ------------------------------------------------------------- every page, every protocol

PROTOCOL_RUNS = {"council": {"mode": "quick"}, "adversarial": {"mode": "medium"},
                 "workflow": {"mode": "deep"}}
PAGES = ("{code}/", "{code}/synthesis", "{code}/transcript", "{code}/print",
         "compare?a={code}&b={code}")


def _label_prefixes(language: str) -> set[str]:
    """The English fixed strings (the start of each, up to its first placeholder) of
    catalogues whose translation differs: none may show on a page in ``language``."""
    def start(text: str) -> str:
        return text.split("{", 1)[0].strip(" :·(")

    prefixes = set()
    english, foreign = page_wording("en"), page_wording(language)
    # A word both languages write ("Convergence", "dispersion" in French) is no sign.
    shared = {start(text) for text in foreign.values()}
    for key, text in english.items():
        if foreign.get(key, text) != text and re.search(r"[A-Za-z]{3,}", start(text)) \
                and start(text) not in shared:
            prefixes.add(start(text))
    return prefixes


def _written(debate) -> set[str]:
    """What the model and the panel wrote (turn payloads, agent names): kept as written,
    so left out of the check."""
    found: set[str] = {a.name for a in debate.agents.all()}
    for turn in debate.turns.all():
        found |= texts_in(turn.payload)
    return {text for text in found if text}


def _untranslated_labels(html: str, language: str, written: set[str]) -> list[str]:
    """Visible text of the page's <main> that is, or begins with, an English label
    (text the model or the panel wrote left out)."""
    main = html.split("<main", 1)[1].split("</main>", 1)[0]
    prefixes = _label_prefixes(language)
    texts = {" ".join(unescape(t).split()) for t in re.findall(r">([^<>]+)<", main)}
    texts = {t for t in texts if not any(t.startswith(w) or w.startswith(t) for w in written)}
    return sorted({text for text in texts for prefix in prefixes
                   if text == prefix or text.startswith(prefix + " ")
                   or text.startswith(prefix + ":")})


@pytest.mark.parametrize("protocol", PROTOCOL_RUNS)
@pytest.mark.parametrize("language", ["zh", "ja", "fr"])
def test_every_debate_page_of_every_protocol_has_no_untranslated_label(
        member_client, make_debate, protocol, language):
    debate = make_debate(question=QUESTIONS[language], protocol=protocol, seed=1,
                         **PROTOCOL_RUNS[protocol])
    written = _written(debate)
    for page in PAGES:
        html = member_client.get("/debates/" + page.format(code=debate.code)).content.decode()
        found = _untranslated_labels(html, language, written)
        assert found == [], (page, found)
        if page.endswith("transcript") and protocol == "council":
            # The synthesis and verifier turns' own field names, not only the headings.
            t = page_wording(language)
            assert f"<dt>{t['field.risk_follow_up']}</dt>" in html
            assert f"<dt>{t['field.claims']}</dt>" in html


@pytest.mark.parametrize("protocol,steps_first", [("adversarial", 1), ("workflow", 1)])
def test_a_running_protocol_page_has_no_untranslated_label(member_client, make_debate,
                                                           protocol, steps_first):
    """Mid-debate the adversarial and workflow pages show what a finished one does not
    (a round awaiting its critique, a role still waiting)."""
    debate = make_debate(question=QUESTIONS["ja"], protocol=protocol, mode="deep", seed=3,
                         run=False)
    for _ in range(steps_first):
        run_next_step(debate.code)
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert _untranslated_labels(html, "ja", _written(debate)) == []
    assert _english_words(outer_html(html, "debate-stepper")) == []


# ------------------------------------ the simulated adversarial model's own fixed words

SIMULATED_ADVERSARIAL_ENGLISH = (
    "Version ", "Assumptions:", "Revised after", "review point", "accepted as a known risk",
    "Logic and consistency", "Hidden assumptions", "Completeness", "Risks:", "Feasibility")


@pytest.mark.parametrize("language", ["zh", "ja"])
def test_the_simulated_adversarial_run_writes_its_fixed_words_in_the_debates_language(
        member_client, make_debate, language):
    """The simulated model stands in for a real one, which writes in the question's
    language: its proposals' version line, assumptions and revision note, the critic's
    issue categories and the synthesis' accepted risks come from the tables too."""
    debate = make_debate(question=QUESTIONS[language], protocol="adversarial",
                         mode="medium", seed=1)
    t = PageWords(language)
    for page in ("", "synthesis", "transcript", "print", "export.md"):
        text = unescape(member_client.get(f"/debates/{debate.code}/{page}").content.decode())
        found = [phrase for phrase in SIMULATED_ADVERSARIAL_ENGLISH if phrase in text]
        assert found == [], (page, found)
    transcript = unescape(member_client.get(
        f"/debates/{debate.code}/transcript").content.decode())
    assert t("adv.sim.version", n=1) in transcript
    assert t("dom.focus.logic and consistency") in transcript


@pytest.mark.parametrize("language", ["zh", "ja"])
def test_the_settings_line_names_protocol_and_mode_in_the_debates_language(
        member_client, make_debate, language):
    debate = make_debate(question=QUESTIONS[language])
    t = page_wording(language)
    for page in ("synthesis", "print", "export.md"):
        text = unescape(member_client.get(f"/debates/{debate.code}/{page}").content.decode())
        assert "council · quick" not in text, page
        assert f"{t['protocol_name.council']} · {t['mode.quick']}" in text, page


# ------------------------------------------------- sentences the engine writes itself

ENGINE_ENGLISH = ("by the issue ledger", "still open", "remaining tension", "Proposer (",
                  "Critic (", "Expert advisor", "keywords:", "default:", "valid citation",
                  "no acknowledged", "no key recommendation", "Adversarial", "Workflow",
                  "(product_behaviour)", "(statistic)", "(price)", "(other)", "(date)",
                  "(availability)", "general")


def _engine_english(text: str) -> list[str]:
    return [phrase for phrase in ENGINE_ENGLISH if phrase in text]


@pytest.mark.parametrize("language", ["zh", "ja"])
def test_the_adversarial_stop_domain_and_roles_speak_the_debates_language(
        member_client, make_debate, language):
    """The stop explanation, the detected domain (name, reason, focus areas), the role
    names and the claim types are the engine's sentences: in the debate's language."""
    t = PageWords(language)
    debate = make_debate(question=QUESTIONS[language], protocol="adversarial",
                         mode="medium", seed=4)
    result = AdversarialResult.model_validate(debate.synthesis.result)
    assert result.stop_explanation.startswith(
        t("adv.explain.converged", round=1, red=0, yellow=0).split("1", 1)[0])
    assert re.search(r"[A-Za-z]{3,}", result.stop_explanation) is None
    proposer = t("adv.proposer_name", role=t("dom.role.Expert advisor"))
    assert proposer in {a.name for a in debate.agents.all()}
    markdown = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert f"{t('adv.domain')}:** {t('dom.name.general')} ({t('dom.reason.default')})" in markdown
    assert t("dom.focus.hidden assumptions") in markdown
    assert result.stop_explanation in markdown
    claim = result.unverified_claims[0]  # the simulated verifier flags some (seed 4 does)
    assert f"({PageWords(language)(f'claim.{claim.type.value}')}): " in markdown
    assert _engine_english(markdown) == [], _engine_english(markdown)
    for page in ("", "synthesis", "print"):
        html = member_client.get(f"/debates/{debate.code}/{page}").content.decode()
        main = unescape(html.split("<main", 1)[1].split("</main>", 1)[0])
        assert t("dom.name.general") in main and t("dom.reason.default") in main, page
        assert _engine_english(main) == [], (page, _engine_english(main))
    compare = member_client.get(f"/debates/compare?a={debate.code}&b={debate.code}")
    note = unescape(compare.content.decode())
    assert t("protocol.adversarial") in note and "Adversarial" not in note


@pytest.mark.parametrize("language", ["zh", "ja"])
def test_the_workflow_stop_explanation_and_contract_speak_the_debates_language(
        member_client, make_debate, language):
    t = PageWords(language)
    debate = make_debate(question=QUESTIONS[language], protocol="workflow", mode="deep",
                         seed=1)
    result = WorkflowResult.model_validate(debate.synthesis.result)
    separator = t("wf.explain", agreement="", tension="")
    assert separator in result.summarize().stop_explanation
    markdown = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert _engine_english(markdown) == [], _engine_english(markdown)
    for page in ("", "synthesis"):
        html = member_client.get(f"/debates/{debate.code}/{page}").content.decode()
        main = unescape(html.split("<main", 1)[1].split("</main>", 1)[0])
        assert _engine_english(main) == [], (page, _engine_english(main))
    problems = check_discussion("critic", Discussion.model_validate(
        {"response": "x"}),
        language=language).problems
    assert problems == [t("wf.problem.citations", n=0, min=2),
                        t("wf.problem.no_acknowledged"), t("wf.problem.no_recommendation")]
