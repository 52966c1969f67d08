"""Geometry of the convergence chart, drawn server-side as inline SVG.

Pure: names and numbers in, coordinates out. The template
``debates/_chart.html`` draws the result, so every name passes through Django's
autoescaping and no HTML is built in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

# Distinguishable on light and dark backgrounds, in an order that keeps neighbours apart.
PALETTE = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2",
    "#d4a900", "#9c755f", "#ff9da7", "#17becf", "#bcbd22", "#1f3a93",
)
DISPERSION_COLOR = "#6b6b70"
AGREEMENT_COLOR = "#2f2f33"


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    round: int
    value: float


@dataclass(frozen=True)
class Series:
    name: str
    color: str
    points: tuple[Point, ...]
    # One polyline per unbroken run: a round an agent missed leaves a gap.
    segments: tuple[str, ...]
    dashed: bool = False


@dataclass(frozen=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: float
    top: float
    right: float
    bottom: float
    rounds: int
    series: tuple[Series, ...]
    dispersion: Series | None
    # Share of agents on the leading verdict per round: agreement on the decision,
    # beside how sure each agent is (docs/protocols.md 1.6).
    agreement: Series | None = None
    x_ticks: tuple[Tick, ...] = field(default_factory=tuple)
    y_ticks: tuple[Tick, ...] = field(default_factory=tuple)

    @property
    def tick_label_x(self) -> float:
        return self.left - 6

    @property
    def x_label_y(self) -> float:
        return self.height - 8.0

    @property
    def empty(self) -> bool:
        return not any(s.points for s in self.series)


def _series(name: str, color: str, values: Sequence[float | None], x_of, y_of,
            dashed: bool = False) -> Series:
    points: list[Point] = []
    segments: list[str] = []
    run: list[str] = []
    for r, value in enumerate(values):
        if value is None:
            if len(run) > 1:
                segments.append(" ".join(run))
            run = []
            continue
        point = Point(x=round(x_of(r), 1), y=round(y_of(value), 1), round=r, value=value)
        points.append(point)
        run.append(f"{point.x},{point.y}")
    if len(run) > 1:
        segments.append(" ".join(run))
    return Series(name=name, color=color, points=tuple(points), segments=tuple(segments),
                  dashed=dashed)


def convergence_chart(
    agents: Sequence[tuple[str, Sequence[float | None]]],
    dispersion: Sequence[float | None] = (),
    agreement: Sequence[float | None] = (),
    *,
    width: int = 560,
    height: int = 240,
) -> Chart:
    """Each agent's confidence per round (0 = positions), the panel's dispersion and
    its agreement on a verdict, on one 0..1 axis so they can be read against each other."""
    left, top, right, bottom = 36.0, 12.0, width - 12.0, height - 28.0
    longest = max([len(v) for _, v in agents] + [len(dispersion), len(agreement), 1])
    rounds = max(longest - 1, 1)  # at least one interval, so x never divides by zero

    def x_of(r: int) -> float:
        return left + (right - left) * r / rounds

    def y_of(value: float) -> float:
        value = min(max(value, 0.0), 1.0)
        return bottom - (bottom - top) * value

    series = tuple(
        _series(name, PALETTE[i % len(PALETTE)], values, x_of, y_of)
        for i, (name, values) in enumerate(agents)
    )
    disp = (_series("dispersion", DISPERSION_COLOR, dispersion, x_of, y_of, dashed=True)
            if any(v is not None for v in dispersion) else None)
    agreed = (_series("agreement", AGREEMENT_COLOR, agreement, x_of, y_of)
              if any(v is not None for v in agreement) else None)
    x_ticks = tuple(Tick(pos=round(x_of(r), 1), label="pos." if r == 0 else str(r))
                    for r in range(rounds + 1))
    y_ticks = tuple(Tick(pos=round(y_of(v), 1), label=f"{v:.1f}") for v in (0.0, 0.5, 1.0))
    return Chart(width=width, height=height, left=left, top=top, right=right, bottom=bottom,
                 rounds=rounds, series=series, dispersion=disp, agreement=agreed,
                 x_ticks=x_ticks,
                 y_ticks=y_ticks)
