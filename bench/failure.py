"""How an area says that a debate it ran did not succeed (the bench then exits non-zero,
after printing what was measured), or that it cannot run here (a note says why)."""

from __future__ import annotations

from bench.figures import Figure


class DebatesFailed(Exception):
    def __init__(self, message: str, figures: list[Figure]) -> None:
        super().__init__(message)
        self.figures = figures


class AreaSkipped(Exception):
    """The area needs something this machine lacks; the message says what and how to get it."""
