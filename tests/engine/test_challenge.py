"""Deep mode's challenge round (docs/protocols.md 1.7a; issue 42 item 3): a hollow
consensus scripted on the simulator is flagged and, in deep mode, a devil's advocate
attacks the leading view and every agent answers before the synthesis."""

from __future__ import annotations

import json

from debates.engine import run_protocol
from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineEventKind
from debates.engine.llm.usage import usage_from_calls
from debates.engine.protocols import get_protocol
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.report import render_markdown
from debates.engine.protocols.council.synthesis import build_result, synthesis_messages
from debates.engine.protocols.council.transcript import render_transcript
from debates.engine.schemas import Phase, SimulatorOptions
from debates.engine.state import DebateState
from tests.engine.test_trajectories import QUESTION, Recorder, agent

QUIET = {"updated_confidence": 0.9, "concessions": [], "remaining_disagreements": []}
MOVES = {"verdict": "against", "confidence": 0.55,
         "concession": "The churn figures from the pilot cut against usage pricing"}


def _hollow(challenges=None):
    """Three agents for from the start, more sure in round 1 with nothing new: hollow."""
    challenges = challenges or {}
    return [agent(name, 0.6, [QUIET], position_verdict="for",
                  **({"challenge": challenges[name]} if name in challenges else {}))
            for name in ("Ann", "Bo", "Cy")]


async def _debate(agents, mode="deep", **config):
    state = DebateState(question=QUESTION, config=resolve_config(
        mode=mode, agents=len(agents), retry_backoff_s=0.0,
        simulator=SimulatorOptions(script={"agents": agents}), **config))
    hooks = Recorder()
    await run_protocol(state, hooks)
    assert state.view.failure() is None, state.view.failure()
    return state, build_result(state, usage_from_calls(hooks.calls)), hooks


def _hollow_reason(result):
    [hollow] = [r for r in result.quality_reasons if r.rule == "consensus.hollow"]
    return hollow


async def test_a_hollow_consensus_in_deep_mode_is_flagged_and_survives_its_challenge():
    state, result, hooks = await _debate(_hollow())
    hollow = _hollow_reason(result)
    assert hollow.evidence.startswith("all for, confidence 0.60 → 0.90; no new point")
    assert hollow.where.endswith("(it survived a challenge: nobody moved)")
    # The calls: one devil's advocate (a panel call), then one answer per agent.
    phases = [(c.phase, c.agent) for c in hooks.calls]
    assert phases.count((CouncilPhase.CHALLENGE, -1)) == 1
    assert sorted(a for p, a in phases if p is CouncilPhase.CHALLENGE_ANSWER) == [0, 1, 2]
    # The steps, in order: the rounds, the challenge, the answers, then the synthesis.
    started = [e.step for e in hooks.events if e.kind is EngineEventKind.STEP_STARTED]
    last_round = f"round {result.rounds_completed}"
    assert started.index(last_round) < started.index("challenge") \
        < started.index("challenge_answer") < started.index("synthesis")
    challenge = result.challenge
    assert challenge is not None and challenge.ran and challenge.survived
    assert challenge.target_verdict == "for" and challenge.attacks
    assert [r.agent for r in challenge.responses] == ["Ann", "Bo", "Cy"]
    assert all(r.answers and not r.moved for r in challenge.responses)
    assert result.final_vote is not None and result.final_vote.counts == {"for": 3}
    # The synthesizer is told of the challenge and how the panel answered it.
    [_, user] = [m["content"] for m in synthesis_messages(state)[0]][-2:]
    assert "devil's advocate then attacked the leading view, for" in user
    assert "- Ann: held for" in user
    # The transcript carries the advocate's turn and the answers.
    transcript = render_transcript(state)
    assert "## challenge\n\n### Devil's advocate" in transcript
    assert "## challenge_answer" in transcript


async def test_an_agent_the_challenge_moves_changes_the_final_vote():
    _, result, _ = await _debate(_hollow({"Bo": MOVES, "Cy": MOVES}), decision_rule="debate")
    challenge = result.challenge
    assert [r.agent for r in challenge.movers] == ["Bo", "Cy"] and not challenge.survived
    # The rounds' metrics keep the rounds' verdicts; the end is read after the challenge.
    assert result.metrics[-1].verdict_counts == {"for": 3}
    assert result.verdicts_after.counts == {"for": 1, "against": 2}
    assert result.final_vote.plurality == "against" and result.overturned
    assert result.decision.option == "against"
    cy = next(a for a in result.agents if a.persona.name == "Cy")
    assert (cy.final_verdict, cy.final_confidence) == ("against", 0.55)
    assert cy.verdict_by_round[-1] == "for"
    [mover] = [m for m in result.overturn_movers if m.agent == "Cy"]
    assert mover.concessions[-1] == MOVES["concession"]
    assert _hollow_reason(result).where.endswith("(a challenge moved 2 of 3: Bo, Cy)")
    report = render_markdown(result)
    assert "## Challenge (deep mode)" in report
    assert "attacked the leading view, for: 2 of 3 agents left it." in report
    assert "Cy: for → against" in report and MOVES["concession"] in report


async def test_one_mover_of_three_leaves_the_vote_but_is_recorded():
    _, result, _ = await _debate(_hollow({"Cy": MOVES}))
    assert result.final_vote.counts == {"for": 2, "against": 1}
    assert [r.agent for r in result.challenge.movers] == ["Cy"]
    assert not result.overturned and result.decision.option == "for"


async def test_a_split_panel_is_not_challenged_and_the_result_says_why():
    split = [agent("Ann", 0.6, [QUIET], position_verdict="for"),
             agent("Bo", 0.6, [QUIET], position_verdict="against"),
             agent("Cy", 0.6, [QUIET], position_verdict="conditional")]
    _, result, hooks = await _debate(split)
    assert not {c.phase for c in hooks.calls} & {CouncilPhase.CHALLENGE,
                                                  CouncilPhase.CHALLENGE_ANSWER}
    assert result.challenge is not None and not result.challenge.ran
    assert "no verdict is held by a majority" in result.challenge.skipped
    assert "No challenge: no verdict is held by a majority" in render_markdown(result)


async def test_medium_mode_never_challenges():
    _, result, hooks = await _debate(_hollow(), mode="medium")
    assert "consensus.hollow" in {r.rule for r in result.quality_reasons}
    assert CouncilPhase.CHALLENGE not in {c.phase for c in hooks.calls}
    assert result.challenge is None
    assert "## Challenge" not in render_markdown(result)
    assert _hollow_reason(result).where == "every agent's verdict after round 2"


async def test_one_more_round_drops_the_old_challenge_and_runs_a_new_one():
    state, result, _ = await _debate(_hollow())
    protocol = get_protocol("council")
    protocol.request_more_round(state)
    assert state.turn(CouncilPhase.CHALLENGE) is None
    assert state.turn(CouncilPhase.CHALLENGE_ANSWER, 0, 0) is None
    await run_protocol(state, Recorder())
    assert state.turn(CouncilPhase.CHALLENGE) is not None
    assert state.turn(Phase.SYNTHESIS) is not None


async def test_the_result_json_carries_the_challenge_and_loads_back():
    _, result, _ = await _debate(_hollow({"Cy": MOVES}))
    dumped = json.loads(result.model_dump_json())
    assert dumped["challenge"]["ran"] is True
    assert dumped["challenge"]["responses"][2]["concession"] == MOVES["concession"]
    again = type(result).model_validate_json(result.model_dump_json())
    assert again.challenge == result.challenge


def test_the_estimate_plans_the_challenge_in_deep_mode_only():
    council = get_protocol("council")

    def planned(mode):
        config = resolve_config(mode=mode, model="sim/default")
        return [c.phase for c in council.planned_calls(config, agents_given=0,
                                                       question_tokens=20)]

    deep = planned("deep")
    assert deep.count(CouncilPhase.CHALLENGE) == 1
    assert deep.count(CouncilPhase.CHALLENGE_ANSWER) == 7
    assert CouncilPhase.CHALLENGE not in planned("medium")


def test_the_cli_markdown_and_json_show_the_challenge(tmp_path):
    from tests.cli.test_debate_command import run

    script = tmp_path / "script.yaml"
    script.write_text(
        "agents:\n" + "".join(
            f"  - {{name: {name}, position_confidence: 0.6, position_verdict: for,\n"
            f"     rounds: [{{updated_confidence: 0.9}}]{extra}}}\n"
            for name, extra in (("Ann", ""), ("Bo", ""), (
                "Cy", ",\n     challenge: {verdict: against, concession: The pilot churn}"))))
    common = ("Should we move to usage-based pricing?", "--mode", "deep", "--agents", "3",
              "--sim-script", str(script))
    out, _ = run(*common, "--format", "json")
    challenge = json.loads(out)["challenge"]
    assert challenge["ran"] and challenge["target_verdict"] == "for"
    assert [r["agent"] for r in challenge["responses"] if r["moved"]] == ["Cy"]
    out, _ = run(*common)
    assert "## Challenge (deep mode)" in out
    assert "**Cy: for → against**" in out and "The pilot churn" in out


async def test_an_agent_whose_answer_fails_keeps_its_verdict_and_the_result_says_so():
    agents = _hollow({"Bo": MOVES})
    agents[2]["fail_in"] = ["challenge_answer"]
    _, result, _ = await _debate(agents)
    cy = next(r for r in result.challenge.responses if r.agent == "Cy")
    assert cy.failed and cy.verdict_after == "for" and not cy.moved
    assert result.final_vote.counts == {"for": 2, "against": 1}
    assert next(a for a in result.agents if a.persona.name == "Cy").failed_in \
        == "challenge_answer"
    assert any("Cy" in note and "challenge answer" in note for note in result.degraded_notes)
    assert "no answer (verdict for kept)" in render_markdown(result)
