"""The decision rule (docs/protocols.md 1.9, "The decision rule"): which vote the
council's recommendation follows, the independent and final votes every result carries,
and the flag when the debate overturned the independent vote. Values worked by hand."""

from __future__ import annotations

import json

import pytest

from debates.engine import get_protocol, resolve_config, run_protocol
from debates.engine.hooks import EngineHooks
from debates.engine.llm.usage import usage_from_calls
from debates.engine.protocols.council.change import VoteTally
from debates.engine.protocols.council.decision import (
    RuleSource,
    decide,
    resolve_rule,
)
from debates.engine.protocols.council.labels import labels
from debates.engine.protocols.council.pages import page_answer
from debates.engine.protocols.council.schemas import DebateResult
from debates.engine.protocols.council.synthesis import build_result, synthesis_messages
from debates.engine.schemas import DecisionRule, Persona, SimulatorOptions
from debates.engine.state import DebateState
from debates.engine.votes import confidence_ranks, confidence_scores, confidence_vote
from tests.engine.test_debate_change import FIXTURES
from tests.engine.test_debate_change import result as stored_result
from tests.engine.test_trajectories import agent, debate

OPTIONS = ["for", "against", "conditional"]
EN = labels("en")


def vote(counts: dict[str, int]) -> VoteTally:
    top = max(counts.values())
    leaders = [o for o in counts if counts[o] == top]
    return VoteTally(plurality=leaders[0] if len(leaders) == 1 else None,
                     tied=leaders if len(leaders) > 1 else [], counts=counts,
                     votes=sum(counts.values()), agents=sum(counts.values()))


def test_confidence_ranks_share_their_mean_rank_on_ties():
    assert confidence_ranks([0.9, 0.9, 0.6]) == [2.5, 2.5, 1.0]
    assert confidence_ranks([0.5, 0.8, 0.7, 0.8]) == [1.0, 3.5, 2.0, 3.5]
    # A saturated panel: every rank the same, so the weighted vote is the plain vote.
    assert confidence_ranks([0.9] * 4) == [2.5] * 4


def test_confidence_scores_sum_ranks_per_option():
    # for: 0.6 (rank 1) + 0.7 (rank 2) = 3; against: 0.95 (3) + 0.99 (4) = 7.
    positions = [("for", 0.6), ("for", 0.7), ("against", 0.95), ("against", 0.99),
                 (None, 0.8), ("for", None)]
    assert confidence_scores(positions, OPTIONS) == {"for": 3.0, "against": 7.0}


def test_the_confidence_vote_reads_ranks_and_breaks_ties_by_the_votes_then_the_first_given():
    # for at 0.6 and 0.7 (ranks 1, 2): 3; against at 0.9 (rank 3): 3, a tie. A lone
    # dissenter at 0.99 can only tie two agents, whatever its number: ranks 1.5 + 1.5
    # against 3.
    assert confidence_vote([("for", 0.6), ("for", 0.7), ("against", 0.9)]) == "for"
    sure_dissenter_first = [("against", 0.99), ("for", 0.5), ("for", 0.6)]
    # Without a vote to break it, the first given; with the independent vote, its
    # plurality, as the council's rule breaks it.
    assert confidence_vote(sure_dissenter_first) == "against"
    assert confidence_vote(sure_dissenter_first, (["against", "for", "for"],)) == "for"
    # The independent vote tied too: the final vote breaks it.
    assert confidence_vote([("for", 0.9), ("against", 0.9)],
                           (["for", "against"], ["against", "against"])) == "against"
    # Two sure agents outweigh three unsure ones: ranks 4 + 5 = 9 against 1 + 2 + 3 = 6,
    # whatever the vote says.
    assert confidence_vote([("for", 0.5), ("for", 0.6), ("for", 0.7), ("against", 0.9),
                            ("against", 0.95)], (["for"] * 3 + ["against"] * 2,)) == "against"
    assert confidence_vote([("for", None), (None, 0.8)]) is None


def test_each_rule_picks_its_own_option():
    first, final = vote({"for": 3, "against": 2}), vote({"against": 4, "for": 1})
    # Five agents: the three on "for" the least sure (ranks 1, 2, 3 = 6), the two on
    # "against" the surest (4 + 5 = 9).
    positions = [("for", 0.55), ("for", 0.6), ("for", 0.65), ("against", 0.8),
                 ("against", 0.9)]
    picks = {rule: decide(rule, RuleSource.SETTING, OPTIONS, first, final, positions, EN)
             for rule in DecisionRule}
    assert picks[DecisionRule.VOTE].option == "for"
    assert picks[DecisionRule.VOTE].scores == {"for": 3.0, "against": 2.0}
    assert picks[DecisionRule.DEBATE].option == "against"
    assert picks[DecisionRule.CONFIDENCE].option == "against"
    assert picks[DecisionRule.CONFIDENCE].scores == {"for": 6.0, "against": 9.0}
    assert all(not p.tied and p.tie_break == "" for p in picks.values())
    assert picks[DecisionRule.VOTE].words == (
        "for, by the independent vote, taken before any agent saw another's position "
        "(chosen for this debate)")


def test_saturated_confidences_weigh_as_a_plain_vote():
    first = vote({"for": 2, "against": 1})
    positions = [("for", 0.9), ("for", 0.9), ("against", 0.9)]
    picked = decide(DecisionRule.CONFIDENCE, RuleSource.SETTING, OPTIONS, first, first,
                    positions, EN)
    assert picked.option == "for" and picked.scores == {"for": 4.0, "against": 2.0}


def test_a_tie_is_said_and_broken_by_the_rules_chain():
    # The independent vote ties 2:2; the final vote breaks it.
    tied, final = vote({"for": 2, "against": 2}), vote({"against": 3, "for": 1})
    picked = decide(DecisionRule.VOTE, RuleSource.SETTING, OPTIONS, tied, final, [], EN)
    assert (picked.option, picked.tied, picked.tie_break) == ("against", ["for", "against"],
                                                             "debate")
    assert picked.words.endswith("(tied: for 2, against 2; broken by the final vote)")
    # Tied before and after: the options' order decides, and says so.
    still = decide(DecisionRule.VOTE, RuleSource.SETTING, OPTIONS, tied, tied, [], EN)
    assert (still.option, still.tie_break) == ("for", "order")
    # Confidence ranks tie (a lone sure agent against two unsure ones: 3 against 1 + 2):
    # the independent vote breaks it.
    positions = [("for", 0.5), ("for", 0.6), ("against", 0.9)]
    ranked = decide(DecisionRule.CONFIDENCE, RuleSource.SETTING, OPTIONS,
                    vote({"for": 2, "against": 1}), vote({"against": 3}), positions, EN)
    assert (ranked.option, ranked.tied, ranked.tie_break) == ("for", ["for", "against"],
                                                             "vote")


def test_the_default_rule_is_the_vote_unless_the_models_differ():
    assert resolve_rule(None, ["m", "m", "m"]) == (DecisionRule.VOTE, RuleSource.ONE_MODEL)
    assert resolve_rule(None, ["m", "n", "m"]) == (DecisionRule.DEBATE,
                                                   RuleSource.MIXED_MODELS)
    assert resolve_rule(DecisionRule.CONFIDENCE, ["m", "n"]) == (DecisionRule.CONFIDENCE,
                                                                 RuleSource.SETTING)


def test_a_result_stored_before_rules_followed_the_debate():
    stored = json.loads((FIXTURES / "council.json").read_text())
    loaded = DebateResult.model_validate(stored)
    assert loaded.decision_rule is DecisionRule.DEBATE
    assert loaded.decision.source is RuleSource.STORED_BEFORE
    flipped = stored_result({"SQS": 3, "Kafka": 2}, {"conditional": 3, "SQS": 2})
    assert flipped.overturned and flipped.decision.option == "conditional"
    kept = stored_result({"SQS": 3, "Kafka": 2}, {"SQS": 4, "Kafka": 1})
    settled = stored_result({"SQS": 2, "Kafka": 2}, {"Kafka": 3, "SQS": 1}, agents=4)
    no_rounds = stored_result({"SQS": 3, "Kafka": 2}, {"Kafka": 3, "SQS": 2}, rounds=0)
    # A tie first is no majority to overturn; nor is a debate that never ran a round.
    assert not kept.overturned and not settled.overturned and not no_rounds.overturned
    assert stored_result({"SQS": 3, "Kafka": 1}, {"Kafka": 2, "SQS": 2},
                         agents=4).overturned


FLIP = [  # Ann and Bo come round to Cy's "against"; the independent vote was "for" 2:1.
    agent("Ann", 0.6, [{"updated_verdict": "against",
                        "concessions": ["Cy's migration estimate is more realistic"]}],
          position_verdict="for"),
    agent("Bo", 0.7, [{"updated_verdict": "against"}], position_verdict="for"),
    agent("Cy", 0.9, [{}], position_verdict="against"),
]


async def test_an_overturned_vote_is_flagged_with_the_movers_reasons():
    state, flipped, _ = await debate(FLIP, max_rounds=1)
    assert flipped.decision_rule is DecisionRule.VOTE  # one model: the default
    assert flipped.decision_rule_source is RuleSource.ONE_MODEL
    assert flipped.independent_vote is not None and flipped.final_vote is not None
    assert flipped.independent_vote.plurality == "for"
    assert flipped.final_vote.plurality == "against"
    assert flipped.decision.option == "for" and flipped.overturned
    movers = {m.agent: m for m in flipped.overturn_movers}
    assert set(movers) == {"Ann", "Bo"}
    assert movers["Ann"].concessions == ["Cy's migration estimate is more realistic"]
    assert (movers["Ann"].from_verdict, movers["Ann"].to_verdict) == ("for", "against")
    # The synthesizer is told which option to recommend, and that the room moved.
    prompt = synthesis_messages(state)[0][-1]["content"]
    assert "the recommended path must recommend for." in prompt
    assert "The final positions lean against" in prompt

    dumped = json.loads(flipped.model_dump_json())
    assert dumped["decision_rule"] == "vote" and dumped["overturned"] is True
    assert dumped["independent_vote"]["counts"] == {"for": 2, "against": 1}
    assert dumped["final_vote"]["counts"] == {"against": 3}
    assert dumped["decision"]["option"] == "for"
    assert [m["agent"] for m in dumped["overturn_movers"]] == ["Ann", "Bo"]
    assert DebateResult.model_validate(dumped).decision == flipped.decision

    report = get_protocol("council").render_markdown(flipped)
    assert ("**Decision rule:** for, by the independent vote, taken before any agent saw "
            "another's position (the default: every agent runs one model)") in report
    assert "## For review: the debate overturned the independent vote" in report
    assert ("## Recommended path\n\n*Decision rule: for, by the independent vote, taken "
            "before any agent saw another's position (the default: every agent runs one "
            "model)*\n") in report
    assert "- **Ann: for → against**\n  - Cy's migration estimate is more realistic" in report
    assert "- **Bo: for → against**\n  - conceded nothing in words" in report

    # The page's answer block says it too, in the page's language.
    facts = {f.key: f for f in page_answer(flipped, labels("fr")).facts}
    assert facts["rule"].text.startswith("pour, selon le vote indépendant")
    assert facts["overturn"].label == "À revoir : le débat a renversé le vote indépendant"
    assert facts["overturn"].text == "Ann : pour → contre; Bo : pour → contre"
    assert facts["overturn"].why == ("Ann: Cy's migration estimate is more realistic; "
                                     "Bo: n'a rien concédé en mots")


@pytest.mark.parametrize(("rule", "option"), [("debate", "against"), ("confidence", "for"),
                                              ("vote", "for")])
async def test_the_rule_asked_for_picks_the_option(rule, option):
    # Confidence ranks: Ann 0.6 (1) + Bo 0.7 (2) = 3 for "for", Cy 0.9 (3) for
    # "against": tied, broken by the independent vote (2:1 for).
    state, result, _ = await debate(FLIP, max_rounds=1, decision_rule=rule)
    assert result.decision_rule.value == rule
    assert result.decision_rule_source is RuleSource.SETTING
    assert result.decision.option == option and result.overturned
    assert f"must recommend {option}." in synthesis_messages(state)[0][-1]["content"]


async def test_a_kept_vote_is_not_flagged():
    _, kept, _ = await debate([
        agent("Ann", 0.6, [{}], position_verdict="for"),
        agent("Bo", 0.7, [{}], position_verdict="for"),
        agent("Cy", 0.9, [{"updated_verdict": "for"}], position_verdict="against"),
    ], max_rounds=1)
    assert kept.decision.option == "for" and not kept.overturned
    assert kept.overturn_movers == []
    assert "For review" not in get_protocol("council").render_markdown(kept)


@pytest.mark.parametrize("protocol", ["adversarial", "workflow"])
def test_a_rule_for_a_protocol_without_a_vote_is_refused(protocol):
    with pytest.raises(ValueError, match="takes no vote"):
        resolve_config(protocol=protocol, decision_rule="vote")


async def test_a_mixed_panel_follows_the_debate_by_default():
    def persona(name: str, model: str) -> Persona:
        return Persona(name=name, background="CFO", expertise="Pricing",
                       approach="Downside first", bias="Cautious", model=model)

    state = DebateState(
        question="Should we migrate our billing service to PostgreSQL?",
        config=resolve_config(mode="quick", agents=3, max_rounds=1, retry_backoff_s=0.0,
                              simulator=SimulatorOptions(script={"agents": FLIP})),
        given_personas=[persona("Ann", "sim/default"), persona("Bo", "sim/second"),
                        persona("Cy", "sim/default")])
    await run_protocol(state, EngineHooks())
    result = build_result(state, usage_from_calls([]))
    assert [a.model for a in result.agents] == ["sim/default", "sim/second", "sim/default"]
    assert (result.decision_rule, result.decision_rule_source) == (
        DecisionRule.DEBATE, RuleSource.MIXED_MODELS)
    assert result.decision.option == "against" and result.overturned
    assert result.decision.words.endswith("(the default: the panel's models differ)")


async def test_panel_models_make_a_mixed_panel_that_follows_the_debate():
    _, result, _ = await debate(FLIP, max_rounds=1, panel_models=["sim/default", "sim/second"])
    assert [a.model for a in result.agents] == ["sim/default", "sim/second", "sim/default"]
    assert result.decision_rule_source is RuleSource.MIXED_MODELS
    assert result.decision.option == "against"
