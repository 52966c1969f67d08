"""The adversarial protocol's stopping rule (docs/protocols.md 2): after each critique,
no red and at most one yellow issue open converges; else the round cap ends it."""

from __future__ import annotations

from ...i18n import translator
from .issues import SeverityCounts
from .labels import labels

DEFAULT_MAX_ROUNDS = 5


def converged(counts: SeverityCounts) -> bool:
    """The orchestrator's rule: no blocking issue and at most one should-fix."""
    return counts.red == 0 and counts.yellow <= 1


def status_line(round_number: int, cap: int, counts: SeverityCounts, decision: str) -> str:
    return (f"Round {round_number}/{cap}  red×{counts.red} yellow×{counts.yellow} "
            f"green×{counts.green} → {decision}")


def status_line_in(language: str, round_number: int, cap: int, counts: SeverityCounts,
                   decision: str) -> str:
    """The status line in ``language`` (pages and reports); in English, and in a
    language without a catalogue, the CLI's own line."""
    if not translator(language).has_translation:
        return status_line(round_number, cap, counts, decision)
    t, shared = labels(language), translator(language)
    words = " ".join(t("page.sev_count", sev=t(f"page.sev.{sev}"), n=getattr(counts, sev))
                     for sev in ("red", "yellow", "green"))
    reason = "explain.continue" if decision == "continue" else f"reason.{decision}"
    return t("page.status_line", round=round_number, of=cap, counts=words,
             decision=shared(reason) if reason in shared else decision)
