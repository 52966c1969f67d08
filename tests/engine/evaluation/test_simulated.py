"""The whole harness on the simulator lands on the exact values."""

from __future__ import annotations

import itertools
import math

from debates.engine.evaluation.population import (
    BeliefUpdate,
    SimulatedPopulation,
    expected_vote_yes_no,
)
from debates.engine.evaluation.report import report_json
from debates.engine.evaluation.sets import generate
from tests.engine.evaluation.direct_report import simulated_report

YES_NO = generate("compare", 2000, seed=21)


def _interval(arm: dict) -> tuple[float, float]:
    low, high = arm["ci"]
    return low, high


def test_single_and_vote_at_5_agents_of_0_6_hold_the_exact_values():
    out = report_json(simulated_report(YES_NO, SimulatedPopulation(0.6, 5, seed=1)))
    low, high = _interval(out["arms"]["single"])
    assert low <= 0.6 <= high
    low, high = _interval(out["arms"]["vote"])
    assert low <= expected_vote_yes_no(0.6, 5) <= high
    assert out["arms"]["vote"]["n"] == 2000 and out["arms"]["vote"]["finding"] is True
    assert out["settings"]["agents"] == 5


def test_a_corrective_debate_beats_the_vote_and_its_flips_are_mostly_right():
    population = SimulatedPopulation(0.6, 5, BeliefUpdate("corrective", strength=0.4), seed=2)
    out = report_json(simulated_report(YES_NO, population))
    paired = out["paired"]["council_vs_vote"]
    assert out["arms"]["council"]["accuracy"] > out["arms"]["vote"]["accuracy"]
    assert paired["p_value"] < 0.001
    assert paired["table"]["council_only"] > paired["table"]["vote_only"]
    flips = paired["flips"]
    assert flips["changed"] == paired["table"]["council_only"] + paired["table"]["vote_only"]
    assert flips["changed_to_right"] > flips["changed_from_right"]


def test_without_cross_examination_the_debate_changes_nothing():
    population = SimulatedPopulation(0.6, 5, rounds=0, seed=3)
    paired = report_json(simulated_report(YES_NO, population))["paired"]["council_vs_vote"]
    assert paired["flips"]["changed"] == 0 and paired["p_value"] == 1.0


def _martingale_vote_by_enumeration(p: float, agents: int, keep: float) -> float:
    # Every first pattern of right/wrong, every agent's choice (itself or one peer).
    total = 0.0
    for first in itertools.product([True, False], repeat=agents):
        weight = math.prod(p if right else 1 - p for right in first)
        for sources in itertools.product(range(agents), repeat=agents):
            chance = math.prod(keep if s == i else (1 - keep) / (agents - 1)
                               for i, s in enumerate(sources))
            rights = sum(first[s] for s in sources)
            total += weight * chance * (rights > agents / 2)
    return total


def test_after_a_martingale_round_the_council_falls_below_the_vote():
    # Copying peers keeps the share of right answers but makes the answers less
    # independent, so their plurality loses part of the vote's gain.
    exact = _martingale_vote_by_enumeration(0.6, 5, keep=0.5)
    assert exact < expected_vote_yes_no(0.6, 5)
    out = report_json(simulated_report(YES_NO, SimulatedPopulation(0.6, 5, seed=1)))
    low, high = _interval(out["arms"]["council"])
    assert low <= exact <= high
    assert out["paired"]["council_vs_vote"]["p_value"] < 0.05
