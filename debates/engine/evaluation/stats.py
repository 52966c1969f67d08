"""The harness's statistics: plain numbers in, plain numbers out, each formula small
enough to check by hand (docs/engine.md, "Evaluation harness").

- Accuracy with its 95 % Wilson score interval.
- The Brier score of final confidences, and their reliability table.
- Council against vote on the same questions: the paired 2×2 table, the exact
  two-sided McNemar p-value, and the flips (where the debate changed the vote's answer).
- Cost per right answer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

# The normal quantile for a two-sided 95 % interval.
Z_95 = 1.959963984540054
# Reliability bins: [0, 0.2), [0.2, 0.4), ... [0.8, 1.0], the last one closed.
RELIABILITY_BINS = 5


@dataclass(frozen=True)
class Interval:
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high


@dataclass(frozen=True)
class Accuracy:
    right: int
    n: int
    ci: Interval

    @property
    def rate(self) -> float | None:
        return self.right / self.n if self.n else None


def wilson_interval(right: int, n: int, z: float = Z_95) -> Interval:
    """The Wilson score interval of right/n: (p + z²/2n ± z·√(p(1-p)/n + z²/4n²)) /
    (1 + z²/n). With no question at all, nothing is known: [0, 1]."""
    if not 0 <= right <= n:
        raise ValueError(f"{right} right out of {n}")
    if n == 0:
        return Interval(0.0, 1.0)
    p = right / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    # At 0 or n right a bound is exactly 0 or 1; rounding would leave 1e-16 off it.
    low = 0.0 if right == 0 else centre - half
    high = 1.0 if right == n else centre + half
    return Interval(low, high)


def accuracy(outcomes: Sequence[bool]) -> Accuracy:
    right = sum(outcomes)
    return Accuracy(right, len(outcomes), wilson_interval(right, len(outcomes)))


# --- confidences ------------------------------------------------------------------


@dataclass(frozen=True)
class ConfidentAnswer:
    """A final answer and the confidence (0..1) stated for it."""

    confidence: float
    right: bool


def brier_score(answers: Sequence[ConfidentAnswer]) -> float | None:
    """Mean of (confidence - outcome)², the outcome 1 when the answer was right, else 0:
    0 is perfect; always saying 0.5 scores 0.25. None without any answer."""
    if not answers:
        return None
    return sum((a.confidence - a.right) ** 2 for a in answers) / len(answers)


@dataclass(frozen=True)
class ReliabilityBin:
    low: float
    high: float
    n: int
    mean_confidence: float | None  # None: an empty bin
    accuracy: float | None


def _bin_index(confidence: float) -> int:
    return min(int(confidence * RELIABILITY_BINS), RELIABILITY_BINS - 1)


def reliability_table(answers: Sequence[ConfidentAnswer]) -> list[ReliabilityBin]:
    """Per confidence bin: how many answers, their mean confidence, how many were right.
    A calibrated panel's 0.7s are right 70 % of the time."""
    binned: list[list[ConfidentAnswer]] = [[] for _ in range(RELIABILITY_BINS)]
    for answer in answers:
        if not 0 <= answer.confidence <= 1:
            raise ValueError(f"confidence {answer.confidence} is outside 0..1")
        binned[_bin_index(answer.confidence)].append(answer)
    return [_reliability_bin(index, members) for index, members in enumerate(binned)]


def _reliability_bin(index: int, members: list[ConfidentAnswer]) -> ReliabilityBin:
    low, high = index / RELIABILITY_BINS, (index + 1) / RELIABILITY_BINS
    if not members:
        return ReliabilityBin(low, high, 0, None, None)
    mean_confidence = sum(m.confidence for m in members) / len(members)
    return ReliabilityBin(low, high, len(members), mean_confidence,
                          sum(m.right for m in members) / len(members))


# --- paired: council against vote -------------------------------------------------


@dataclass(frozen=True)
class PairedTable:
    """The 2×2 table of two arms on the same questions."""

    both_right: int
    first_only: int  # the first arm right, the second wrong (McNemar's b)
    second_only: int  # the second arm right, the first wrong (McNemar's c)
    both_wrong: int

    @property
    def n(self) -> int:
        return self.both_right + self.first_only + self.second_only + self.both_wrong


def paired_table(first: Sequence[bool], second: Sequence[bool]) -> PairedTable:
    if len(first) != len(second):
        raise ValueError(f"{len(first)} outcomes against {len(second)}: not paired")
    pairs = list(zip(first, second, strict=True))
    return PairedTable(
        both_right=sum(a and b for a, b in pairs),
        first_only=sum(a and not b for a, b in pairs),
        second_only=sum(b and not a for a, b in pairs),
        both_wrong=sum(not a and not b for a, b in pairs),
    )


def mcnemar_exact(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value: under no difference, each of the b + c discordant
    pairs falls either way with probability 1/2, so
    p = min(1, 2 · Σ_{k ≤ min(b, c)} C(b+c, k) / 2^(b+c)); 1 when there is none."""
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must not be negative: {b}, {c}")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1))
    # Exact in fractions: 2^n overflows a float past a thousand discordant pairs.
    return float(min(Fraction(1), Fraction(2 * tail, 2**n)))


@dataclass(frozen=True)
class Flips:
    """Where the debate's answer differs from the vote of its own first positions."""

    n: int  # paired questions
    changed: int  # the debate's answer differs from the vote's
    changed_to_right: int  # ... and the debate's is right
    changed_from_right: int  # ... and the vote's was right

    @property
    def changed_rate(self) -> float | None:
        return self.changed / self.n if self.n else None

    @property
    def right_rate(self) -> float | None:
        """Of the changes, the share that made a wrong vote right."""
        return self.changed_to_right / self.changed if self.changed else None


def flips(vote: Sequence[str | None], debate: Sequence[str | None],
          answers: Sequence[str]) -> Flips:
    """``vote`` and ``debate`` are each question's answer by the two arms (None: no
    answer), ``answers`` the right ones, all in one spelling (``Question.canonical``)."""
    if not len(vote) == len(debate) == len(answers):
        raise ValueError("vote, debate and answers must cover the same questions")
    changed = [(v, d, a) for v, d, a in zip(vote, debate, answers, strict=True) if v != d]
    return Flips(
        n=len(answers),
        changed=len(changed),
        changed_to_right=sum(d == a for _, d, a in changed),
        changed_from_right=sum(v == a for v, _, a in changed),
    )


def cost_per_right_answer(cost_usd: float | None, right: int) -> float | None:
    """What one right answer cost; None when none was right (no finite price) or the
    cost is unknown."""
    return cost_usd / right if right and cost_usd is not None else None


def total_cost(costs: Iterable[float | None]) -> float | None:
    """The sum, or None (unknown) when any part is unknown: an unpriced call is not $0."""
    known = list(costs)
    return None if any(c is None for c in known) else sum(c for c in known if c is not None)
