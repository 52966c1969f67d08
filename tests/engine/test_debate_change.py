"""What the debate changed (docs/protocols.md 1.9): the first vote (the independent
positions, round 0) against the final plurality, derived from the result's verdict splits
when it is read, in its JSON and its Markdown report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from debates.engine import get_protocol
from debates.engine.protocols.council.change import ChangeOutcome, describe_change
from debates.engine.protocols.council.labels import labels
from debates.engine.protocols.council.schemas import DebateResult
from tests.engine.test_trajectories import agent, debate

FIXTURES = Path(__file__).parents[1] / "fixtures" / "results"
OPTIONS = ["SQS", "Kafka", "conditional"]


def _split(counts: dict[str, int], of: int) -> dict[str, Any] | None:
    """A split as the council stores it (verdicts.split's rule: a tie leads nobody)."""
    if not counts:
        return None
    top = max(counts.values())
    leaders = [o for o in OPTIONS if counts.get(o) == top]
    return {"counts": {o: counts[o] for o in OPTIONS if counts.get(o)}, "of": of,
            "supporters": top, "leading": leaders[0] if len(leaders) == 1 else None,
            "agreement": top / of}


def result(before: dict[str, int], after: dict[str, int], *, agents: int = 5,
           counted: int | None = None, rounds: int = 2) -> DebateResult:
    """The stored council fixture with these votes: ``agents`` on the panel, ``counted``
    of them with a position (the rest failed in it)."""
    stored = json.loads((FIXTURES / "council.json").read_text())
    template = stored["agents"][0]
    counted = agents if counted is None else counted
    stored.update(
        options=OPTIONS, rounds_completed=rounds,
        agents=[{**template, "index": i} for i in range(agents)],
        verdicts_before=_split(before, counted), verdicts_after=_split(after, counted))
    return DebateResult.model_validate(stored)


def test_a_flipped_vote_says_the_debate_changed_the_answer():
    change = result({"SQS": 3, "Kafka": 2}, {"conditional": 3, "SQS": 2}).debate_change
    assert change is not None
    assert change.words == ("First vote: SQS 3:2; after cross-examination: conditional 3:2 "
                            "(the debate changed the answer)")
    assert (change.first.plurality, change.final.plurality) == ("SQS", "conditional")
    assert change.outcome is ChangeOutcome.CHANGED and change.changed


def test_a_kept_vote_says_the_debate_kept_the_answer():
    change = result({"SQS": 3, "Kafka": 2, "conditional": 1}, {"SQS": 4, "Kafka": 2},
                    agents=6).debate_change
    assert change is not None and not change.changed
    assert change.words == ("First vote: SQS 3:2:1; after cross-examination: SQS 4:2 "
                            "(the debate kept the answer)")
    unanimous = result({"Kafka": 5}, {"Kafka": 5}).debate_change
    assert unanimous is not None
    assert unanimous.words.startswith("First vote: Kafka 5:0; after cross-examination: Kafka 5:0")


def test_a_tie_is_said_as_a_tie_never_broken():
    # VerdictSplit's rule: a tie has no plurality, so no option is picked for it.
    settled = result({"SQS": 2, "Kafka": 2}, {"Kafka": 3, "SQS": 1}, agents=4).debate_change
    assert settled is not None
    assert settled.first.plurality is None and settled.first.tied == ["SQS", "Kafka"]
    assert settled.words == ("First vote: tied, SQS 2, Kafka 2; after cross-examination: "
                             "Kafka 3:1 (the debate settled the tie)")
    assert settled.outcome is ChangeOutcome.SETTLED and settled.changed

    unsettled = result({"SQS": 3, "Kafka": 1}, {"Kafka": 2, "SQS": 2}, agents=4).debate_change
    assert unsettled is not None and unsettled.changed
    assert unsettled.words.endswith("after cross-examination: tied, SQS 2, Kafka 2 "
                                    "(the debate ended in a tie: no answer)")

    still = result({"SQS": 2, "Kafka": 2}, {"SQS": 2, "Kafka": 2}, agents=4).debate_change
    assert still is not None and not still.changed
    assert still.outcome is ChangeOutcome.STILL_TIED
    assert still.words.endswith("(still tied: no answer)")


def test_an_agent_whose_position_failed_is_left_out_and_the_count_says_so():
    change = result({"SQS": 2, "Kafka": 1}, {"SQS": 3}, agents=4, counted=3).debate_change
    assert change is not None
    assert (change.first.votes, change.first.agents) == (3, 4)
    assert change.words == ("First vote: SQS 2:1 (3 of 4 agents); after cross-examination: "
                            "SQS 3:0 (3 of 4 agents) (the debate kept the answer)")


def test_a_result_without_verdicts_says_nothing_of_a_change():
    bare = result({}, {})
    assert bare.debate_change is None
    assert bare.model_dump(mode="json")["debate_change"] is None
    report = get_protocol("council").render_markdown(bare)
    assert "What the debate changed" not in report


def test_no_round_of_cross_examination_is_said():
    change = result({"SQS": 3, "Kafka": 2}, {"SQS": 3, "Kafka": 2}, rounds=0).debate_change
    assert change is not None
    assert change.words == "First vote: SQS 3:2; no round of cross-examination ran"


def test_the_json_and_the_report_carry_it():
    flipped = result({"SQS": 3, "Kafka": 2}, {"conditional": 3, "SQS": 2})
    dumped = json.loads(flipped.model_dump_json())
    assert dumped["debate_change"]["changed"] is True
    assert dumped["debate_change"]["first"] == {
        "plurality": "SQS", "tied": [], "counts": {"SQS": 3, "Kafka": 2}, "votes": 5,
        "agents": 5}
    assert dumped["debate_change"]["final"]["plurality"] == "conditional"
    # A dumped result loads again: the derived key is read, never stored back.
    assert DebateResult.model_validate(dumped).debate_change == flipped.debate_change
    report = get_protocol("council").render_markdown(flipped)
    assert ("**What the debate changed:** First vote: SQS 3:2; after cross-examination: "
            "conditional 3:2 (the debate changed the answer)  \n") in report
    assert report.index("**Verdicts:**") < report.index("**What the debate changed:**") \
        < report.index("**Options:**")


def test_the_words_follow_the_language():
    change = result({"SQS": 3, "Kafka": 2}, {"conditional": 3, "SQS": 2}).debate_change
    assert change is not None
    assert describe_change(change, labels("fr")) == (
        "Premier vote : SQS 3:2 ; après le contre-interrogatoire : sous conditions 3:2 "
        "(le débat a changé la réponse)")
    french = result({"SQS": 3, "Kafka": 2}, {"SQS": 5})
    french = french.model_copy(update={"language": "fr"})
    assert french.debate_change is not None
    assert french.debate_change.words.startswith("Premier vote : SQS 3:2")


@pytest.mark.parametrize("name", ["adversarial", "workflow"])
def test_a_protocol_without_a_vote_gets_nothing(name):
    stored = json.loads((FIXTURES / f"{name}.json").read_text())
    protocol = get_protocol(name)
    parsed = protocol.parse_result(stored)
    assert "debate_change" not in parsed.model_dump(mode="json")
    assert "What the debate changed" not in protocol.render_markdown(parsed)


async def test_a_debate_run_by_the_engine_says_what_it_changed():
    # Ann and Bo come round to Cy's answer in round 1; Di's position fails.
    _, flipped, _ = await debate([
        agent("Ann", 0.7, [{"updated_verdict": "against"}], position_verdict="for"),
        agent("Bo", 0.7, [{"updated_verdict": "against"}], position_verdict="for"),
        agent("Cy", 0.7, [{}], position_verdict="against"),
        agent("Di", 0.7, position_verdict="for", fail_in=["position"]),
    ], max_rounds=1)
    change = flipped.debate_change
    assert change is not None
    assert change.words == ("First vote: for 2:1 (3 of 4 agents); after cross-examination: "
                            "against 3:0 (3 of 4 agents) (the debate changed the answer)")
    # The same votes the calibration scores (DebateForecasts' majorities).
    forecasts = get_protocol("council").forecasts(flipped)
    assert (forecasts.initial_majority, forecasts.final_majority) == ("for", "against")
