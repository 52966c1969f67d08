"""Calibration figures on pages of other apps: the persona library shows each
persona's record without the personas app importing decisions
(``{% load calibration %}`` resolves at render time)."""

from __future__ import annotations

from typing import Any

from django import template

from decisions.calibration import library_records
from decisions.scoring import PersonaRecord
from view_kit.site_words import ui

register = template.Library()


@register.simple_tag
def calibration_records(team: Any) -> dict[str, PersonaRecord]:
    """The records of the team's library personas, by persona code (four queries)."""
    return library_records(team=team)


@register.filter(name="by_code")
def by_code(found: dict[str, Any] | None, code: object) -> Any:
    """``found[code]`` for a public code (a UUID or its text), None when absent."""
    return (found or {}).get(str(code))


@register.filter(name="percent")
def percent(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.0f}%"


@register.filter(name="points")
def points(value: float | None) -> str:
    """A change of accuracy in percentage points: "+33 points", "no change"."""
    if value is None:
        return "–"
    rounded = round(value * 100)
    if rounded == 0:
        return ui("site.calibration.no_change")
    return ui("site.calibration.points", n=abs(rounded),
              signed=f"{rounded:+d}".replace("-", "−"))
