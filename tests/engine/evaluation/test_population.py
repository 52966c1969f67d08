"""The simulated population against its exact expectations: each simulated rate, over
many seeded questions, has the exact value inside its 95 % Wilson interval."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from debates.engine.evaluation.population import (
    MAX_WRONG_OFFSET,
    BeliefUpdate,
    SimulatedPopulation,
    cross_examine,
    expected_share_after,
    expected_single,
    expected_vote_yes_no,
    plurality,
    wrong_answer,
)
from debates.engine.evaluation.sets import Question, generate
from debates.engine.evaluation.stats import wilson_interval

QUESTIONS = 2000
YES_NO = generate("compare", QUESTIONS, seed=11).questions


def _rate_interval(outcomes: list[bool]):
    return wilson_interval(sum(outcomes), len(outcomes))


def _vote_by_enumeration(p: float, n: int) -> float:
    # Every pattern of right/wrong agents, the tie going to the first agent.
    total = 0.0
    for pattern in itertools.product([True, False], repeat=n):
        rights = sum(pattern)
        wins = rights > n / 2 or (rights == n / 2 and pattern[0])
        total += wins * p**rights * (1 - p) ** (n - rights)
    return total


def test_the_exact_values_by_hand():
    assert expected_single(0.6) == 0.6
    # 10·0.6³·0.4² + 5·0.6⁴·0.4 + 0.6⁵ = 0.3456 + 0.2592 + 0.07776
    assert expected_vote_yes_no(0.6, 5) == pytest.approx(0.68256)
    assert expected_vote_yes_no(0.6, 1) == pytest.approx(0.6)


@pytest.mark.parametrize("p, n", [(0.6, 5), (0.6, 4), (0.3, 6), (0.9, 3), (0.55, 7)])
def test_the_vote_formula_matches_enumerating_every_panel(p, n):
    assert expected_vote_yes_no(p, n) == pytest.approx(_vote_by_enumeration(p, n))


@pytest.mark.parametrize("p", [0.3, 0.6, 0.9])
def test_a_single_agent_is_right_at_its_accuracy(p):
    population = SimulatedPopulation(accuracy=p, agents=1, seed=1)
    numeric = generate("arithmetic", QUESTIONS, seed=4).questions
    for questions in (YES_NO, numeric):
        outcomes = [population.debate(q).first[0] == q.answer for q in questions]
        assert expected_single(p) in _rate_interval(outcomes)


@pytest.mark.parametrize("p, n", [(0.6, 5), (0.6, 4), (0.7, 3)])
def test_the_vote_of_independent_agents_is_right_at_the_exact_rate(p, n):
    population = SimulatedPopulation(accuracy=p, agents=n, seed=2)
    outcomes = [plurality(population.debate(q).first) == q.answer for q in YES_NO]
    assert expected_vote_yes_no(p, n) in _rate_interval(outcomes)
    if n == 5:  # the harness tells the vote from a single agent at this size
        assert p not in _rate_interval(outcomes)


def test_the_same_seed_gives_the_same_debate_whatever_came_before():
    population = SimulatedPopulation(accuracy=0.6, agents=5, seed=3)
    question = YES_NO[10]
    alone = population.debate(question)
    after_others = [population.debate(q) for q in YES_NO[:20]][10]
    assert alone == after_others
    other_seed = SimulatedPopulation(accuracy=0.6, agents=5, seed=4)
    assert [other_seed.debate(q) for q in YES_NO[:20]] != [population.debate(q)
                                                          for q in YES_NO[:20]]


def test_a_wrong_answer_is_never_right_and_any_wrong_option_can_come():
    rng = random.Random(5)
    four = Question("q", "Which?", ("a", "b", "c", "d"), "b")
    assert {wrong_answer(four, rng) for _ in range(300)} == {"a", "c", "d"}
    number = Question("n", "6*7?", None, "42")
    wrong_numbers = {int(wrong_answer(number, rng)) for _ in range(1000)}
    assert 42 not in wrong_numbers
    assert wrong_numbers == set(range(42 - MAX_WRONG_OFFSET, 42 + MAX_WRONG_OFFSET + 1)) - {42}


def test_plurality_and_its_tie_rule():
    assert plurality(["no", "yes", "yes"]) == "yes"
    assert plurality(["no", "yes", "yes", "no"]) == "no"  # tied: the first given wins
    assert plurality(["b", "a", "c"]) == "b"
    assert plurality([None, "a", None]) == "a"
    assert plurality([None]) is None and plurality([]) is None


def _first_agent_final_outcomes(p: float, update: BeliefUpdate, rounds: int) -> list[bool]:
    # One agent per question: questions are independent, so the Wilson interval holds.
    population = SimulatedPopulation(accuracy=p, agents=5, update=update, rounds=rounds,
                                     seed=6)
    return [population.debate(q).final[0] == q.answer for q in YES_NO]


@pytest.mark.parametrize("rounds", [1, 3])
def test_a_martingale_update_keeps_the_expected_share_of_right_answers(rounds):
    update = BeliefUpdate("martingale", keep=0.5)
    assert expected_share_after(0.6, update, rounds) == 0.6
    assert 0.6 in _rate_interval(_first_agent_final_outcomes(0.6, update, rounds))


def test_a_martingale_update_does_change_answers():
    population = SimulatedPopulation(0.6, 5, BeliefUpdate("martingale"), seed=6)
    debates = [population.debate(q) for q in YES_NO[:200]]
    assert any(d.final != d.first for d in debates)


@pytest.mark.parametrize("strength, rounds", [(0.5, 1), (0.2, 2)])
def test_a_corrective_update_raises_the_share_to_the_exact_value(strength, rounds):
    update = BeliefUpdate("corrective", strength=strength)
    expected = expected_share_after(0.6, update, rounds)
    # One round: s + (1 - s)·0.6; two: apply it twice.
    assert expected == pytest.approx(
        strength + (1 - strength) * 0.6 if rounds == 1
        else strength + (1 - strength) * (strength + (1 - strength) * 0.6))
    interval = _rate_interval(_first_agent_final_outcomes(0.6, update, rounds))
    assert expected in interval
    assert interval.low > 0.6


def test_cross_examining_a_lone_agent_keeps_its_answer():
    question = Question("q", "?", ("yes", "no"), "yes")
    assert cross_examine(["no"], question, BeliefUpdate(), random.Random(1)) == ("no",)


@pytest.mark.parametrize("kwargs", [{"kind": "martingale", "strength": 0.3},
                                    {"keep": 1.5}, {"kind": "corrective", "strength": -1}])
def test_a_belief_update_out_of_range_is_refused(kwargs):
    with pytest.raises(ValueError):
        BeliefUpdate(**kwargs)


def test_a_population_out_of_range_is_refused():
    with pytest.raises(ValueError):
        SimulatedPopulation(accuracy=1.2, agents=5)
    with pytest.raises(ValueError):
        SimulatedPopulation(accuracy=0.5, agents=0)
    assert math.isclose(expected_vote_yes_no(1.0, 5), 1.0)


# ---------------------------------------------------------------- herding and correctors
#
# Three agents on yes/no, one round, each first answer right with probability p.
# Herding h: agent 1 adopts agent 0's answer with probability h; agent 2 adopts the
# plurality of agents 0 and 1 (a tie goes to agent 0's) with probability h, so each
# of agents 1 and 2 ends on agent 0's answer with probability h, else on its own.
# Agent 0 right: the panel is right unless both others end wrong; agent 0 wrong: only
# if both end right:
#   P = p·(1 − (1 − (h + (1−h)p))²) + (1 − p)·((1−h)p)²
# p = 0.6, h = 0.5: 0.6·(1 − 0.2²) + 0.4·0.3² = 0.576 + 0.036 = 0.612, below the
# vote's 0.648 (3·0.6²·0.4 + 0.6³); h = 1: everyone ends on agent 0's answer, 0.6.
# Correctors (agents 1 and 2, correction c): each ends right with q = c + (1−c)p:
#   P = p·(1 − (1 − q)²) + (1 − p)·q²
# p = 0.6, c = 0.4: q = 0.76; 0.6·(1 − 0.24²) + 0.4·0.76² = 0.56544 + 0.23104 = 0.79648.


def _herding(p, h):
    return p * (1 - (1 - (h + (1 - h) * p)) ** 2) + (1 - p) * ((1 - h) * p) ** 2


def _council_rate(population, questions=YES_NO):
    return [plurality(population.debate(q).final) == q.answer for q in questions]


def test_the_herding_and_corrector_values_by_hand():
    assert _herding(0.6, 0.5) == pytest.approx(0.612)
    assert _herding(0.6, 1.0) == pytest.approx(0.6)
    assert _herding(0.6, 0.0) == pytest.approx(expected_vote_yes_no(0.6, 3))  # 0.648
    q = 0.4 + 0.6 * 0.6
    assert 0.6 * (1 - (1 - q) ** 2) + 0.4 * q**2 == pytest.approx(0.79648)


@pytest.mark.parametrize("h", [0.5, 1.0])
def test_herding_lowers_the_debate_below_the_vote(h):
    population = SimulatedPopulation(0.6, 3, BeliefUpdate("herding", h), seed=3)
    interval = _rate_interval(_council_rate(population))
    low, high = interval.low, interval.high
    assert low <= _herding(0.6, h) <= high
    assert high < expected_vote_yes_no(0.6, 3)  # 0.648 lies above the whole interval


def test_independent_correctors_raise_the_debate_above_the_vote():
    update = BeliefUpdate("herding", 1.0, correctors=2, correction=0.4)
    population = SimulatedPopulation(0.6, 3, update, seed=3)
    interval = _rate_interval(_council_rate(population))
    low, high = interval.low, interval.high
    assert low <= 0.79648 <= high
    assert low > expected_vote_yes_no(0.6, 3)


def test_a_mixed_panel_answers_at_each_seat_s_accuracy():
    # One strong agent among two weak ones: its first answers are right 90 % of the
    # time, theirs 50 %; the vote is right when at least two are:
    # 0.9·(1 − 0.5²) + 0.1·0.5² = 0.675 + 0.025 = 0.7.
    population = SimulatedPopulation(0.5, 3, seed=5, accuracies=(0.9, 0.5, 0.5))
    debates = [population.debate(q) for q in YES_NO]
    for seat, p in enumerate((0.9, 0.5, 0.5)):
        interval = _rate_interval([d.first[seat] == q.answer
                                   for d, q in zip(debates, YES_NO, strict=True)])
        assert interval.low <= p <= interval.high
    interval = _rate_interval([plurality(d.first) == q.answer
                               for d, q in zip(debates, YES_NO, strict=True)])
    low, high = interval.low, interval.high
    assert low <= 0.7 <= high


def test_herding_and_mixed_panels_refuse_what_cannot_be():
    with pytest.raises(ValueError, match="accuracies for"):
        SimulatedPopulation(0.6, 3, accuracies=(0.9, 0.5))
    with pytest.raises(ValueError, match="correctors in a panel"):
        SimulatedPopulation(0.6, 3, BeliefUpdate("herding", 0.5, correctors=4))
    with pytest.raises(ValueError, match="probabilities"):
        BeliefUpdate("herding", 1.5)
