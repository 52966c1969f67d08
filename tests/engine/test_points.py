"""Points tracked by id: citations decide novelty, word similarity is the fallback."""

from __future__ import annotations

import json
import re

import pytest

from debates.engine import novelty, run_protocol
from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.llm.usage import usage_from_calls
from debates.engine.points import Ledger, LedgerItem, normalise_item, parse_item
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.schemas import CrossExamination
from debates.engine.protocols.council.steps import agent_request
from debates.engine.protocols.council.synthesis import build_result
from debates.engine.schemas import SimulatorOptions, StopReason, Turn
from debates.engine.sim.generate import CallContext, generate
from debates.engine.sim.phrases import salient_phrases
from debates.engine.state import DebateState, Step

from .test_state import add_round, exam, state_with_positions

ROLLBACK = "The rollback plan is untested"
ROLLBACK_REWORDED = "Nobody has ever tried rolling back"
COST = "Migration cost is underestimated"
TIMELINE = "Migration timeline is underestimated"
CHURN = "Churn among the largest customers will rise"


# --------------------------------------------------------------------------- item form


@pytest.mark.parametrize(("raw", "cites", "body"), [
    ("[D3] text", ["D3"], "text"),
    ("  [d3]: text", ["D3"], "text"),
    ("(E1) — text", ["E1"], "text"),
    ("[D3, e1] text", ["D3", "E1"], "text"),
    ("plain text", [], "plain text"),
    ("Q4 revenue falls", [], "Q4 revenue falls"),
])
def test_parse_item_reads_a_leading_citation(raw, cites, body):
    assert parse_item(raw) == (cites, body)


def test_items_may_come_as_objects_or_strings_and_are_stored_as_strings():
    exam_ = CrossExamination.model_validate({
        "reflection": "r",
        "remaining_disagreements": [
            {"text": ROLLBACK_REWORDED, "cites": "D1"},
            {"text": CHURN, "cites": None},
            "(d2): " + COST,
            "plain",
        ],
        "new_evidence_needed": [{"text": "A dry run", "cites": ["E1", "D2"]}],
    })
    assert exam_.remaining_disagreements == [
        f"[D1] {ROLLBACK_REWORDED}", CHURN, f"[D2] {COST}", "plain"]
    assert exam_.new_evidence_needed == ["[E1, D2] A dry run"]
    assert normalise_item(42) == 42  # left for the schema to reject


# --------------------------------------------------------------------------- the ledger


def two_rounds(first: list[str], second: list[str], *, second_also: list[str] = ()
               ) -> Ledger:
    """Agent 0 raises ``first`` in round 1 and says ``second`` (and ``second_also``) in
    round 2."""
    ledger = Ledger()
    ledger.add_round(1, [LedgerItem(0, "D", t) for t in first])
    ledger.add_round(2, [LedgerItem(0, "D", t) for t in [*second_also, *second]])
    return ledger


def test_a_cited_rewording_is_old_where_words_alone_call_it_new():
    assert novelty.similarity(ROLLBACK, ROLLBACK_REWORDED) < novelty.DEFAULT_THRESHOLD
    cited = two_rounds([ROLLBACK], [f"[D1] {ROLLBACK_REWORDED}"])
    assert cited.new_in_round(2) == 0
    assert cited.get("D1").cited_in == [2] and cited.get("D1").open_after(2)
    # The fallback for a model that ignores ids errs as before: counted new.
    ignored = two_rounds([ROLLBACK], [ROLLBACK_REWORDED])
    assert ignored.new_in_round(2) == 1


def test_an_uncited_different_point_is_new_where_words_alone_call_it_old():
    assert novelty.similarity(COST, TIMELINE) >= novelty.DEFAULT_THRESHOLD
    ledger = two_rounds([COST, CHURN], [TIMELINE], second_also=[f"[D2] {CHURN}"])
    assert ledger.new_in_round(2) == 1
    assert ledger.get("D3").text == TIMELINE and ledger.get("D3").round == 2
    assert not ledger.get("D1").open_after(2)  # nobody raised the cost point again


def test_without_any_ids_the_fallback_counts_exactly_as_word_similarity_did():
    rounds = [
        [COST, "The team has no experience running Kubernetes.", CHURN],
        [TIMELINE, "Our team lacks experience with running Kubernetes.", ROLLBACK,
         "Nobody ever tested the rollback plan"],
        ["Evidence on the cost of migration is missing.", "On-call load will double."],
    ]
    ledger = Ledger()
    for r, items in enumerate(rounds, 1):
        ledger.add_round(r, [LedgerItem(r % 2, "D", t) for t in items])
        earlier = [t for q in rounds[: r - 1] for t in q]
        assert ledger.new_in_round(r) == novelty.count_new_items(items, earlier)


def test_a_verbatim_repeat_is_old_even_from_an_agent_that_cites():
    ledger = two_rounds([COST, CHURN], [COST.lower() + "."], second_also=[f"[D2] {CHURN}"])
    assert ledger.new_in_round(2) == 0


def test_a_citation_of_an_unknown_or_same_round_id_is_ignored():
    ledger = Ledger()
    ledger.add_round(1, [LedgerItem(0, "D", COST)])
    ledger.add_round(2, [
        LedgerItem(0, "D", f"[D9] {CHURN}"),          # made up: judged by words, new
        LedgerItem(1, "D", f"[D9] {COST.lower()}"),  # made up: judged by words, old
        LedgerItem(1, "D", f"[D2] {ROLLBACK}"),      # D2 is this round's: not citable
    ])
    assert ledger.new_in_round(2) == 2
    assert [p.id for p in ledger.points.values()] == ["D1", "D2", "D3"]
    assert ledger.get("D2").text == CHURN and ledger.get("D3").text == ROLLBACK


def test_near_duplicates_within_a_round_merge_whoever_wrote_them():
    ledger = Ledger()
    ledger.add_round(1, [LedgerItem(0, "D", CHURN), LedgerItem(1, "D", COST)])
    ledger.add_round(2, [
        LedgerItem(0, "D", f"[D1] {CHURN}"),
        LedgerItem(0, "E", "A benchmark of the billing service"),
        LedgerItem(1, "E", "Benchmark the billing service"),
    ])
    assert ledger.new_in_round(2) == 1
    e1 = ledger.get("E1")
    assert [m.how for m in e1.mentions] == ["raised", "merged"] and e1.agents == [0, 1]


def test_severity_and_resolution_per_round_for_a_critics_issues():
    ledger = Ledger()
    ledger.add_round(1, [LedgerItem(-1, "I", "No input validation", severity="red")])
    ledger.add_round(2, [LedgerItem(-1, "I", "[I1] Input validation still missing",
                                    severity="yellow")])
    ledger.set_status("I1", 3, resolved=True)
    issue = ledger.get("I1")
    assert (issue.severity_at(1), issue.severity_at(2)) == ("red", "yellow")
    assert issue.open_after(2) and not issue.open_after(3)


# --------------------------------------------------------------------------- in a debate


def debate_state():
    state = state_with_positions([0.3, 0.6, 0.9])
    add_round(state, 1, [exam(disagreements=[COST]), exam(disagreements=[ROLLBACK]),
                         exam(evidence=["A dry run of the migration"])])
    add_round(state, 2, [
        exam(disagreements=[f"[D2] {ROLLBACK_REWORDED}", TIMELINE]),
        exam(disagreements=[{"text": ROLLBACK_REWORDED, "cites": "D2"}]),
        exam(evidence=["[E1] A migration rehearsal"]),
    ])
    return state


def test_state_counts_new_arguments_from_the_ledger():
    state = debate_state()
    assert state.view.metrics(1).new_arguments == 3
    assert state.view.metrics(2).new_arguments == 1  # the timeline point; the rest cite
    assert [p.id for p in state.view.points.raised_before(3)] == ["D1", "D2", "E1", "D3"]


def test_ids_are_derived_from_stored_turns_and_stable_across_reloads():
    state = debate_state()
    stored = [json.loads(t.model_dump_json()) for t in state.turns.values()]
    reloaded = DebateState(question=state.question, config=state.config,
                           given_personas=state.given_personas)
    for turn in reversed(stored):  # arrival order must not matter
        reloaded.add(Turn.model_validate(turn))

    def summary(s):
        return [
            (p.id, p.text, p.raised_by, p.round, p.rounds) for p in s.view.points.points.values()
        ]

    assert summary(reloaded) == summary(state)
    assert reloaded.view.metrics(2).new_arguments == state.view.metrics(2).new_arguments


def test_the_prompt_shows_the_points_with_their_ids_from_round_two():
    state = debate_state()
    _, first, hints1 = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 1), 0, 0)
    assert "[D1]" not in first[1]["content"] and not hints1["point_ids"]
    _, messages, hints = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 3), 1, 0)
    user = messages[1]["content"]
    still, _, dropped = user.partition("No longer raised in round 2:")
    for line in (f"- [D2] {ROLLBACK}", f"- [D3] {TIMELINE}", "- [E1] A dry run of the migration"):
        assert line in still
    assert f"- [D1] {COST}" in dropped
    assert "with its id in brackets" in user
    assert hints["point_ids"][ROLLBACK_REWORDED] == "D2"
    assert hints["point_ids"][COST] == "D1"


def test_a_peers_kept_disagreements_are_cited_by_id_and_worded_once_in_the_points_list():
    state = debate_state()
    _, messages, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 3), 2, 0)
    user = messages[1]["content"]
    peers, _, listed = user.partition("Points raised so far")
    assert "Still disputes: [D2], [D3]" in peers  # agent 0 restated D2 and raised D3
    assert "Still disputes: [D2]" in peers
    assert ROLLBACK_REWORDED not in peers and TIMELINE not in peers
    assert f"- [D3] {TIMELINE}" in listed
    # Agent 0's own kept points are its entry of the same list, which it is told is its own.
    _, own, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 3), 0, 0)
    own_user = own[1]["content"]
    assert own_user.startswith(user.partition("You are ")[0])
    label = re.search(r"^Above, you are (.+?);", own_user, re.M)[1]
    entry = own_user.split(f"### {label}")[1].split("###")[0]
    assert "Still disputes: [D2], [D3]" in entry


def test_the_points_shown_ignore_turns_of_the_round_being_asked():
    state = debate_state()
    _, messages, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 2), 0, 0)
    assert f"[D1] {COST}" in messages[1]["content"]
    assert TIMELINE not in messages[1]["content"].split("Points raised so far")[1]


def sim_exam(round_: int, **hints) -> CrossExamination:
    question = "Should we move billing to microservices?"
    ctx = CallContext(
        model="sim/default", schema="CrossExamination", phase="cross_exam", round=round_,
        agent=0, agent_name="Ann", options=SimulatorOptions(seed=3), call_seed=7,
        hints={"round": round_, "own_confidence": 0.6, "peer_mean": 0.5, **hints},
        question=question, language="en", phrases=salient_phrases(question, "en"))
    return CrossExamination.model_validate(generate(ctx))


def test_the_point_hints_change_which_ids_the_simulator_cites_not_its_draws():
    first = sim_exam(1)
    plain = sim_exam(2)
    ids = {text: f"D{n}" for n, text in enumerate(first.remaining_disagreements, 1)}
    cited = sim_exam(2, point_ids=ids)
    assert cited.updated_confidence == plain.updated_confidence
    assert [parse_item(t)[1] for t in cited.remaining_disagreements] == \
        plain.remaining_disagreements
    assert any(parse_item(t)[0] for t in cited.remaining_disagreements)
    assert not any(parse_item(t)[0] for t in plain.remaining_disagreements)


async def simulated(seed: int) -> DebateState:
    state = DebateState(question="Should we move billing to microservices?", config=resolve_config(
        mode="quick", seed=seed, threshold=0.02, max_rounds=6, retry_backoff_s=0.0,
        simulator=SimulatorOptions(seed=seed)))
    await run_protocol(state, EngineHooks())
    assert state.view.failure() is None
    return state


async def test_simulated_agents_cite_ids_and_new_arguments_run_out():
    reached_zero = False
    for seed in range(1, 5):
        state = await simulated(seed)
        for r in range(2, state.view.completed_rounds + 1):
            items = state.view.round_items(r)
            cited = [i for i in items if parse_item(i)[0]]
            assert len(cited) >= 0.7 * len(items)
            for item in cited:  # every citation names a point of an earlier round
                assert all(state.view.points.get(c).round < r for c in parse_item(item)[0])
            metrics = state.view.metrics(r)
            assert metrics.new_arguments <= len(items) - len(cited)
            if metrics.new_arguments == 0:
                reached_zero = True
                if metrics.concessions == 0:  # the rule's no-novelty stop is reachable
                    assert metrics.stop_reason is not None
    assert reached_zero


async def test_surviving_concerns_carry_the_ledger_ids():
    stuck = {"remaining_disagreements": [ROLLBACK]}
    again = {"remaining_disagreements": [f"[D1] {ROLLBACK_REWORDED}"]}
    agents = [{"name": n, "position_confidence": c, "rounds": [r1, again]}
              for n, c, r1 in (("Ann", 0.1, stuck), ("Bo", 0.9, again), ("Cy", 0.5, stuck))]
    state = DebateState(question="Should we ship the migration?", config=resolve_config(
        mode="quick", agents=3, max_rounds=4, retry_backoff_s=0.0,
        simulator=SimulatorOptions(script={"agents": agents})))
    await run_protocol(state, EngineHooks())
    result = build_result(state, usage_from_calls([]))
    assert result.metrics[2].new_arguments == 0
    assert result.stop_reason is StopReason.GENUINE_DISAGREEMENT
    # Bo cited D1 in round 1, before it existed: ignored, and "Nobody has ever tried
    # rolling back" (words unlike D1) became D2; in round 2 everyone cites D1.
    assert state.view.points.get("D2").text == ROLLBACK_REWORDED
    concerns = {c.id: c for c in result.post_positional_concerns}
    assert set(concerns) == {"D1"}  # D2: one agent, dropped after round 1
    assert concerns["D1"].raised_by == ["Ann", "Cy", "Bo"]
    assert concerns["D1"].text == ROLLBACK


def test_an_uncited_restatement_cannot_lower_a_severity_but_a_citation_can():
    ledger = Ledger(0.5, fallback_for_all=True, severity_rank=["green", "yellow", "red"])
    ledger.add_round(1, [LedgerItem(0, "I", "The rollback plan is untested", severity="red")])
    placed = ledger.add_round(2, [LedgerItem(0, "I", "rollback plan untested still",
                                             severity="green")])
    assert placed == [["I1"]] and ledger.get("I1").severity_at(2) == "red"
    ledger.add_round(3, [LedgerItem(0, "I", "[I1] rollback plan", severity="green")])
    assert ledger.get("I1").severity_at(3) == "green"


def test_an_item_matches_by_any_of_its_texts_pairwise():
    ledger = Ledger(0.5)
    ledger.add_round(1, [LedgerItem(0, "I", "Retries", match=("unbounded retries flood "
                                                               "the payment provider",))])
    placed = ledger.add_round(2, [LedgerItem(1, "I", "Payment provider flooding",
                                             match=("unbounded retries flood the payment "
                                                    "provider during outages",))])
    assert placed == [["I1"]] and ledger.new_in_round(2) == 0


STAFFING = "Support staffing is too thin for two systems"


def three_rounds():
    state = state_with_positions([0.3, 0.6, 0.9], max_rounds=3)
    state.add(Turn(phase=CouncilPhase.POSITION, agent=1, payload={
        "stance": "stance 1", "reasoning": ["Bo's opening argument"], "confidence": 0.6,
        "key_assumptions": ["Bo's assumption"]}))
    add_round(state, 1, [exam(disagreements=[COST]), exam(disagreements=[ROLLBACK]),
                         exam(evidence=["A dry run of the migration"])])
    add_round(state, 2, [exam(disagreements=[STAFFING], concessions=["Cost is known"]),
                         exam(disagreements=[f"[D2] {ROLLBACK_REWORDED}"]), exam()])
    add_round(state, 3, [exam(disagreements=["[D2] again"]),
                         exam(disagreements=["[D2] still"]), exam()])
    return state


def test_a_peers_opening_reasoning_is_sent_in_round_one_and_then_its_latest_position():
    state = three_rounds()
    _, first, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 1), 0, 0)
    assert "Bo's opening argument" in first[1]["content"]
    assert "Bo's assumption" in first[1]["content"]
    _, later, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 2), 0, 0)
    bo = later[1]["content"].split("### Bo")[1].split("###")[0]
    assert "Bo's opening argument" not in bo and "Bo's assumption" not in bo
    assert "Stance: stance 1" in bo and "Reflection: thinking" in bo


def test_points_dropped_before_the_last_round_are_named_by_id_only():
    state = three_rounds()
    state.config = state.config.model_copy(update={"max_rounds": 4})
    _, messages, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, 4), 2, 0)
    user = messages[1]["content"]
    assert f"- [D3] {STAFFING}" in user.split("No longer raised in round 3:")[1]
    assert "Dropped earlier: [D1], [E1]" in user
    assert COST not in user


def test_the_synthesis_lists_open_disagreements_as_tracked_points_with_their_holders():
    from debates.engine.protocols.council.synthesis import synthesis_messages

    state = three_rounds()
    assert state.view.stop() is not None
    messages, _ = synthesis_messages(state)
    user = messages[1]["content"]
    opened = user.split("Disagreements still open")[1].split("Concessions")[0]
    assert f"- [D2] {ROLLBACK} (held by Ann, Bo)" in opened
    assert "again" not in opened and "still" not in opened.split("(held")[1]
    # Concessions of rounds before the last are counted: the final stances answer to them.
    assert "- Ann: 1 concession(s) in earlier rounds" in user and "Cost is known" not in user
