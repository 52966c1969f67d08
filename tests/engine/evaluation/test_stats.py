"""The statistics, against values worked by hand or by an independent formula."""

from __future__ import annotations

import math

import pytest

from debates.engine.evaluation.stats import (
    Z_95,
    ConfidentAnswer,
    Flips,
    PairedTable,
    accuracy,
    brier_score,
    cost_per_right_answer,
    flips,
    mcnemar_exact,
    paired_table,
    reliability_table,
    wilson_interval,
)


def _wilson_by_quadratic(right: int, n: int) -> tuple[float, float]:
    # The interval's bounds are the p where (p̂ - p)² = z² p (1 - p) / n.
    p_hat, z2 = right / n, Z_95**2
    a, b, c = 1 + z2 / n, -(2 * p_hat + z2 / n), p_hat**2
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


def test_wilson_for_8_of_10_by_hand():
    interval = wilson_interval(8, 10)
    assert interval.low == pytest.approx(0.4902, abs=1e-4)
    assert interval.high == pytest.approx(0.9433, abs=1e-4)


@pytest.mark.parametrize("right, n", [(8, 10), (1, 3), (50, 100), (683, 1000), (2, 40)])
def test_wilson_matches_the_quadratic_it_solves(right, n):
    interval = wilson_interval(right, n)
    assert (interval.low, interval.high) == pytest.approx(_wilson_by_quadratic(right, n))


def test_wilson_at_the_edges():
    assert wilson_interval(0, 0).low == 0.0 and wilson_interval(0, 0).high == 1.0
    assert wilson_interval(0, 10).low == 0.0
    assert wilson_interval(10, 10).high == 1.0
    # 0/10: z²/(n + z²) = 3.8415 / 13.8415.
    assert wilson_interval(0, 10).high == pytest.approx(Z_95**2 / (10 + Z_95**2))
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_accuracy_counts_and_carries_its_interval():
    result = accuracy([True] * 8 + [False] * 2)
    assert (result.right, result.n, result.rate) == (8, 10, 0.8)
    assert result.ci == wilson_interval(8, 10)
    assert accuracy([]).rate is None


def test_brier_by_hand():
    answers = [ConfidentAnswer(0.9, True), ConfidentAnswer(0.6, False),
               ConfidentAnswer(0.5, True)]
    # (0.1² + 0.6² + 0.5²) / 3 = 0.62 / 3
    assert brier_score(answers) == pytest.approx(0.62 / 3)
    assert brier_score([]) is None


def test_reliability_table_by_hand():
    answers = [ConfidentAnswer(0.1, False), ConfidentAnswer(0.75, True),
               ConfidentAnswer(0.7, False), ConfidentAnswer(1.0, True),
               ConfidentAnswer(0.8, True)]
    table = reliability_table(answers)
    assert [(b.low, b.high, b.n) for b in table] == [
        (0.0, 0.2, 1), (0.2, 0.4, 0), (0.4, 0.6, 0), (0.6, 0.8, 2), (0.8, 1.0, 2)]
    assert (table[0].mean_confidence, table[0].accuracy) == (0.1, 0.0)
    assert table[1].mean_confidence is None and table[1].accuracy is None
    assert table[3].mean_confidence == pytest.approx(0.725) and table[3].accuracy == 0.5
    assert table[4].mean_confidence == pytest.approx(0.9) and table[4].accuracy == 1.0
    with pytest.raises(ValueError):
        reliability_table([ConfidentAnswer(1.2, True)])


def test_paired_table_counts_each_cell():
    council = [True, True, False, False, True, True]
    vote = [True, False, True, False, False, True]
    assert paired_table(council, vote) == PairedTable(
        both_right=2, first_only=2, second_only=1, both_wrong=1)
    with pytest.raises(ValueError):
        paired_table([True], [True, False])


@pytest.mark.parametrize("b, c, p", [
    (1, 6, 0.125),  # 2 · (C(7,0) + C(7,1)) / 2^7 = 2 · 8 / 128
    (6, 1, 0.125),
    (0, 0, 1.0),
    (0, 5, 0.0625),  # 2 · 1 / 32
    (2, 8, 0.109375),  # 2 · (1 + 10 + 45) / 1024
    (3, 3, 1.0),  # 2 · 42 / 64 > 1
    (0, 1, 1.0),
])
def test_mcnemar_exact_by_hand(b, c, p):
    assert mcnemar_exact(b, c) == p


def test_mcnemar_survives_thousands_of_discordant_pairs():
    assert mcnemar_exact(0, 2000) == 0.0
    assert mcnemar_exact(600, 600) == 1.0
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 2)


def test_flips_count_changes_and_which_way_they_went():
    answers = ["yes", "no", "yes", "no", "7"]
    vote = ["yes", "yes", "no", "no", "7"]
    debate = ["yes", "no", "no", "yes", None]
    assert flips(vote, debate, answers) == Flips(
        n=5, changed=3, changed_to_right=1, changed_from_right=2)
    result = flips(vote, debate, answers)
    assert result.changed_rate == 0.6
    assert result.right_rate == pytest.approx(1 / 3)
    assert flips([], [], []).right_rate is None


def test_cost_per_right_answer():
    assert cost_per_right_answer(0.5, 4) == 0.125
    assert cost_per_right_answer(0.5, 0) is None
