"""Geometry of the reliability diagram, drawn server-side as inline SVG like the
convergence chart (``debates.web.charts``).

Pure: bins in, coordinates out; ``templates/decisions/_reliability.html`` draws it.
x is the confidence agents stated, y how often their verdict proved right; a
calibrated panel's points lie on the diagonal, an overconfident one's below it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from decisions.scoring import ReliabilityBin

MARK_COLOR = "#4e79a7"  # the convergence chart's first colour
DIAGONAL_COLOR = "#6b6b70"


@dataclass(frozen=True)
class BinMark:
    x: float
    y: float
    r: float  # grows with the number of forecasts in the bin (by area)
    low: float
    high: float
    forecasts: int
    mean_confidence: float
    hit_rate: float


@dataclass(frozen=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True)
class ReliabilityChart:
    width: int
    height: int
    left: float
    top: float
    right: float
    bottom: float
    marks: tuple[BinMark, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    mark_color: str = MARK_COLOR
    diagonal_color: str = DIAGONAL_COLOR

    @property
    def empty(self) -> bool:
        return not self.marks

    @property
    def diagonal(self) -> str:
        return f"{self.left},{self.bottom} {self.right},{self.top}"

    @property
    def line(self) -> str:
        """The marks joined left to right."""
        return " ".join(f"{m.x},{m.y}" for m in self.marks)

    @property
    def tick_label_x(self) -> float:
        return self.left - 6

    @property
    def x_label_y(self) -> float:
        return self.bottom + 18

    @property
    def x_title_y(self) -> float:
        return self.height - 4.0

    @property
    def mid_x(self) -> float:
        return (self.left + self.right) / 2


def reliability_chart(bins: Sequence[ReliabilityBin], *, width: int = 440,
                      height: int = 360) -> ReliabilityChart:
    """One mark per non-empty bin at (mean stated confidence, observed hit rate)."""
    left, top, right, bottom = 40.0, 12.0, width - 12.0, height - 44.0

    def x_of(value: float) -> float:
        return round(left + (right - left) * min(max(value, 0.0), 1.0), 1)

    def y_of(value: float) -> float:
        return round(bottom - (bottom - top) * min(max(value, 0.0), 1.0), 1)

    most = max((b.forecasts for b in bins), default=0) or 1
    marks = tuple(
        BinMark(x=x_of(b.mean_confidence), y=y_of(b.hit_rate),
                r=round(3.0 + 6.0 * math.sqrt(b.forecasts / most), 1),
                low=b.low, high=b.high, forecasts=b.forecasts,
                mean_confidence=b.mean_confidence, hit_rate=b.hit_rate)
        for b in bins
        if b.forecasts and b.mean_confidence is not None and b.hit_rate is not None
    )
    ticks = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
    return ReliabilityChart(
        width=width, height=height, left=left, top=top, right=right, bottom=bottom,
        marks=marks,
        x_ticks=tuple(Tick(pos=x_of(v), label=f"{v:.1f}") for v in ticks),
        y_ticks=tuple(Tick(pos=y_of(v), label=f"{v:.1f}") for v in ticks),
    )
