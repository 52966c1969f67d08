"""How an area says that a debate it ran did not succeed: the bench then exits non-zero,
after printing what was measured."""

from __future__ import annotations

from debates.bench.figures import Figure


class DebatesFailed(Exception):
    def __init__(self, message: str, figures: list[Figure]) -> None:
        super().__init__(message)
        self.figures = figures
