"""A library persona's calibration record, for the persona API.

The record is computed by ``decisions`` (which scores reviewed decisions), and
decisions sits above personas in the import layers: personas cannot ask it. So
decisions registers the provider when it is ready (decisions/apps.py), the way
personas itself offers library personas to debates (debates/persona_sources.py).
Without a provider (decisions not installed) no persona has a record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from accounts.models import Team


@dataclass(frozen=True)
class CalibrationRecord:
    scored_decisions: int  # reviewed decisions that scored the persona's verdict
    brier: float  # mean Brier score over them: 0 is perfect, lower is better
    hits: int  # of which its final verdict proved right
    too_few: bool  # too few scored decisions to judge by


# The team's library personas that have a record, by persona code (as text).
RecordsProvider = Callable[[Team], Mapping[str, CalibrationRecord]]

_provider: RecordsProvider | None = None


def register(provider: RecordsProvider | None) -> None:
    """Makes ``provider`` the source of calibration records (``None``: there is none)."""
    global _provider
    _provider = provider


def calibration_records(*, team: Team) -> Mapping[str, CalibrationRecord]:
    """Every scored library persona of ``team``'s record, by code; empty without a
    provider."""
    return _provider(team) if _provider is not None else {}
