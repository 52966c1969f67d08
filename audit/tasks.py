"""The workers' side of the audit log: the daily retention sweep (audit.schedules)."""

from __future__ import annotations

from audit import services


def prune() -> int:
    return services.prune()
