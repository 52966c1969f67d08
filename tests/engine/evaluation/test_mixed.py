"""The mixed arms (docs/engine.md, "The mixed arms"): the simulated mixed population
against hand-worked values, and the mixed debate through the engine.

Three agents on yes/no, one round of herding at strength h, every model right with
p = 0.6. Three copies of one model (sim/a): each herding agent follows the tally at h.
A mixed panel (sim/a, sim/b, sim/c): every peer an agent sees is on another model and
weighs ``cross_herding`` w = 0.5, so it follows the tally at h' = h·w = 0.25. Agent 1
adopts agent 0's answer with probability h', agent 2 the plurality of agents 0 and 1
(agent 0's: it is theirs when they agree, the first given when they tie): each ends
on agent 0's answer with probability h', else keeps its own. The vote of either panel
is 3·0.6²·0.4 + 0.6³ = 0.648.

Herding alone, the debate is right when agent 0 is and not both others end wrong, or
agent 0 is wrong and both others end right:
  D(h) = p·(1 − (1 − (h + (1−h)p))²) + (1 − p)·((1−h)p)²
  one model, h = 0.5:  0.6·(1 − 0.2²) + 0.4·0.3²   = 0.576 + 0.036  = 0.612 (−0.036)
  mixed, h' = 0.25:    0.6·(1 − 0.3²) + 0.4·0.45²  = 0.546 + 0.081  = 0.627 (−0.021)
With agent 2 an independent corrector (correction c = 0.4, right with
q = c + (1−c)p = 0.76) and agent 1 herding (right with r = h + (1−h)p when agent 0 is):
  P = p·(1 − (1 − r)(1 − q)) + (1 − p)·(1−h)p·q
  one model, h = 0.5 (r = 0.8):  0.6·(1 − 0.2·0.24) + 0.4·0.3·0.76  = 0.5712 + 0.0912 = 0.6624
  mixed, h' = 0.25 (r = 0.7):    0.6·(1 − 0.3·0.24) + 0.4·0.45·0.76 = 0.5568 + 0.1368 = 0.6936
so deliberation gains +0.0144 on three copies and +0.0456 on the mixed panel. Both
panels draw the same numbers (one seed), so on each question their first answers are
the same and an agent of the mixed panel herds only where its copy does.
"""

from __future__ import annotations

import asyncio

import pytest

from debates.engine.evaluation.population import herding_weight, plurality
from debates.engine.evaluation.runs import (
    EvaluationSpec,
    arm_models,
    evaluate_question,
    mixed_population_of,
    population_of,
    questions_for,
    report_from_outcomes,
)
from debates.engine.evaluation.sets import generate
from debates.engine.evaluation.stats import mcnemar_exact, paired_table, wilson_interval

QUESTIONS = 2000
YES_NO = generate("compare", QUESTIONS, seed=11).questions
MODELS = ("sim/a", "sim/b", "sim/c")
MIXED_ARMS = ("vote", "council", "mixed_vote", "mixed_council")


def _herding(p: float, h: float) -> float:
    return p * (1 - (1 - (h + (1 - h) * p)) ** 2) + (1 - p) * ((1 - h) * p) ** 2


def _herding_and_corrector(p: float, h: float, c: float) -> float:
    r, q = h + (1 - h) * p, c + (1 - c) * p
    return p * (1 - (1 - r) * (1 - q)) + (1 - p) * (1 - h) * p * q


def test_the_hand_worked_values():
    assert _herding(0.6, 0.5) == pytest.approx(0.612)
    assert _herding(0.6, 0.25) == pytest.approx(0.627)
    assert _herding_and_corrector(0.6, 0.5, 0.4) == pytest.approx(0.6624)
    assert _herding_and_corrector(0.6, 0.25, 0.4) == pytest.approx(0.6936)


def test_a_herding_agent_weighs_a_peer_on_another_model_lower():
    assert herding_weight(1, MODELS, 0.5) == 0.5
    assert herding_weight(2, MODELS, 0.5) == 0.5
    # sim/a, sim/b, sim/a: agent 2 saw its own model's answer (1) and another's (0.5).
    assert herding_weight(2, ("sim/a", "sim/b", "sim/a"), 0.5) == 0.75
    assert herding_weight(2, ("sim/a",) * 3, 0.5) == 1.0
    assert herding_weight(2, (), 0.5) == 1.0  # no models named: one model


def _spec(**more) -> EvaluationSpec:
    settings = {"n": 12, "seed": 3, "agents": 3, "sim_accuracy": 0.6, "update": "herding",
                "strength": 0.5, "arms": MIXED_ARMS, "panel_models": MODELS,
                "cross_herding": 0.5, **more}
    return EvaluationSpec("compare", **settings)


def _rates(spec: EvaluationSpec) -> dict[str, list[bool]]:
    one, mixed = population_of(spec), mixed_population_of(spec)
    rates: dict[str, list[bool]] = {arm: [] for arm in MIXED_ARMS}
    for q in YES_NO:
        a, b = one.debate(q), mixed.debate(q)
        assert a.first == b.first  # the same draws: the same first answers
        for arm, answers in (("vote", a.first), ("council", a.final),
                             ("mixed_vote", b.first), ("mixed_council", b.final)):
            rates[arm].append(plurality(answers) == q.answer)
    return rates


def _holds(outcomes: list[bool], value: float) -> bool:
    interval = wilson_interval(sum(outcomes), len(outcomes))
    return interval.low <= value <= interval.high


@pytest.mark.parametrize("more, one_model, mixed", [
    ({}, 0.612, 0.627),
    ({"correctors": 1, "correction": 0.4}, 0.6624, 0.6936),
])
def test_deliberation_helps_a_mixed_panel_more_than_three_copies(more, one_model, mixed):
    rates = _rates(_spec(**more))
    assert rates["vote"] == rates["mixed_vote"]
    assert _holds(rates["vote"], 0.648)
    assert _holds(rates["council"], one_model)
    assert _holds(rates["mixed_council"], mixed)
    # Paired on the same questions, the mixed debate beats the one-model debate: its
    # gain over the (same) vote is the larger.
    table = paired_table(rates["mixed_council"], rates["council"])
    assert table.first_only > table.second_only
    assert mcnemar_exact(table.first_only, table.second_only) < 0.01


def test_each_listed_model_answers_at_its_own_accuracy():
    # --sim-accuracy 0.9,0.6,0.5 with --panel-models sim/a,sim/b,sim/c: one a model.
    spec = _spec(sim_accuracy=2 / 3, sim_accuracies=(0.9, 0.6, 0.5), update="martingale",
                 strength=0.0)
    mixed, one = mixed_population_of(spec), population_of(spec)
    assert mixed.models == MODELS
    assert [mixed.accuracy_of(i) for i in range(3)] == [0.9, 0.6, 0.5]
    assert [one.accuracy_of(i) for i in range(3)] == [0.9, 0.9, 0.9]  # copies of sim/a
    debates = [mixed.debate(q) for q in YES_NO]
    for seat, p in enumerate((0.9, 0.6, 0.5)):
        assert _holds([d.first[seat] == q.answer for d, q in zip(debates, YES_NO, strict=True)],
                      p)
    # Round-robin: a fourth seat takes the first model again.
    four = mixed_population_of(_spec(agents=4, sim_accuracy=2 / 3,
                                     sim_accuracies=(0.9, 0.6, 0.5)))
    assert four.models == (*MODELS, "sim/a") and four.accuracy_of(3) == 0.9


def _outcomes(spec: EvaluationSpec):
    labelled = questions_for(spec)

    async def every():
        return [await evaluate_question(q, spec) for q in labelled.questions]

    return labelled, asyncio.run(every())


def test_the_mixed_debate_runs_through_the_engine_seat_by_seat():
    spec = _spec(correctors=1, correction=0.4, sim_accuracy=2 / 3,
                 sim_accuracies=(0.9, 0.6, 0.5))
    labelled, outcomes = _outcomes(spec)
    one, mixed = population_of(spec), mixed_population_of(spec)
    for question, outcome in zip(labelled.questions, outcomes, strict=True):
        assert outcome.arms["vote"].answer == plurality(one.debate(question).first)
        assert outcome.arms["council"].answer == plurality(one.debate(question).final)
        assert outcome.arms["mixed_vote"].answer == plurality(mixed.debate(question).first)
        assert outcome.arms["mixed_council"].answer == plurality(mixed.debate(question).final)
        # The ledger of each question names each seat's model.
        assert outcome.detail["models"] == ["sim/a"] * 3
        assert outcome.detail["mixed"]["models"] == list(MODELS)
        assert outcome.arms["mixed_council"].prompt_tokens > 0
    report = report_from_outcomes(labelled, spec, outcomes)
    assert list(report.arms) == ["vote", "council", "synthesis", "mixed_vote", "mixed_council"]
    assert report.arms["mixed_council"].models == MODELS
    assert report.arms["council"].models == ("sim/a",)
    assert [p.key for p in report.more_paired] == [
        "mixed_council_vs_mixed_vote", "mixed_council_vs_council", "mixed_vote_vs_vote"]
    assert EvaluationSpec.from_json(spec.to_json()) == spec


def test_only_the_arms_asked_for_run_and_are_reported():
    spec = _spec(arms=("mixed_vote",), n=2)
    labelled, outcomes = _outcomes(spec)
    assert all(set(o.arms) == {"mixed_vote"} for o in outcomes)
    report = report_from_outcomes(labelled, spec, outcomes)
    assert list(report.arms) == ["mixed_vote"] and report.more_paired == ()
    assert "models" not in outcomes[0].detail  # the one-model debate did not run


def test_on_a_real_model_the_one_model_arms_use_the_model_and_the_mixed_the_list():
    spec = EvaluationSpec("compare", model="openai/gpt-4o-mini", arms=MIXED_ARMS,
                          panel_models=("openai/gpt-4o-mini", "anthropic/claude-3-haiku"))
    assert arm_models(spec, "council") == ("openai/gpt-4o-mini",)
    assert arm_models(spec, "mixed_vote") == ("openai/gpt-4o-mini",
                                              "anthropic/claude-3-haiku", "openai/gpt-4o-mini")


@pytest.mark.parametrize("bad, says", [
    ({"panel_models": ()}, "need a panel of at least two different models"),
    ({"panel_models": ("sim/a", "sim/a")}, "at least two different"),
    ({"arms": ("vote", "council")}, "read only by the mixed arms"),
    ({"panel_models": ("sim/a", "sim/b", "sim/c", "sim/d")}, "4 panel models for 3 agents"),
    ({"panel_models": ("sim/a", "openai/gpt-4o-mini")}, "runs on simulated models"),
    ({"sim_accuracies": (0.9, 0.5)}, "2 accuracies for 3 panel models"),
    ({"cross_herding": 1.5}, "not a probability"),
])
def test_an_impossible_mixed_arm_is_refused(bad, says):
    with pytest.raises(ValueError, match=says):
        _spec(**bad)
