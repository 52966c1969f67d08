"""Figures of an evaluation's report as the page prints them."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter(name="rate")
def rate(value: object) -> str:
    """An accuracy or a bound to three places; "–" when there is none."""
    return "–" if value is None else f"{float(value):.3f}"  # type: ignore[arg-type]


@register.filter(name="money")
def money(value: object) -> str:
    return "–" if value is None else f"${float(value):.4f}"  # type: ignore[arg-type]


@register.filter(name="p_value")
def p_value(value: object) -> str:
    if value is None:
        return "–"
    p = float(value)  # type: ignore[arg-type]
    return "p < 0.0001" if p < 0.0001 else f"p = {p:.4f}"


@register.filter(name="sum_tokens")
def sum_tokens(arm: dict[str, int]) -> int:
    return int(arm.get("prompt_tokens", 0)) + int(arm.get("completion_tokens", 0))


@register.filter(name="only")
def only(table: dict[str, int], arm: str) -> int:
    """A paired table's count of questions only ``arm`` got right (``<arm>_only``)."""
    return int(table.get(f"{arm}_only", 0))
