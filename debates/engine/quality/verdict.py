"""One verdict from the reasons (docs/engine.md, "Content checks"):

- ``unusable`` when any reason is of an unusable rule (the decision itself is
  degenerate, a convergence read from a contradicted empty critique), when more than
  half the turns read trip a text rule, or when reasons of 3 or more different rules
  fire: noise everywhere, whatever each rule says alone;
- ``doubtful`` when any rule fires;
- ``sound`` otherwise."""

from __future__ import annotations

from ..schemas import Quality, QualityReason

MOST_TURNS = 0.5
MANY_RULES = 3


def verdict(reasons: list[QualityReason], turns_read: int, turns_flagged: int) -> Quality:
    if not reasons:
        return Quality.SOUND
    if any(r.severity == "unusable" for r in reasons):
        return Quality.UNUSABLE
    if turns_read and turns_flagged / turns_read > MOST_TURNS:
        return Quality.UNUSABLE
    if len({r.rule for r in reasons}) >= MANY_RULES:
        return Quality.UNUSABLE
    return Quality.DOUBTFUL
