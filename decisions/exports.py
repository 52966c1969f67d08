"""The team's decision, with the outcome of its latest review, as a section of the
debate's Markdown export (and so of its print view) and as the JSON export's
``decision`` key (registered in apps.py)."""

from __future__ import annotations

from typing import Any

from api_kit.timestamps import rfc3339
from debates.engine import inline
from debates.models import Debate
from debates.page_words import PageWords
from decisions.models import Outcome, ResultQuality
from decisions.selectors import (
    decision_for_debate,
    decision_state,
    decision_versions,
    latest_outcome,
)


def _who(user: Any) -> str:
    return user.get_username() if user is not None else "a former member"


def decision_markdown(debate: Debate) -> str:
    """"## Decision": what the team decided, why, who, when, the review date and the
    earlier versions; "" when the team has not decided."""
    decision = decision_for_debate(debate=debate)
    if decision is None:
        return ""
    kind = "" if decision.option else " (another choice)"
    if decision.result_quality != ResultQuality.SOUND:
        kind += f" · {PageWords('en')(f'quality_page.decided_on.{decision.result_quality}')}"
    review = f"{decision.review_on:%Y-%m-%d}" if decision.review_on else "none"
    out = ["## Decision", "", f"**{inline(decision.label)}**{kind}", "",
           *(f"> {line}".rstrip() for line in decision.rationale.strip().splitlines()), "",
           f"Decided by {inline(_who(decision.decided_by))} on "
           f"{decision.decided_at:%Y-%m-%d} · review: {review} · "
           f"state: {decision_state(decision).replace('_', ' ')}", ""]
    outcome = latest_outcome(decision=decision)
    if outcome is not None:
        out += _outcome_markdown(outcome)
    earlier = decision_versions(decision=decision)[1:]
    if earlier:
        out += ["### Earlier versions", ""]
        out += [f"- v{v.version} ({v.decided_at:%Y-%m-%d}, {inline(_who(v.decided_by))}): "
                f"**{inline(v.label)}** — {inline(' '.join(v.rationale.split()))}"
                for v in earlier]
        out.append("")
    return "\n".join(out)


def _outcome_markdown(outcome: Outcome) -> list[str]:
    """"### Outcome": the latest review (the one that counts), its notes quoted."""
    by = f"by {inline(_who(outcome.recorded_by))} on {outcome.recorded_at:%Y-%m-%d}"
    if outcome.can_tell:
        result = f" · result: {outcome.get_result_display().lower()}" if outcome.result else ""
        head = f"**{inline(outcome.right_option)}** proved right{result} · reviewed {by}"
    else:
        again = (f"; next review {outcome.review_again_on:%Y-%m-%d}"
                 if outcome.review_again_on else "")
        head = f"Can't tell yet (reviewed {by}){again}"
    out = ["### Outcome", "", head, ""]
    if outcome.notes.strip():
        out += [*(f"> {line}".rstrip() for line in outcome.notes.strip().splitlines()), ""]
    return out


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "code": str(outcome.code), "right_option": outcome.right_option or None,
        "result": outcome.result or None, "notes": outcome.notes,
        "review_again_on": (outcome.review_again_on.isoformat()
                            if outcome.review_again_on else None),
        "recorded_by": outcome.recorded_by.get_username() if outcome.recorded_by else None,
        "recorded_at": rfc3339(outcome.recorded_at),
    }


def decision_json(debate: Debate) -> dict[str, Any] | None:
    decision = decision_for_debate(debate=debate)
    if decision is None:
        return None
    return {
        "code": str(decision.code), "option": decision.option or None,
        "choice": decision.choice or None, "rationale": decision.rationale,
        "decided_by": decision.decided_by.get_username() if decision.decided_by else None,
        "decided_at": rfc3339(decision.decided_at),
        "review_on": decision.review_on.isoformat() if decision.review_on else None,
        "state": decision_state(decision), "version": decision.version,
        "result_quality": decision.result_quality,
        # The latest review (the one that counts); null before any.
        "outcome": outcome_json(latest_outcome(decision=decision)),
        "earlier_versions": [
            {"version": v.version, "option": v.option or None, "choice": v.choice or None,
             "rationale": v.rationale, "decided_at": rfc3339(v.decided_at),
             "decided_by": v.decided_by.get_username() if v.decided_by else None,
             "review_on": v.review_on.isoformat() if v.review_on else None}
            for v in decision_versions(decision=decision)[1:]],
    }
