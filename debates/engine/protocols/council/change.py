"""What the debate changed (docs/protocols.md 1.9): the vote of the independent positions
against the final plurality, and whether cross-examination flipped it.

"First vote: SQS 3:2; after cross-examination: conditional 3:2 (the debate changed the
answer)". Both votes are the council's own verdict splits (``verdicts_before``,
``verdicts_after``), so they count the agents its metrics count: an agent whose
position failed is in neither, one that failed later keeps its last verdict
(docs/protocols.md 1.6). A tie has no plurality (``VerdictSplit.leading`` is None) and
is said as a tie, never broken.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import BaseModel, computed_field

from ...i18n import option_label
from .labels import labels

if TYPE_CHECKING:  # schemas.py derives the change from its result with this module
    from .schemas import DebateResult, VerdictSplit


class VoteTally(BaseModel):
    """One vote of the panel (the independent positions, or the end of the debate):
    its plurality and how it was reached (docs/protocols.md 1.9, "What the debate
    changed")."""

    # The option most agents chose; None when two or more tie for most (VerdictSplit's
    # rule: no tie-break, so a tie is said as one).
    plurality: str | None
    tied: list[str]  # the options tied for most, in the options' order; [] without a tie
    counts: dict[str, int]  # option -> agents, as the split counts them
    votes: int  # agents whose verdict counts in this vote
    agents: int  # the whole panel, failed agents included


class ChangeOutcome(StrEnum):
    KEPT = "kept"  # the same plurality before and after
    CHANGED = "changed"  # a different plurality after
    SETTLED = "settled"  # the first vote tied, the debate ended on a plurality
    UNSETTLED = "unsettled"  # the first vote had a plurality, the debate ended tied
    STILL_TIED = "still_tied"  # tied before and after


class DebateChange(BaseModel):
    """What the debate changed: the vote of the independent positions (round 0) against
    the final plurality. Derived when read from ``verdicts_before`` and ``verdicts_after``
    (a result stored before it existed says it too); ``words`` are in the debate's
    language, a page says it in its own (``describe_change``)."""

    first: VoteTally
    final: VoteTally
    rounds: int  # cross-examination rounds between the two votes
    outcome: ChangeOutcome
    words: str

    @computed_field  # type: ignore[prop-decorator]
    @property
    def changed(self) -> bool:
        """Whether the debate flipped the answer: the final plurality is not the first
        vote's (a tie is no answer, so settling or ending in one is a change)."""
        return self.outcome not in (ChangeOutcome.KEPT, ChangeOutcome.STILL_TIED)


def tally(split: VerdictSplit, options: list[str], agents: int) -> VoteTally:
    ordered = {o: split.counts[o] for o in options if o in split.counts}
    ordered |= {o: n for o, n in split.counts.items() if o not in ordered}
    top = max(ordered.values(), default=0)
    tied = [o for o, n in ordered.items() if n == top] if split.leading is None else []
    return VoteTally(plurality=split.leading, tied=tied if len(tied) > 1 else [],
                     counts=ordered, votes=sum(ordered.values()), agents=agents)


def outcome(first: VoteTally, final: VoteTally) -> ChangeOutcome:
    if first.plurality is None:
        return ChangeOutcome.STILL_TIED if final.plurality is None else ChangeOutcome.SETTLED
    if final.plurality is None:
        return ChangeOutcome.UNSETTLED
    return ChangeOutcome.KEPT if first.plurality == final.plurality else ChangeOutcome.CHANGED


def derive(result: DebateResult) -> DebateChange | None:
    """The change, or None when either vote is missing (no agent gave a verdict: a
    result stored before verdicts existed)."""
    before, after = result.verdicts_before, result.verdicts_after
    if before is None or after is None:
        return None
    agents = len(result.agents)
    first = tally(before, result.options, agents)
    final = tally(after, result.options, agents)
    change = DebateChange(first=first, final=final, rounds=result.rounds_completed,
                          outcome=outcome(first, final), words="")
    change.words = describe_change(change, labels(result.language))
    return change


def _vote(vote: VoteTally, t: Callable[..., str]) -> str:
    counts = sorted(vote.counts.items(), key=lambda item: -item[1])  # stable: options' order
    if vote.plurality is not None:
        numbers = [n for _, n in counts] or [vote.votes]
        if len(numbers) == 1:
            numbers.append(0)  # unanimous: "for 3:0"
        words = t("change.lead", option=option_label(vote.plurality, t),
                  tally=":".join(map(str, numbers)))
    else:
        words = t("change.tied", counts=t("split.sep").join(
            t("change.count", option=option_label(o, t), n=n) for o, n in counts))
    if vote.votes < vote.agents:
        words = t("change.of_agents", vote=words, n=vote.votes, agents=vote.agents)
    return words


def describe_change(change: DebateChange, t: Callable[..., str]) -> str:
    """The change in ``t``'s language (a report's, or a page's own)."""
    first = _vote(change.first, t)
    if change.rounds == 0:
        return t("change.no_rounds", first=first)
    return t("change.line", first=first, final=_vote(change.final, t),
             outcome=t(f"change.outcome.{change.outcome.value}"))
