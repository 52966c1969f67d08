"""One measured figure: what was measured, the value, and the target it is held to; or a
table of its own, for figures compared side by side."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    area: str          # e.g. "workers", "cli", "page", "events"
    name: str          # what was measured, in words a reader understands
    value: float
    unit: str          # "s", "ms", "MiB", "×", "req/s", "KB"
    target: str = ""   # e.g. "≤ 2.0×"; empty when the figure is informational
    ok: bool | None = None  # None when there is no target
    detail: str = ""   # configuration, sample size, anything needed to reproduce

    def row(self) -> str:
        verdict = "" if self.ok is None else ("yes" if self.ok else "**no**")
        return (f"| {self.area} | {self.name} | {self.value:.3g} {self.unit} | {self.target} "
                f"| {verdict} | {self.detail} |")


@dataclass(frozen=True)
class Table:
    """A Markdown table the bench prints after its figures (``markdown`` holds the lines)."""

    title: str
    markdown: tuple[str, ...]
