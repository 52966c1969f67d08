"""The adversarial protocol's stopping rule (protocols.md 2): after each critique,
no red and at most one yellow issue open converges; else the round cap ends it."""

from __future__ import annotations

from .issues import SeverityCounts

DEFAULT_MAX_ROUNDS = 5


def converged(counts: SeverityCounts) -> bool:
    """The orchestrator's rule: no blocking issue and at most one should-fix."""
    return counts.red == 0 and counts.yellow <= 1


def status_line(round_number: int, cap: int, counts: SeverityCounts, decision: str) -> str:
    return (f"Round {round_number}/{cap}  red×{counts.red} yellow×{counts.yellow} "
            f"green×{counts.green} → {decision}")
