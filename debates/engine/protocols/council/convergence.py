"""Convergence metrics, the stopping rule and the diagnostic (docs/protocols.md 1.6-1.8).

Pure functions over numbers and item lists, so every branch is testable alone.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from ...i18n import Translator, translator
from ...schemas import StopReason
from .schemas import Diagnostic, DiagnosticLabel, RoundMetrics, VerdictSplit
from .verdicts import AGREEMENT_NEEDED, describe_counts

# A move smaller than this is "stable", both for the stopping rule's
# confidence_delta and for the diagnostic's before/after comparison.
STABLE_DELTA = 0.03
DISAGREEMENT_FACTOR = 1.5
# Confidences are decimals that floats cannot hold exactly: 0.29 - 0.26 is
# 0.02999999999999997. Every boundary compares with this tolerance, so a move of
# "0.03" is never stable, whichever confidences it came from.
TOLERANCE = 1e-9


def _below(value: float, limit: float) -> bool:
    return value < limit - TOLERANCE


def _above(value: float, limit: float) -> bool:
    return value > limit + TOLERANCE


def mean_and_dispersion(confidences: Sequence[float]) -> tuple[float, float]:
    if not confidences:
        raise ValueError("no active agents to measure")
    return statistics.fmean(confidences), statistics.pstdev(confidences)


def round_metrics(
    *,
    round_number: int,
    confidences: Sequence[float],
    previous_mean: float | None,
    concessions: int | None,
    new_arguments: int | None,
    live_agents: int | None = None,
    verdicts: VerdictSplit | None = None,
) -> RoundMetrics:
    """``confidences`` are every counted agent's (failed ones carried forward);
    ``live_agents`` says how many of them answered in this round (default: all);
    ``verdicts`` is the same agents' verdict split (None: no verdicts given)."""
    mean, dispersion = mean_and_dispersion(confidences)
    return RoundMetrics(
        round=round_number,
        active_agents=len(confidences) if live_agents is None else live_agents,
        counted_agents=len(confidences),
        mean_confidence=mean,
        dispersion=dispersion,
        confidence_delta=None if previous_mean is None else mean - previous_mean,
        concessions=concessions,
        new_arguments=new_arguments,
        agreement=verdicts.agreement if verdicts else None,
        leading_verdict=verdicts.leading if verdicts else None,
        verdict_counts=dict(verdicts.counts) if verdicts else None,
    )


def split_words(metrics: RoundMetrics, t: Translator) -> str:
    """The round's verdict split for a stop receipt ("; verdicts: 4 of 5 for, 1
    conditional (agreement 0.80)"), or "" when no verdicts were given."""
    if metrics.agreement is None or metrics.verdict_counts is None:
        return ""
    of = metrics.counted_agents or metrics.active_agents
    return t("explain.verdicts", split=describe_counts(metrics.verdict_counts, of, t),
             agreement=metrics.agreement)


def stop_decision(
    metrics: RoundMetrics, *, threshold: float, max_rounds: int, t: Translator | None = None
) -> tuple[StopReason | None, str]:
    """The stopping rule, checked after every round r >= 1; first match wins.

    Returns the stop reason (None = run another round) and the metric values that
    decided it, in words of the debate's language (``t``; English by default), with
    the verdict split. Converged needs agreement >= 0.75 on one verdict; a stall with
    split verdicts is genuine disagreement. Metrics without verdicts (turns stored
    before verdicts existed) are judged on confidence alone, as they were then.
    """
    t = t or translator("en")
    r = metrics.round
    if r < 1 or metrics.confidence_delta is None:
        raise ValueError("the stopping rule applies to cross-examination rounds only")
    disp, delta = metrics.dispersion, metrics.confidence_delta
    new, conc = metrics.new_arguments or 0, metrics.concessions or 0
    agreement = metrics.agreement
    agreed = agreement is None or not _below(agreement, AGREEMENT_NEEDED)
    verdicts = split_words(metrics, t)
    if _below(disp, threshold) and _below(abs(delta), STABLE_DELTA) and agreed:
        return StopReason.CONVERGED, t(
            "explain.converged", disp=disp, threshold=threshold, delta=delta,
            stable=STABLE_DELTA) + verdicts
    if r >= 2 and new == 0 and conc == 0:
        limit = DISAGREEMENT_FACTOR * threshold
        values = {"round": r, "disp": disp, "threshold": threshold, "limit": limit}
        if _above(disp, limit):
            return StopReason.GENUINE_DISAGREEMENT, t(
                "explain.genuine_disagreement", **values) + verdicts
        if not agreed:
            return StopReason.GENUINE_DISAGREEMENT, t(
                "explain.split_verdicts", round=r, agreement=agreement,
                needed=AGREEMENT_NEEDED) + verdicts
        return StopReason.DIMINISHING_RETURNS, t(
            "explain.diminishing_returns", **values) + verdicts
    if r >= max_rounds:
        return StopReason.MAX_ROUNDS, t(
            "explain.max_rounds", max_rounds=max_rounds, disp=disp, delta=delta, new=new,
            conc=conc) + verdicts
    return None, t("explain.continue")


def _trend(before: float, after: float) -> int:
    change = after - before
    if _below(abs(change), STABLE_DELTA):
        return 0
    return 1 if change > 0 else -1


def diagnose(first: RoundMetrics, last: RoundMetrics, *, moves: Sequence[float] = (),
             dispersion_limit: float | None = None) -> Diagnostic:
    """Compares round 0 (positions) with the last round (docs/protocols.md 1.8).

    ``moves`` are the agents' own confidence changes over the same span and
    ``dispersion_limit`` the stopping rule's disagreement limit (1.5 x threshold): a
    narrowing spread only reads as agreement ("genuine convergence", "false consensus
    risk") when the panel's verdicts agree and the spread is within that limit; a
    panel that drew together but still disagrees is "still apart", so the diagnostic
    never calls "convergence" what the stop reason calls "genuine disagreement".
    """
    mean_trend = _trend(first.mean_confidence, last.mean_confidence)
    disp_trend = _trend(first.dispersion, last.dispersion)
    labels = {
        (-1, 1): DiagnosticLabel.HEALTHY_DOUBT,
        (1, -1): DiagnosticLabel.GENUINE_CONVERGENCE,
        (0, -1): DiagnosticLabel.FALSE_CONSENSUS_RISK,
        (1, 1): DiagnosticLabel.POLARIZATION,
    }
    label = labels.get((mean_trend, disp_trend), DiagnosticLabel.MIXED)
    split = last.agreement is not None and _below(last.agreement, AGREEMENT_NEEDED)
    apart = dispersion_limit is not None and _above(last.dispersion, dispersion_limit)
    if label in (DiagnosticLabel.GENUINE_CONVERGENCE, DiagnosticLabel.FALSE_CONSENSUS_RISK) \
            and (split or apart):
        label = DiagnosticLabel.STILL_APART
    return Diagnostic(
        label=label,
        mean_before=first.mean_confidence,
        mean_after=last.mean_confidence,
        dispersion_before=first.dispersion,
        dispersion_after=last.dispersion,
        mean_trend={-1: "fell", 0: "stable", 1: "rose"}[mean_trend],  # type: ignore[arg-type]
        dispersion_trend={-1: "narrowed", 0: "stable", 1: "widened"}[disp_trend],  # type: ignore[arg-type]
        largest_move=max((abs(m) for m in moves), default=None),
        agreement_after=last.agreement,
        dispersion_limit=dispersion_limit,
    )


def diagnostic_meaning(diagnostic: Diagnostic, t: Translator | None = None) -> str:
    """What the label means, in words that the diagnostic's own numbers bear out."""
    t = t or translator("en")
    d = diagnostic
    if d.label is DiagnosticLabel.STILL_APART:
        if d.agreement_after is not None and _below(d.agreement_after, AGREEMENT_NEEDED):
            return t("meaning.still_apart_split", agreement=d.agreement_after,
                     needed=AGREEMENT_NEEDED)
        return t("meaning.still_apart_spread", disp=d.dispersion_after,
                 limit=d.dispersion_limit or 0.0)
    if d.label is DiagnosticLabel.FALSE_CONSENSUS_RISK and d.largest_move is not None \
            and _below(d.largest_move, STABLE_DELTA):
        return t("meaning.false_consensus_risk_unmoved")
    return t(f"meaning.{d.label.value}")
