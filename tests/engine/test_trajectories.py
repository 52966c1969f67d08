"""Scripted simulator trajectories reproduce each stop reason exactly, end to end."""

from __future__ import annotations

import pytest

from debates.engine import run_protocol
from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.llm.usage import usage_from_calls
from debates.engine.protocols.council.report import render_markdown
from debates.engine.protocols.council.schemas import DiagnosticLabel
from debates.engine.protocols.council.synthesis import build_result
from debates.engine.schemas import SimulatorOptions, StopReason
from debates.engine.state import DebateState

QUESTION = "Should we move to usage-based pricing?"


class Recorder(EngineHooks):
    def __init__(self) -> None:
        self.calls = []
        self.events = []

    async def on_call(self, record):
        self.calls.append(record)

    async def on_event(self, event):
        self.events.append(event)


def agent(name, confidence, rounds=(), **extra):
    return {"name": name, "position_confidence": confidence, "rounds": list(rounds), **extra}


async def debate(agents, **config):
    state = DebateState(question=QUESTION, config=resolve_config(
        mode="quick", agents=len(agents), retry_backoff_s=0.0,
        simulator=SimulatorOptions(script={"agents": agents}), **config))
    hooks = Recorder()
    await run_protocol(state, hooks)
    assert state.view.failure() is None, state.view.failure()
    return state, build_result(state, usage_from_calls(hooks.calls)), hooks


async def test_converged_after_round_one():
    _, result, _ = await debate([
        agent("Ann", 0.50, [{"updated_confidence": 0.70, "concessions": ["fair"]}]),
        agent("Bo", 0.90, [{"updated_confidence": 0.72}]),
        agent("Cy", 0.71, [{"updated_confidence": None}]),
    ], max_rounds=4)
    assert result.stop_reason is StopReason.CONVERGED and result.rounds_completed == 1
    assert result.metrics[1].dispersion < 0.15


async def test_genuine_disagreement_gives_a_divergence_report_not_a_recommendation():
    stuck = {"remaining_disagreements": ["Usage pricing will scare our five largest customers"]}
    rephrased = {"remaining_disagreements": [
        "Our five largest customers will be scared by usage pricing"]}
    _, result, _ = await debate([
        agent("Ann", 0.10, [stuck, rephrased]),
        agent("Bo", 0.90, [stuck, rephrased]),
        agent("Cy", 0.50, [stuck, rephrased]),
    ], max_rounds=4)
    assert result.stop_reason is StopReason.GENUINE_DISAGREEMENT
    assert result.rounds_completed == 2
    assert result.metrics[2].new_arguments == 0 and result.metrics[2].concessions == 0
    assert result.recommended_path is None and result.divergence_report is not None
    assert "Divergence report" in render_markdown(result)


async def test_diminishing_returns_when_close_but_not_converged():
    point = {"remaining_disagreements": ["Migration cost is unknown"], "updated_confidence": None}
    _, result, _ = await debate([
        agent("Ann", 0.50, [{**point, "concessions": ["ok"]}, point]),
        agent("Bo", 0.70, [point, point]),
        agent("Cy", 0.60, [point, point]),
    ], threshold=0.06, max_rounds=4)
    # dispersion 0.082: not below 0.06 (no convergence), not above 1.5 x 0.06 = 0.09
    assert result.stop_reason is StopReason.DIMINISHING_RETURNS


async def test_max_rounds_when_new_arguments_keep_coming():
    rounds = [{"remaining_disagreements": [text]} for text in (
        "Churn among enterprise accounts", "Billing system rewrite effort",
        "Sales commission plans need redesign")]
    _, result, _ = await debate([
        agent("Ann", 0.1, rounds), agent("Bo", 0.9, rounds), agent("Cy", 0.5, rounds),
    ], max_rounds=3)
    assert result.stop_reason is StopReason.MAX_ROUNDS and result.rounds_completed == 3


async def test_null_confidences_carry_forward_through_the_whole_pipeline():
    state, result, _ = await debate([
        agent("Ann", 0.40, [{"updated_confidence": 0.55, "concessions": ["x"]},
                            {"updated_confidence": None, "remaining_disagreements": ["y z w"]}]),
        agent("Bo", 0.80, [{"updated_confidence": None, "remaining_disagreements": ["a b c"]},
                           {"updated_confidence": None, "remaining_disagreements": ["d e f"]}]),
    ], max_rounds=2)
    by_name = {a.persona.name: a.confidence_by_round for a in result.agents}
    assert by_name == {"Ann": [0.40, 0.55, 0.55], "Bo": [0.80, 0.80, 0.80]}


async def test_degraded_run_is_labelled_and_names_who_failed():
    _, result, _ = await debate([
        agent("Ann", 0.5), agent("Bo", 0.6), agent("Cy", 0.7, fail_in=["cross_exam:1"]),
    ], max_rounds=2)
    assert result.degraded
    assert any("Cy" in n and "round 1" in n for n in result.degraded_notes)
    assert "**Degraded:**" in render_markdown(result)
    cy = next(a for a in result.agents if a.persona.name == "Cy")
    assert cy.failed_in == "round 1" and cy.final_stance is None


async def test_diagnostic_reflects_the_trajectory():
    _, result, _ = await debate([
        agent("Ann", 0.30, [{"updated_confidence": 0.70, "concessions": ["good point"]}]),
        agent("Bo", 0.90, [{"updated_confidence": 0.72}]),
        agent("Cy", 0.50, [{"updated_confidence": 0.71}]),
    ], max_rounds=1)
    assert result.diagnostic.label is DiagnosticLabel.GENUINE_CONVERGENCE


async def test_every_risk_gets_a_follow_up_and_premortem_clusters_name_distinct_agents():
    _, result, _ = await debate([agent("Ann", 0.5), agent("Bo", 0.6), agent("Cy", 0.7)])
    assert result.pre_positional_risks
    for risk in result.pre_positional_risks:
        assert risk.follow_up is not None
        assert len(set(risk.raised_by)) == len(risk.raised_by)


async def test_all_agents_of_a_phase_run_concurrently_under_the_limit():
    state, _, hooks = await debate([agent("Ann", 0.5), agent("Bo", 0.6), agent("Cy", 0.7)],
                                   concurrency=1)
    assert state.config.concurrency == 1  # still finishes with one call at a time


@pytest.mark.parametrize("anonymize", [False, True])
async def test_anonymised_or_not_the_debate_completes(anonymize):
    _, result, _ = await debate([agent("Ann", 0.5), agent("Bo", 0.6), agent("Cy", 0.7)],
                                anonymize_peers=anonymize)
    assert result.config.anonymize_peers is anonymize
