"""Citations a small model can make (docs/engine.md, "Sources"; issue 42 item 4): the
passage ids in a field of their own, quotes in any common quotation marks with or
without an id, figures and phrases copied from one passage; and what does not check out
marked and counted. The turns below are written the way Qwen2.5-Coder-1.5B wrote its
own: the document's figures with no citation, single quotes, ids without quotes."""

from __future__ import annotations

from typing import Any

import pytest

from debates.engine.configure import resolve_config
from debates.engine.protocols import get_protocol
from debates.engine.protocols.council.schemas import Position
from debates.engine.protocols.evidence import listed_ids
from debates.engine.protocols.sourced import asked_schema
from debates.engine.schemas import PASSAGES_FIELD, Quality, citing
from debates.engine.sources.citations import (
    citations_in,
    copied_from,
    holding_passage,
    loose_quotes,
    quote_found,
    without_citations,
)
from debates.engine.sources.documents import SourceDocument
from debates.engine.state import DebateState

from .helpers import run

PLAN = ("The council approved the installation of 40 chargers at a cost of £76,000, "
        "funded by the transport grant. Installation starts in the spring.")
USAGE = ("Usage of the existing chargers rose 15% last year, and the maintenance contract "
         "ends in March. The organisation expects more demand from taxis.")
SURVEY = "Residents asked for chargers near the library; 15% of them own an electric car."
PASSAGES = [("S1.1", PLAN), ("S2.1", USAGE), ("S3.1", SURVEY)]
QUESTION = "Should the town expand its electric vehicle charging network?"


def documents() -> list[SourceDocument]:
    return [SourceDocument(id="S1", title="Charging plan", text=PLAN),
            SourceDocument(id="S2", title="Usage report", text=USAGE),
            SourceDocument(id="S3", title="Survey", text=SURVEY)]


@pytest.mark.parametrize("marks", ['"{}"', "'{}'", "“{}”", "‘{}’", "«{}»", "「{}」", "『{}』"])
def test_a_quote_reads_in_any_common_quotation_marks_with_or_without_an_id(marks):
    quote = "the maintenance contract ends in March"
    assert [(c.passage, c.quote) for c in citations_in(
        f"[S2.1] {marks.format(quote)} so we must renew")] == [("S2.1", quote)]
    # Without an id: credited to the passage that holds it.
    assert loose_quotes(f"The report says {marks.format(quote)}.") == [quote]
    assert holding_passage(quote, PASSAGES) == "S2.1"


def test_a_quote_is_matched_whatever_its_punctuation_and_a_typo_but_not_a_figure():
    assert quote_found("usage of the existing chargers rose 15% -- last year", USAGE)
    assert quote_found("The organization expects more demand", USAGE)  # one letter
    assert not quote_found("the organization expects less demand", USAGE)  # two words
    assert not quote_found("usage of the existing chargers rose 25% last year", USAGE)
    assert not quote_found("installation of 41 chargers", PLAN)
    # A word or two in quotation marks is a term, not a quote: never credited.
    assert loose_quotes("a 'quick win' and “the grant”") == []
    # A quote no passage holds is credited to none (it may quote the question or an agent).
    assert holding_passage("we should expand the network now", PASSAGES) is None


def test_figures_and_runs_copied_from_one_passage_count_as_that_passage_used():
    text = ("Installing 40 chargers for £76,000 is affordable; usage rose 15% so demand is "
            "real, and the maintenance contract ends in March.")
    # "15%" is in two passages, so it says nothing of where it came from.
    assert copied_from(text, PASSAGES) == [("S1.1", "40 chargers"),
                                           ("S2.1", "and the maintenance contract ends")]
    # What the question says is no sign of a passage read.
    assert copied_from("expand its electric vehicle charging network", [
        ("S9.1", "They expand its electric vehicle charging network.")], QUESTION) == []
    # Nor is a figure whose number the question gives (the real 0.5B run's "22 leases",
    # asked about "22 expiring van leases"), while the source's own figures count.
    depot = [("S1.1", "The north depot runs 38 diesel vans. The first 22 leases end.")]
    question = "Should the depot switch its 22 expiring van leases to electric vans?"
    assert copied_from("Of 38 diesel vans, 22 leases end", depot, question) == [
        ("S1.1", "38 diesel")]
    # Small numbers and quotes are not copies ("3 years" is in too many texts).
    assert copied_from("in 3 years", [("S9.1", "in 3 years")]) == []
    assert copied_from('[S1.1] "40 chargers at a cost" only', PASSAGES) == []


def test_the_passages_field_is_asked_for_only_when_the_debate_has_sources():
    config = resolve_config(protocol="council")
    without = DebateState(question=QUESTION, config=config)
    with_sources = DebateState(question=QUESTION, config=config, sources=documents())
    assert asked_schema(without, Position) is Position
    assert PASSAGES_FIELD not in Position.model_json_schema()["properties"]
    asked = asked_schema(with_sources, Position)
    assert asked.__name__ == "Position"
    assert asked.model_json_schema()["properties"][PASSAGES_FIELD]["type"] == "array"
    # A small model's list of ids is read in whatever form it comes, and stored.
    answer = asked.model_validate({"stance": "Expand", "reasoning": ["demand"],
                                   "confidence": 0.7, "passages": "S1.1, [S2.1]"})
    payload = answer.model_dump(mode="json")
    assert payload[PASSAGES_FIELD] == ["S1.1", "[S2.1]"]
    assert listed_ids(payload) == ["S1.1", "S2.1"]
    # The stored turn reads back through the plain schema; without sources no key.
    assert Position.model_validate(payload).stance == "Expand"
    assert PASSAGES_FIELD not in Position.model_validate(payload).model_dump()
    assert citing(citing(Position)) is not Position


def _strip_citations(value: Any) -> Any:
    if isinstance(value, str):
        return without_citations(value)
    if isinstance(value, dict):
        return {k: _strip_citations(v) for k, v in value.items() if k != PASSAGES_FIELD}
    if isinstance(value, list):
        return [_strip_citations(v) for v in value]
    return value


def small_model_debate(*turns: dict[str, Any]):
    """A council debate on the charging plan whose own citations are taken out and
    whose positions are ``turns`` (reasoning items and passages)."""
    state, first = run("council", documents(), question=QUESTION, mode="quick", seed=5)
    for turn in state.turns.values():
        if turn.payload:
            turn.payload = _strip_citations(turn.payload)
    positions = sorted((t for t in state.turns.values() if t.phase.value == "position"
                        and t.payload), key=lambda t: t.agent)
    for turn, own in zip(positions, turns, strict=False):
        turn.payload = {**turn.payload, **own}
    state.changed()
    return state, get_protocol("council").build_result(state, first.usage)


def test_a_small_models_citations_are_credited_each_in_its_way():
    _, result = small_model_debate(
        {"reasoning": ["Installing 40 chargers at a cost of £76,000 is within budget.",
                       "[S2.1] 'the maintenance contract ends in March' so renew it"],
         PASSAGES_FIELD: ["S1.1", "S2.1"]},
        {"reasoning": ["The survey says ‘Residents asked for chargers near the library’."]})
    ways = {(c.way, c.passage, c.found) for c in result.evidence.citations}
    assert ways == {("cited", "S2.1", True), ("listed", "S1.1", True),
                    ("quoted", "S3.1", True)}
    # The id listed that the turn also cited is one citation, not two.
    assert [c.way for c in result.evidence.citations if c.passage == "S2.1"] == ["cited"]
    assert {u.passage for u in result.evidence.used} == {"S1.1", "S2.1", "S3.1"}
    assert result.quality is Quality.SOUND
    # Without the field or any quote, the copied figures still show the plan was read.
    _, copied = small_model_debate(
        {"reasoning": ["Installing 40 chargers at a cost of £76,000 is within budget."]})
    assert [(c.way, c.passage, c.quote) for c in copied.evidence.citations] == [
        ("copied", "S1.1", "40 chargers")]
    assert [u.passage for u in copied.evidence.used] == ["S1.1"]


def test_invented_quotes_and_unknown_ids_are_marked_and_make_the_result_doubtful():
    state, result = small_model_debate(
        {"reasoning": ["[S1.1] 'the grant also pays for ten years of electricity' so it is "
                       "free", "Usage rose sharply."],
         PASSAGES_FIELD: ["S1.1", "S7.2"]},
        {"reasoning": ["[S2.1] 'the maintenance contract ends in March' so renew it"]})
    bad = [(c.way, c.passage, c.known) for c in result.evidence.not_found]
    assert bad == [("cited", "S1.1", True), ("listed", "S7.2", False)]
    # 2 of 3 citations do not check out (the listed S1.1 was cited in the same turn).
    assert result.quality is Quality.DOUBTFUL
    reasons = [r for r in result.quality_reasons if r.rule == "evidence.unfound_citation"]
    assert reasons[0].evidence.startswith(
        '2 of 3 citations do not check out; S1.1 does not hold "the grant also pays for')
    assert reasons[1].evidence == "2 of 3 citations do not check out; no passage S7.2"
    report = get_protocol("council").render_markdown(result)
    # Listed with what is wrong, in the report's words; the single quotes became a quote.
    assert ('[S1.1] "the grant also pays for ten years of electricity" *(not found in S1)*'
            in report)
    assert "[S7.2] *(no passage S7.2)*" in report
    assert '"the maintenance contract ends in March" — cited by' in report


async def test_a_figure_copied_in_a_round_does_not_make_a_hollow_consensus_earned():
    # All three for from the start, confidence up, no concession or new point: hollow
    # (docs/engine.md, "Content checks"). A figure every agent repeats is what a herd
    # does; a passage cited with its words is a source brought.
    from tests.engine.test_trajectories import agent, debate

    quiet = {"updated_confidence": 0.9, "concessions": [], "remaining_disagreements": []}
    state, result, _ = await debate([agent(name, 0.6, [quiet], position_verdict="for")
                                     for name in ("Ann", "Bo", "Cy")])
    state.sources = documents()

    def hollow(reflection: str) -> bool:
        for turn in state.turns.values():
            if turn.phase.value == "cross_exam" and turn.payload:
                turn.payload["reflection"] = reflection
        state.changed()
        rebuilt = get_protocol("council").build_result(state, result.usage)
        return "consensus.hollow" in {r.rule for r in rebuilt.quality_reasons}

    assert hollow("We install 40 chargers for £76,000, as agreed.")
    assert not hollow("[S1.1] 'installation of 40 chargers at a cost of £76,000' settles it.")
