"""Fidelity fixes found by held-out scripts (issue 9), each on a scripted trajectory:
what the result claims must match what the debate earned."""

from __future__ import annotations

import re

from debates.engine import run_protocol
from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.llm.usage import usage_from_calls
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.report import render_markdown
from debates.engine.protocols.council.schemas import DiagnosticLabel, SynthesisNarrative
from debates.engine.protocols.council.steps import agent_request
from debates.engine.protocols.council.synthesis import build_result
from debates.engine.schemas import Phase, SimulatorOptions, StopReason, TurnStatus
from debates.engine.state import DebateState, Step

QUESTION = "Should we move to usage-based pricing?"


class Recorder(EngineHooks):
    def __init__(self) -> None:
        self.calls = []

    async def on_call(self, record):
        self.calls.append(record)


def agent(name, confidence, rounds=(), **extra):
    return {"name": name, "position_confidence": confidence, "rounds": list(rounds), **extra}


async def run(agents, question=QUESTION, **config):
    state = DebateState(question=question, config=resolve_config(
        mode="quick", agents=len(agents), retry_backoff_s=0.0,
        simulator=SimulatorOptions(script={"agents": agents}), **config))
    hooks = Recorder()
    await run_protocol(state, hooks)
    return state, hooks


def result_of(state, hooks):
    assert state.view.failure() is None, state.view.failure()
    return build_result(state, usage_from_calls(hooks.calls))


# ---------------------------------------------------------------- genuine disagreement


async def test_no_recommendation_under_genuine_disagreement_even_if_the_synthesizer_wrote_one():
    stuck = {"remaining_disagreements": ["Usage pricing will scare our five largest customers"]}
    again = {"remaining_disagreements": ["Our five largest customers will be scared by usage "
                                         "pricing"]}
    state, hooks = await run([agent("Ann", 0.10, [stuck, again]), agent("Bo", 0.90, [stuck, again]),
                              agent("Cy", 0.50, [stuck, again])], max_rounds=4)
    assert state.view.stop()[0] is StopReason.GENUINE_DISAGREEMENT
    # The synthesizer wrote both a divergence report and a recommendation.
    synthesis = state.turn(Phase.SYNTHESIS)
    narrative = SynthesisNarrative.model_validate(synthesis.payload)
    assert narrative.divergence_report is not None
    payload = dict(synthesis.payload)
    payload["recommended_path"] = {
        "stakes": "s", "strongest_evidence": "e", "weakest_evidence": "w",
        "path_dependencies": [], "recommendation": "Switch to usage pricing now.", "risks": []}
    state.add(synthesis.model_copy(update={"payload": payload}))
    result = result_of(state, hooks)
    assert result.recommended_path is None
    assert result.divergence_report == narrative.divergence_report
    report = render_markdown(result)
    assert "Switch to usage pricing now." not in report and "Recommended path" not in report


# ---------------------------------------------------------------- failed agents carried forward


async def test_a_failed_dissenter_still_counts_so_its_failure_does_not_manufacture_agreement():
    # Without carrying Ann forward, round 2 would be Bo and Cy alone at 0.67: dispersion 0,
    # mean unchanged from round 1 (0.667) -> "converged", and the diagnostic "genuine
    # convergence", though the one dissenter never changed her mind.
    new = [{"remaining_disagreements": ["Finance cannot forecast revenue"]},
           {"remaining_disagreements": ["Sales commission plans need a redesign"]}]
    state, hooks = await run([
        agent("Ann", 0.10, [{"updated_confidence": 0.10, **new[0]}], fail_in=["cross_exam:2"]),
        agent("Bo", 0.40, [{"updated_confidence": 0.95, **new[0]},
                           {"updated_confidence": 0.67, **new[1]}]),
        agent("Cy", 0.40, [{"updated_confidence": 0.95, **new[0]},
                           {"updated_confidence": 0.67, **new[1]}]),
    ], max_rounds=2)
    result = result_of(state, hooks)
    assert result.stop_reason is StopReason.MAX_ROUNDS
    assert result.diagnostic.label is not DiagnosticLabel.GENUINE_CONVERGENCE
    last = result.metrics[2]
    assert (last.active_agents, last.counted_agents) == (2, 3)
    assert abs(last.mean_confidence - (0.10 + 0.67 + 0.67) / 3) < 1e-9
    assert [m.active_agents for m in result.metrics] == [3, 3, 2]
    assert result.verdicts_after is not None and result.verdicts_after.of == 3
    assert result.degraded and any("Ann" in n and "carried forward" in n
                                   for n in result.degraded_notes)
    assert "Round 2: 2 of 3 agents live" in render_markdown(result)


async def test_the_synthesizer_sees_the_carried_forward_stance_marked():
    state, _ = await run([agent("Ann", 0.1, fail_in=["cross_exam:1"]), agent("Bo", 0.6),
                          agent("Cy", 0.7)], max_rounds=1)
    synthesis_call = [m for m in state.turns if m[0] == Phase.SYNTHESIS.value]
    assert synthesis_call
    from debates.engine.protocols.council.synthesis import synthesis_messages
    messages, hints = synthesis_messages(state)
    line = next(x for x in messages[1]["content"].splitlines() if x.startswith("- Ann:"))
    assert "failed in round 1" in line and "carried forward" in line
    assert "Ann" not in hints["agent_names"]  # only live agents speak in the narrative


# ---------------------------------------------------------------- quorum


async def test_a_quorum_failure_names_every_earlier_failure():
    state, _ = await run([agent("Ann", 0.2, fail_in=["premortem"]), agent("Bo", 0.5),
                          agent("Cy", 0.8, fail_in=["cross_exam:1"])], max_rounds=2)
    failure = state.view.failure()
    assert failure is not None and "below quorum in round 1" in failure
    assert "Ann in premortem" in failure and "Cy in round 1" in failure


# ---------------------------------------------------------------- anonymous labels


def _labels(state, reader, round_number):
    _, messages, _ = agent_request(state, Step(CouncilPhase.CROSS_EXAM, round_number), reader, 0)
    blocks = re.findall(r"### (Agent [A-Z])[^\n]*\nStance: (.*)", messages[1]["content"])
    return dict(blocks)


async def test_anonymous_labels_stay_the_same_for_the_whole_debate_and_every_reader():
    rounds = [{"remaining_disagreements": [t]} for t in ("Churn risk", "Billing rewrite",
                                                          "Commission redesign")]
    state, _ = await run([agent("Ann", 0.1, rounds), agent("Bo", 0.9, rounds),
                          agent("Cy", 0.5, rounds), agent("Di", 0.3, rounds[:1],
                                                          fail_in=["cross_exam:2"])],
                         max_rounds=3, anonymize_peers=True)
    assert state.view.completed_rounds == 3
    stances = {state.view.stance(i, 0): i for i in range(4)}
    assert len(stances) == 4  # distinct stances identify the agents behind the labels
    first_reader = None
    for reader in range(3):
        seen = [{label: stances[s] for label, s in _labels(state, reader, r).items()}
                for r in (1, 2, 3)]
        # The whole panel, the reader among it; Di failed in round 2.
        assert len(seen[0]) == 4 and len(seen[2]) == 3
        for later in seen[1:]:
            for label, peer in later.items():
                assert seen[0][label] == peer  # the same agent under the same label
        # ...and the same labels for every reader, so the list is one shared text.
        first_reader = first_reader or seen[0]
        assert seen[0] == first_reader
        assert all(not re.search(r"\b(Ann|Bo|Cy|Di)\b", s) for s in seen[0])


# ---------------------------------------------------------------- verifier fallback


async def test_the_verifier_falls_back_when_its_model_is_down():
    state, hooks = await run([agent("Ann", 0.5), agent("Bo", 0.6), agent("Cy", 0.7)],
                             phase_models={"verify": "sim/down"}, fallback_model="sim/default")
    verify = state.turn(Phase.VERIFY)
    assert verify.status is TurnStatus.OK and verify.model == "sim/default"
    assert result_of(state, hooks).verifier_ok
