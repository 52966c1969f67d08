"""The decision rule (docs/protocols.md 1.9, "The decision rule"): which option the
council's recommendation follows, and whether the debate overturned the independent vote.

Three rules read the verdicts the result already holds:

- ``vote``: the plurality of the independent positions (round 0, before any agent saw
  another's). The default when every agent runs one model: across benchmarks the
  independent majority matched or beat debating copies of one model, and on
  SmolLM2-135M our debate changed the answer on 19 of 50 questions with no net gain.
- ``debate``: the plurality of the final verdicts, after cross-examination. The
  default when the panel's models differ: only mixed model families gained from
  deliberation.
- ``confidence``: the independent positions again, each weighted by the *rank* of its
  agent's confidence within that round (1 for the least confident, ties sharing their
  mean rank). Ranks keep the order of the stated confidences and drop their scale: a
  saturated panel (every agent 0.85-0.9) weighs as a plain vote, and one agent at 1.0
  outweighs one at 0.8 by a rank, not by whatever its number claims. Read in round 0
  for the reason the vote is: later confidences have seen the room.

A rule's top may tie. The tie is said, then broken deterministically by the next tally
in the rule's chain (``TIE_BREAKS``) counted over the tied options only, and at last by
the options' order (the order the debate listed them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from pydantic import BaseModel

from ...i18n import option_label
from ...schemas import DecisionRule
from ...votes import confidence_scores
from .change import VoteTally


class RuleSource(StrEnum):
    """Why the result follows its rule."""

    SETTING = "setting"  # asked for (decision_rule in the config)
    ONE_MODEL = "one_model"  # the default: every agent runs one model
    MIXED_MODELS = "mixed_models"  # the default: the panel's models differ
    STORED_BEFORE = "stored_before"  # a result stored before rules existed: the debate's


# The tallies that break a tie of each rule's own, in order (then the options' order).
TIE_BREAKS: dict[DecisionRule, tuple[DecisionRule, ...]] = {
    DecisionRule.VOTE: (DecisionRule.DEBATE,),
    DecisionRule.DEBATE: (DecisionRule.VOTE,),
    DecisionRule.CONFIDENCE: (DecisionRule.VOTE, DecisionRule.DEBATE),
}
ORDER = "order"  # the last tie-break: the options' order


class PanelDecision(BaseModel):
    """The option the result's rule picks and how."""

    rule: DecisionRule
    source: RuleSource
    # The option picked; None only when no agent gave a verdict (no vote to follow).
    option: str | None
    # The rule's own tally per option: agents for vote and debate, summed confidence
    # ranks for confidence; in the options' order, options nobody chose left out.
    scores: dict[str, float]
    tied: list[str]  # the options tied at the top of the rule's tally; [] without a tie
    # What broke the tie: "vote", "debate" or "order"; "" without a tie.
    tie_break: str
    words: str  # the rule, its pick and any tie, in the debate's language


def resolve_rule(asked: DecisionRule | None, models: Sequence[str]
                 ) -> tuple[DecisionRule, RuleSource]:
    """The rule a debate follows: the one asked for, else ``vote`` on a panel of one
    model and ``debate`` on a mixed one."""
    if asked is not None:
        return asked, RuleSource.SETTING
    if len(set(models)) > 1:
        return DecisionRule.DEBATE, RuleSource.MIXED_MODELS
    return DecisionRule.VOTE, RuleSource.ONE_MODEL


def _tops(scores: dict[str, float], among: Sequence[str]) -> list[str]:
    values = {o: scores.get(o, 0.0) for o in among}
    best = max(values.values(), default=0.0)
    return [o for o in among if values[o] == best]


def decide(rule: DecisionRule, source: RuleSource, options: Sequence[str],
           first: VoteTally | None, final: VoteTally | None,
           positions: Sequence[tuple[str | None, float | None]],
           t: Callable[..., str]) -> PanelDecision:
    """The rule's pick. ``first`` and ``final``: the independent and the final vote;
    ``positions``: each agent's independent (verdict, confidence)."""
    tallies: dict[DecisionRule, dict[str, float]] = {
        DecisionRule.VOTE: {o: float(n) for o, n in (first.counts if first else {}).items()},
        DecisionRule.DEBATE: {o: float(n) for o, n in (final.counts if final else {}).items()},
        DecisionRule.CONFIDENCE: confidence_scores(positions, options),
    }
    scores = tallies[rule]
    ordered = [o for o in options if o in scores] + [o for o in scores if o not in options]
    if not ordered:
        return PanelDecision(rule=rule, source=source, option=None, scores={}, tied=[],
                             tie_break="", words=_words(rule, source, None, [], "", {}, t))
    tops = _tops(scores, ordered)
    tied = tops if len(tops) > 1 else []
    tie_break = ""
    for breaker in TIE_BREAKS[rule] if tied else ():
        narrowed = _tops(tallies[breaker], tops)
        if len(narrowed) < len(tops):
            tops, tie_break = narrowed, breaker.value
        if len(tops) == 1:
            break
    if len(tops) > 1:
        tie_break = ORDER
    option = tops[0]
    return PanelDecision(rule=rule, source=source, option=option,
                         scores={o: scores[o] for o in ordered}, tied=tied,
                         tie_break=tie_break if tied else "",
                         words=_words(rule, source, option, tied, tie_break, scores, t))


def overturned(first: VoteTally | None, final: VoteTally | None, rounds: int) -> bool:
    """Whether the debate overturned the independent vote: that vote had a plurality
    and, after at least one round, the final vote's differs or ties."""
    return (rounds > 0 and first is not None and final is not None
            and first.plurality is not None and final.plurality != first.plurality)


def _number(value: float) -> str:
    return f"{value:g}"


def _words(rule: DecisionRule, source: RuleSource, option: str | None, tied: list[str],
           tie_break: str, scores: dict[str, float], t: Callable[..., str]) -> str:
    rule_words = t(f"decision.rule.{rule.value}")
    why = t(f"decision.why.{source.value}")
    if option is None:
        return t("decision.none", rule=rule_words, why=why)
    words = t("decision.line", rule=rule_words, option=option_label(option, t), why=why)
    if tied:
        counts = t("split.sep").join(
            t("change.count", option=option_label(o, t), n=_number(scores[o])) for o in tied)
        words += " " + t("decision.tie", counts=counts, by=t(f"decision.tie_by.{tie_break}"))
    return words
