"""The team's decision as a section of the debate's Markdown export (and so of its
print view) and as the JSON export's ``decision`` key (registered in apps.py)."""

from __future__ import annotations

from typing import Any

from debates.engine.markdown import inline
from debates.models import Debate
from decisions.selectors import decision_for_debate, decision_state, decision_versions


def _who(user: Any) -> str:
    return user.get_username() if user is not None else "a former member"


def decision_markdown(debate: Debate) -> str:
    """"## Decision": what the team decided, why, who, when, the review date and the
    earlier versions; "" when the team has not decided."""
    decision = decision_for_debate(debate=debate)
    if decision is None:
        return ""
    kind = "" if decision.option else " (another choice)"
    review = f"{decision.review_on:%Y-%m-%d}" if decision.review_on else "none"
    out = ["## Decision", "", f"**{inline(decision.label)}**{kind}", "",
           *(f"> {line}".rstrip() for line in decision.rationale.strip().splitlines()), "",
           f"Decided by {inline(_who(decision.decided_by))} on "
           f"{decision.decided_at:%Y-%m-%d} · review: {review} · "
           f"state: {decision_state(decision).replace('_', ' ')}", ""]
    earlier = decision_versions(decision=decision)[1:]
    if earlier:
        out += ["### Earlier versions", ""]
        out += [f"- v{v.version} ({v.decided_at:%Y-%m-%d}, {inline(_who(v.decided_by))}): "
                f"**{inline(v.label)}** — {inline(' '.join(v.rationale.split()))}"
                for v in earlier]
        out.append("")
    return "\n".join(out)


def decision_json(debate: Debate) -> dict[str, Any] | None:
    decision = decision_for_debate(debate=debate)
    if decision is None:
        return None
    return {
        "code": str(decision.code), "option": decision.option or None,
        "choice": decision.choice or None, "rationale": decision.rationale,
        "decided_by": decision.decided_by.get_username() if decision.decided_by else None,
        "decided_at": decision.decided_at.isoformat(),
        "review_on": decision.review_on.isoformat() if decision.review_on else None,
        "state": decision_state(decision), "version": decision.version,
        "earlier_versions": [
            {"version": v.version, "option": v.option or None, "choice": v.choice or None,
             "rationale": v.rationale, "decided_at": v.decided_at.isoformat(),
             "decided_by": v.decided_by.get_username() if v.decided_by else None,
             "review_on": v.review_on.isoformat() if v.review_on else None}
            for v in decision_versions(decision=decision)[1:]],
    }
