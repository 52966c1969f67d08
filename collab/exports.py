"""The team's follow-up on a synthesis (actions, checked claims) as a Markdown
section of the debate's export (registered in collab/apps.py)."""

from __future__ import annotations

from collab.models import TargetKind
from collab.selectors import synthesis_follow_up, synthesis_result
from debates.engine.markdown import inline
from debates.models import Debate


def follow_up_markdown(debate: Debate) -> str:
    """"## Follow-up" with each action (done or not, owner, due date, the R/V id it is
    about) and each checked claim with its note; "" when the team has done neither."""
    if synthesis_result(debate) is None:
        return ""
    follow = synthesis_follow_up(debate=debate)
    if not follow.actions and not follow.checks:
        return ""
    out = ["## Follow-up", ""]
    if follow.actions:
        out += ["### Actions", ""]
        for a in follow.actions:
            owner = inline(a.owner.get_username()) if a.owner else "no owner"
            kind = "claim" if a.target_kind == TargetKind.CLAIM else "risk"
            out.append(f"- [{'x' if a.is_done else ' '}] **{inline(a.target_ref)}** ({kind}) "
                       f"{inline(a.title)} — {owner}, due {a.due_date:%Y-%m-%d}")
        out.append("")
    if follow.checks:
        out += ["### Claims checked", ""]
        for ref, check in sorted(follow.checks.items(), key=lambda kv: int(kv[0][1:] or 0)):
            who = inline(check.checked_by.get_username()) if check.checked_by else "someone"
            note = f": {inline(check.note)}" if check.note else ""
            out.append(f"- **{inline(ref)}** checked by {who} on {check.checked_at:%Y-%m-%d}{note}")
        out.append("")
    return "\n".join(out)


def actions_json(debate: Debate) -> list[dict[str, object]] | None:
    """The debate's actions for the JSON export; None when it has none."""
    actions = synthesis_follow_up(debate=debate).actions
    if not actions:
        return None
    return [{"code": str(a.code), "title": a.title, "target_kind": a.target_kind,
             "target_ref": a.target_ref, "status": a.status,
             "owner": a.owner.get_username() if a.owner else None,
             "due_date": a.due_date.isoformat(),
             "done_at": a.done_at.isoformat() if a.done_at else None} for a in actions]
