"""Calibration arithmetic: how well each agent's final verdict and confidence
forecast the option that proved right, and whether the panel's debate improved on
its first opinions.

Pure: plain data in, numbers out; no Django, so every figure can be checked by hand
(docs/teams.md, "Scoring", states the formulas this module implements).

- An agent's forecast is a probability vector over the debate's K options: its
  confidence c on its verdict, the rest (1 - c) shared equally by the K - 1 others.
- Its Brier score on a reviewed decision is the mean squared error of that vector
  against the one-hot truth: (1/K) * sum_k (p_k - o_k)^2. 0 is a perfect forecast;
  always guessing 1/K scores (K - 1)/K^2.
- The panel's accuracy compares its majority verdict (the leading option; none on a
  tie, which counts as a miss) at round 0 and at the end with the right option.
- The reliability diagram bins forecasts by confidence and shows, per bin, how often
  the verdict was right: a calibrated agent's 0.7s are right 70% of the time.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

# Below this many scored decisions a persona's Brier score is mostly luck.
TOO_FEW = 5
# Confidence bins of the reliability diagram: [0, 0.2), [0.2, 0.4), ... [0.8, 1.0].
BINS = 5


@dataclass(frozen=True)
class Forecast:
    """One agent's final word on one debate."""

    # Who is scored: a library persona's code (the same across its versions and
    # debates) or, for a persona composed for one debate, a key of that debate's agent.
    scorer: str
    name: str
    verdict: str | None
    confidence: float | None
    # The debate a composed persona belongs to (None for a library persona).
    debate: str | None = None


@dataclass(frozen=True)
class ReviewedDebate:
    """A reviewed decision: what the panel said, and which option proved right."""

    options: Sequence[str]
    right_option: str
    initial_majority: str | None  # the leading verdict at round 0; None on a tie
    final_majority: str | None  # the leading verdict at the end; None on a tie
    forecasts: Sequence[Forecast]
    # For the page's list of reviewed decisions, not scored: which debate, its question,
    # and what its debate changed as its protocol's result holds it (plain JSON, which
    # the page words; None for a protocol without a first vote).
    debate: str | None = None
    question: str = ""
    change: dict[str, Any] | None = None

    @property
    def initial_right(self) -> bool:
        return self.initial_majority is not None and self.initial_majority == self.right_option

    @property
    def final_right(self) -> bool:
        return self.final_majority is not None and self.final_majority == self.right_option


@dataclass(frozen=True)
class PersonaRecord:
    scorer: str
    name: str
    scored: int  # reviewed decisions with a verdict from this persona
    brier: float  # mean Brier score over them
    hits: int  # of which the verdict was the right option
    debate: str | None  # set for a persona composed for that one debate

    @property
    def library_persona(self) -> bool:
        return self.debate is None

    @property
    def too_few(self) -> bool:
        return self.scored < TOO_FEW


@dataclass(frozen=True)
class PanelAccuracy:
    scored: int  # reviewed decisions with verdicts to compare
    initial_hits: int
    final_hits: int

    @property
    def initial(self) -> float | None:
        return self.initial_hits / self.scored if self.scored else None

    @property
    def final(self) -> float | None:
        return self.final_hits / self.scored if self.scored else None

    @property
    def lift(self) -> float | None:
        """Final minus initial accuracy: what cross-examination added ("debate lift")."""
        if self.initial is None or self.final is None:
            return None
        return self.final - self.initial


@dataclass(frozen=True)
class ReliabilityBin:
    low: float
    high: float
    forecasts: int
    mean_confidence: float | None
    hit_rate: float | None


@dataclass(frozen=True)
class Calibration:
    personas: tuple[PersonaRecord, ...]
    panel: PanelAccuracy
    reliability: tuple[ReliabilityBin, ...]

    def record_of(self, scorer: str) -> PersonaRecord | None:
        return next((p for p in self.personas if p.scorer == scorer), None)


def probabilities(options: Sequence[str], verdict: str, confidence: float) -> list[float]:
    """The forecast as a probability vector over ``options``, in their order."""
    if verdict not in options:
        raise ValueError(f"verdict {verdict!r} is not one of the options {list(options)}")
    if len(options) < 2:
        raise ValueError("a forecast needs at least two options")
    confidence = min(max(confidence, 0.0), 1.0)
    rest = (1.0 - confidence) / (len(options) - 1)
    return [confidence if option == verdict else rest for option in options]


def brier(options: Sequence[str], verdict: str, confidence: float, right: str) -> float:
    """Mean squared error of the forecast against the one-hot truth (0 best, 1 worst)."""
    if right not in options:
        raise ValueError(f"right option {right!r} is not one of the options {list(options)}")
    vector = probabilities(options, verdict, confidence)
    return sum((p - (1.0 if o == right else 0.0)) ** 2
               for p, o in zip(vector, options, strict=True)) / len(options)


def _scorable(debate: ReviewedDebate, forecast: Forecast) -> bool:
    return (forecast.verdict is not None and forecast.confidence is not None
            and forecast.verdict in debate.options and len(debate.options) >= 2)


def _has_verdicts(debate: ReviewedDebate) -> bool:
    return (debate.right_option in debate.options
            and any(_scorable(debate, f) for f in debate.forecasts))


def _bin_of(confidence: float) -> int:
    # The nudge keeps a stored 0.6 that arrived as 0.59999999 in the bin a reader expects.
    return min(int(min(max(confidence, 0.0), 1.0) * BINS + 1e-9), BINS - 1)


def calibrate(debates: Iterable[ReviewedDebate]) -> Calibration:
    """Every persona's record, the panel's accuracy and the reliability bins over the
    reviewed decisions. Debates without verdicts (protocols that give none) and
    agents that gave none (failed before their first position) are left out."""
    scores: dict[str, list[float]] = defaultdict(list)
    hits: dict[str, int] = defaultdict(int)
    names: dict[str, str] = {}
    debates_of: dict[str, str | None] = {}
    bins: list[list[tuple[float, bool]]] = [[] for _ in range(BINS)]
    panel_scored = initial_hits = final_hits = 0
    for debate in debates:
        if not _has_verdicts(debate):
            continue
        panel_scored += 1
        initial_hits += debate.initial_majority == debate.right_option
        final_hits += debate.final_majority == debate.right_option
        for forecast in debate.forecasts:
            if not _scorable(debate, forecast):
                continue
            assert forecast.verdict is not None and forecast.confidence is not None
            hit = forecast.verdict == debate.right_option
            scores[forecast.scorer].append(
                brier(debate.options, forecast.verdict, forecast.confidence,
                      debate.right_option))
            hits[forecast.scorer] += hit
            # The newest name wins: debates come oldest first, renames show as they are now.
            names[forecast.scorer] = forecast.name
            debates_of[forecast.scorer] = forecast.debate
            bins[_bin_of(forecast.confidence)].append((forecast.confidence, hit))
    records = [
        PersonaRecord(scorer=s, name=names[s], scored=len(v), brier=sum(v) / len(v),
                      hits=hits[s], debate=debates_of[s])
        for s, v in scores.items()
    ]
    # Enough evidence first, then best score; a one-debate lucky guess does not top it.
    records.sort(key=lambda r: (r.too_few, r.brier, r.name.casefold(), r.scorer))
    reliability = tuple(
        ReliabilityBin(
            low=i / BINS, high=(i + 1) / BINS, forecasts=len(b),
            mean_confidence=sum(c for c, _ in b) / len(b) if b else None,
            hit_rate=sum(h for _, h in b) / len(b) if b else None,
        )
        for i, b in enumerate(bins)
    )
    return Calibration(
        personas=tuple(records),
        panel=PanelAccuracy(scored=panel_scored, initial_hits=initial_hits,
                            final_hits=final_hits),
        reliability=reliability,
    )
