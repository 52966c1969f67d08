"""The answer first (issue 41; docs/web.md, "Answer first"): on a finished debate of
every protocol the first block under the question is #answer (the recommendation in a
sentence, the quality verdict, the protocol's facts, the top risks, the team's
decision); the status reads as plain sentences with the figures behind "why"; the
answer arrives live with the synthesis; compare and a re-run's page say what changed."""

from __future__ import annotations

import re

import pytest
from django.utils.html import escape

from debates.live.consumers import render_live_fragments
from debates.page_words import PageWords
from debates.runtime.execution import run_to_completion
from decisions.services import decision_record
from tests.web.htmltools import apply_oob, outer_html, top_level

pytestmark = pytest.mark.django_db

EN = PageWords("en")
# What the status card leads with must not be a rule with its figures.
FIGURES = re.compile(r"\d\.\d+\s*[<>≤≥]|\|Δ\||dispersion|agreement \d")


def _page(client, debate) -> str:
    response = client.get(f"/debates/{debate.code}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("protocol", ["council", "adversarial", "workflow"])
def test_the_answer_is_the_first_block_under_the_question(member_client, make_debate,
                                                          protocol):
    debate = make_debate(protocol=protocol)
    html = _page(member_client, debate)
    answer = outer_html(html, "answer")
    assert html.index("</header>") < html.index('id="answer"') < html.index('id="debate-status"')
    assert 'class="answer-text"' in answer and 'id="answer-quality"' in answer
    assert escape(EN("answer.quality.sound")) in answer
    assert escape(EN("answer.simulated")) in answer
    assert 'class="answer-risks"' in answer
    # The team's decision is part of the answer: for an editor, the prompt to record it.
    assert 'id="debate-decision"' in answer and "Record the team&#x27;s decision" in answer
    # The process follows: the rounds stay behind their fold.
    assert html.index('id="answer"') < html.index('class="rounds-fold card"')


def test_the_council_answer_says_the_independent_vote_and_what_the_debate_changed(
        member_client, make_debate):
    html = _page(member_client, make_debate())
    vote, change = outer_html(html, "answer-vote"), outer_html(html, "answer-change")
    assert "Independent vote" not in vote  # the label is the <dt>; the <dd> says the vote
    assert re.search(r"\d of \d", vote), vote
    assert "Cross-examination" in change and "<summary>Why</summary>" in change
    assert "First vote:" in change  # the figures, behind "why"


def test_the_council_answer_says_which_vote_the_recommendation_follows(member_client,
                                                                     make_debate):
    rule = outer_html(_page(member_client, make_debate()), "answer-rule")
    assert "by the independent vote, taken before any agent saw another" in rule
    assert "the default: every agent runs one model" in rule


def test_the_status_and_its_stop_reason_read_as_sentences(member_client, make_debate):
    debate = make_debate()
    html = _page(member_client, debate)
    status = outer_html(html, "debate-status")
    stop = re.search(r'<p class="stop">(.*?)</p>', status, re.S).group(1)
    assert stop.startswith("<strong>The panel") and not FIGURES.search(stop), stop
    diagnostic = re.search(r'<p class="diagnostic">(.*?)</p>', status, re.S).group(1)
    assert not FIGURES.search(diagnostic), diagnostic
    why = re.findall(r'<details class="why[^"]*">.*?</details>', status, re.S)
    assert len(why) == 2 and debate.stop_explanation.split(" ")[0] in why[0]


def test_the_synthesis_summary_puts_sentences_first_and_figures_behind_why(
        member_client, make_debate):
    debate = make_debate()
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    summary = re.search(r'<dl class="summary">.*?</dl>', html, re.S).group(0)
    stopped = re.search(r"<dt>Stopped</dt><dd>(.*?)<details", summary, re.S).group(1)
    assert stopped.startswith("The panel") and not FIGURES.search(stopped), stopped


def test_the_answer_arrives_live_with_the_synthesis(member_client, make_debate):
    debate = make_debate(run=False)
    stale = _page(member_client, debate)
    assert 'id="answer"' in stale and "answer-card" not in outer_html(stale, "debate-answer")
    run_to_completion(debate.code)
    debate.refresh_from_db()
    seq = int(re.search(r'data-last-seq="(\d+)"', stale).group(1))
    batch = render_live_fragments(debate, role="editor", after=seq).html
    assert "debate-answer" in {el.attrs.get("id") for el in top_level(batch)}
    updated = apply_oob(stale, batch)
    assert "answer-card" in outer_html(updated, "debate-answer")
    fresh = _page(member_client, debate)
    assert outer_html(updated, "debate-answer") == outer_html(fresh, "debate-answer")


def test_a_decision_shows_in_the_cached_answer_at_once(member_client, member, make_debate):
    debate = make_debate()
    assert "Record the team&#x27;s decision" in _page(member_client, debate)  # now cached
    decision_record(debate=debate, user=member, option="for", rationale="Cheaper to run.")
    answer = outer_html(_page(member_client, debate), "answer")
    assert "Cheaper to run." in answer and "Record the team&#x27;s decision" not in answer


def test_compare_and_the_rerun_say_what_changed(member_client, make_debate):
    parent = make_debate(options=["Kafka", "SQS"])
    child = make_debate(options=["Kafka", "SQS", "Google Pub/Sub"], parent=parent,
                        mode="medium")
    compare = member_client.get(
        f"/debates/compare?a={parent.code}&b={child.code}").content.decode()
    for html in (compare, _page(member_client, child)):
        changes = outer_html(html, "run-changes")
        options = outer_html(changes, "run-change-options")
        assert "+ Google Pub/Sub" in options and "added" in options
        assert "Kafka" not in options  # only what changed
        assert "quick → medium" in outer_html(changes, "run-change-mode")
        assert "run-change-question" not in changes
    assert compare.index('id="run-changes"') < compare.index('class="card compare-side"')
    assert 'id="run-changes"' not in _page(member_client, parent)


def test_two_runs_of_the_same_settings_say_so(member_client, make_debate):
    parent = make_debate(options=["Kafka", "SQS"], seed=3)
    child = make_debate(options=["Kafka", "SQS"], parent=parent, seed=3)
    html = _page(member_client, child)
    assert EN("runs.same") in outer_html(html, "run-changes")
