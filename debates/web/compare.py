"""Two runs of a question side by side: what one found that the other did not.

Items are matched across runs with the engine's near-duplicate similarity
(``debates.engine.novelty``), because two runs never word the same risk alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from debates.engine import NEAR_DUPLICATE_THRESHOLD as DEFAULT_THRESHOLD
from debates.engine import (
    ClusteredItem,
    DebateResult,
    RoundMetrics,
    TopicDisagreement,
    VerdictSplit,
    similarity,
    tokens,
)
from debates.engine import describe_split as describe
from debates.page_words import PageWords

T = TypeVar("T")


def only_in(items: Sequence[T], others: Sequence[T], text: Callable[[T], str],
            threshold: float = DEFAULT_THRESHOLD) -> list[T]:
    """The items with no near-duplicate among ``others``."""
    other_tokens = [tokens(text(o)) for o in others]
    return [item for item in items
            if not any(similarity(tokens(text(item)), t) >= threshold for t in other_tokens)]


@dataclass(frozen=True)
class Side:
    risks: list[ClusteredItem]
    concerns: list[ClusteredItem]
    disagreements: list[TopicDisagreement]
    consensus: list[str]

    @property
    def empty(self) -> bool:
        return not (self.risks or self.concerns or self.disagreements or self.consensus)


@dataclass(frozen=True)
class MetricRow:
    round: int
    a: RoundMetrics | None
    b: RoundMetrics | None


@dataclass(frozen=True)
class VerdictMove:
    """How one run's verdict split moved from round 0 to the end, in words."""

    before: str
    after: str
    agreement_before: float | None
    agreement_after: float | None


@dataclass(frozen=True)
class Comparison:
    only_a: Side
    only_b: Side
    metrics: list[MetricRow]
    verdicts_a: VerdictMove
    verdicts_b: VerdictMove


def verdict_move(result: DebateResult) -> VerdictMove:
    # In the run's language, as the compare page is when both runs share it; "–" for a
    # run stored before verdicts.
    t = PageWords(result.language)

    def words(split: VerdictSplit | None) -> str:
        return describe(split, t) if split else "–"

    before, after = result.verdicts_before, result.verdicts_after
    return VerdictMove(before=words(before), after=words(after),
                       agreement_before=before.agreement if before else None,
                       agreement_after=after.agreement if after else None)


def _side(x: DebateResult, y: DebateResult) -> Side:
    def item_text(i: ClusteredItem) -> str:
        return i.text

    def topic_text(d: TopicDisagreement) -> str:
        return d.topic

    return Side(
        risks=only_in(x.pre_positional_risks, y.pre_positional_risks, item_text),
        concerns=only_in(x.post_positional_concerns, y.post_positional_concerns, item_text),
        disagreements=only_in(x.disagreements, y.disagreements, topic_text),
        consensus=only_in(x.consensus_points, y.consensus_points, str),
    )


def compare_results(a: DebateResult, b: DebateResult) -> Comparison:
    rounds = max(len(a.metrics), len(b.metrics))
    by_a = {m.round: m for m in a.metrics}
    by_b = {m.round: m for m in b.metrics}
    return Comparison(
        only_a=_side(a, b), only_b=_side(b, a),
        metrics=[MetricRow(r, by_a.get(r), by_b.get(r)) for r in range(rounds)],
        verdicts_a=verdict_move(a), verdicts_b=verdict_move(b),
    )
