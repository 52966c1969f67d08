"""Geometry of the arms chart, drawn server-side as inline SVG like the other charts
(debates.web.charts, decisions.charts): one horizontal bar per arm at its accuracy,
with a whisker over its 95 % Wilson interval.

Pure: the report's arms in, coordinates out; ``templates/evaluations/_chart.html``
draws it, so every label passes through Django's autoescaping.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

BAR_COLOR = "#4e79a7"  # the convergence chart's first colour
CAVEAT_COLOR = "#9aa5b1"  # a figure that is not a finding: drawn paler
WHISKER_COLOR = "#2f2f33"


@dataclass(frozen=True)
class Bar:
    arm: str
    y: float  # top of the bar
    height: float
    x0: float
    width: float
    low_x: float
    high_x: float
    mid_y: float
    cap_top: float  # the whiskers' end caps
    cap_bottom: float
    accuracy: float
    low: float
    high: float
    n: int
    finding: bool
    color: str


@dataclass(frozen=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True)
class ArmsChart:
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    whisker_color: str = WHISKER_COLOR

    @property
    def empty(self) -> bool:
        return not self.bars

    @property
    def arm_label_x(self) -> float:
        return self.left - 8

    @property
    def tick_y(self) -> float:
        return self.bottom + 18

    @property
    def title_y(self) -> float:
        return self.height - 4.0

    @property
    def mid_x(self) -> float:
        return (self.left + self.right) / 2


def arms_chart(arms: Mapping[str, Mapping[str, Any]], *, width: int = 440,
               row: int = 40) -> ArmsChart:
    """One bar per arm that has an accuracy, in the report's order."""
    # Narrow on purpose: on a phone the drawing shrinks little and its labels stay legible.
    left, right, top = 80.0, width - 16.0, 8.0
    shown = [(name, arm) for name, arm in arms.items() if arm.get("accuracy") is not None]
    bottom = top + row * len(shown)
    height = int(bottom + 40)

    def x_of(value: float) -> float:
        return round(left + (right - left) * min(max(value, 0.0), 1.0), 1)

    bars = []
    for index, (name, arm) in enumerate(shown):
        y = top + index * row + row * 0.2
        bar_height = row * 0.6
        accuracy, (low, high) = float(arm["accuracy"]), arm["ci"]
        bars.append(Bar(
            arm=name, y=round(y, 1), height=round(bar_height, 1), x0=left,
            width=round(x_of(accuracy) - left, 1), low_x=x_of(low), high_x=x_of(high),
            mid_y=round(y + bar_height / 2, 1), cap_top=round(y + bar_height * 0.2, 1),
            cap_bottom=round(y + bar_height * 0.8, 1),
            accuracy=accuracy, low=low, high=high, n=int(arm["n"]),
            finding=bool(arm.get("finding")),
            color=BAR_COLOR if arm.get("finding") else CAVEAT_COLOR))
    ticks = tuple(Tick(x_of(v), f"{v:.1f}") for v in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0))
    return ArmsChart(width=width, height=height, left=left, right=right, top=top,
                     bottom=bottom, bars=tuple(bars), ticks=ticks)
