"""Votes over a panel's verdicts that more than one part of the engine counts: the
council's ``confidence`` decision rule (protocols/council/decision.py) and the evaluation
harness's ``confidence`` arm (evaluation/arms.py) weigh the independent positions the
same way (docs/protocols.md 1.9, "The decision rule")."""

from __future__ import annotations

from collections.abc import Sequence


def confidence_ranks(confidences: Sequence[float]) -> list[float]:
    """Each confidence's rank among ``confidences``, 1 for the lowest, equal values
    sharing their mean rank: [0.9, 0.9, 0.6] -> [2.5, 2.5, 1.0]."""
    order = sorted(confidences)
    ranks = {}
    for value in set(order):
        first = order.index(value) + 1
        last = len(order) - order[::-1].index(value)
        ranks[value] = (first + last) / 2
    return [ranks[c] for c in confidences]


def confidence_scores(positions: Sequence[tuple[str | None, float | None]],
                      options: Sequence[str] | None = None) -> dict[str, float]:
    """``positions``: each agent's independent (answer, confidence); those without both
    (or, given ``options``, with an answer not among them) are not counted. Per answer,
    the summed confidence ranks of its agents, in ``options``' order (else the order
    the answers were first given)."""
    counted = [(v, c) for v, c in positions
               if v is not None and c is not None and (options is None or v in options)]
    ranks = confidence_ranks([c for _, c in counted])
    scores: dict[str, float] = {}
    for (answer, _), rank in zip(counted, ranks, strict=True):
        assert answer is not None
        scores[answer] = scores.get(answer, 0.0) + rank
    if options is None:
        return scores
    return {o: scores[o] for o in options if o in scores}


def confidence_vote(positions: Sequence[tuple[str | None, float | None]],
                    tie_breaks: Sequence[Sequence[str | None]] = ()) -> str | None:
    """The answer with the highest summed confidence rank; None without any. A tie goes
    to the tied answer most of each of ``tie_breaks``' answers hold, in turn, as the
    council's rule breaks it (the independent vote, then the final one:
    protocols/council/decision.py), and at last to the tied answer given first. Without
    the vote, three agents on two options would tie whenever the lone dissenter is the
    surest (rank 3 against 1 + 2), and the first-given answer would win every such tie."""
    scores = confidence_scores(positions)
    if not scores:
        return None
    best = max(scores.values())
    tops = [a for a in scores if scores[a] == best]
    for answers in tie_breaks:
        if len(tops) == 1:
            break
        held = {a: sum(1 for given in answers if given == a) for a in tops}
        most = max(held.values())
        tops = [a for a in tops if held[a] == most]
    return tops[0]
