"""A question can be 20,000 characters. The debate page's heading is its first sentence,
clamped; the whole question sits beneath it in a folded <details>, so the status card
stays near the top."""

from __future__ import annotations

from debates.engine.schemas import MAX_QUESTION_CHARS
from debates.templatetags.council import HEADLINE_CHARS, beyond_headline, headline
from tests.web.htmltools import parse

FIRST = "Should we split the billing monolith into services this year?"


def _long_question() -> str:
    filler = " ".join(f"Constraint {n}: the ledger must stay consistent." for n in range(1000))
    return f"{FIRST}\n\n{filler}"[:MAX_QUESTION_CHARS]


def test_headline_is_the_first_sentence_or_line_clamped_at_a_word():
    assert headline("Kafka or SQS? We send 2k events a second.") == "Kafka or SQS?"
    assert headline("  Kafka or SQS\nfor events?  ") == "Kafka or SQS"
    assert headline("Use version 2.5 of the API or not?") == "Use version 2.5 of the API or not?"
    long_sentence = "Should we " + "really " * 60 + "move?"
    title = headline(long_sentence)
    assert len(title) <= HEADLINE_CHARS and title.endswith("really…")
    unbroken = "x" * 5000
    assert headline(unbroken) == "x" * (HEADLINE_CHARS - 1) + "…"
    assert not beyond_headline("Kafka or SQS?") and beyond_headline(long_sentence)


def test_a_20000_character_question_is_a_short_heading_and_the_full_text_folded(
        member_client, make_debate):
    question = _long_question()
    assert len(question) == MAX_QUESTION_CHARS
    debate = make_debate(run=False, question=question)
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    doc = parse(html)
    (h1,) = [el for el in doc.elements if el.tag == "h1"]
    heading = html[h1.start:h1.end]
    assert FIRST in heading and len(heading) < 300
    assert "Constraint 0" not in heading
    folded = [el for el in doc.elements if el.tag == "details"
              and "question-full" in (el.attrs.get("class") or "")]
    assert len(folded) == 1 and "open" not in folded[0].attrs
    inside = html[folded[0].start:folded[0].end]
    assert question.split("\n\n", 1)[1] in inside  # everything after the first sentence


def test_a_one_sentence_question_has_no_fold(member_client, make_debate):
    debate = make_debate(run=False, question="Should we use Kafka or SQS for events?")
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "question-full" not in html
    assert '<h1 class="question">Should we use Kafka or SQS for events?</h1>' in html
