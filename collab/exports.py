"""What the team did with a synthesis, as Markdown sections of the debate's export
(registered in collab/apps.py): the follow-up (actions, checked claims) always, the
comment threads when the export asks for them."""

from __future__ import annotations

from api_kit.timestamps import rfc3339
from collab.models import Comment
from collab.selectors import Thread, debate_threads, synthesis_follow_up, synthesis_result
from debates.engine import inline
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
            kind = {"claim": "claim", "risk": "risk"}.get(a.target_kind, "debate")
            out.append(f"- [{'x' if a.is_done else ' '}] **{inline(a.about)}** ({kind}) "
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


def _comment_line(comment: Comment) -> str:
    who = inline(comment.author.get_username()) if comment.author else "former user"
    when = f"{comment.created_at:%Y-%m-%d %H:%M}"
    if comment.is_deleted:
        text = "*deleted*"
    elif comment.is_hidden:
        text = "*hidden by an owner*"
    else:
        text = inline(comment.body) + (" *(edited)*" if comment.edited_at else "")
    return f"**{who}** ({when}): {text}"


def _thread_markdown(thread: Thread) -> list[str]:
    root = thread.root
    notes = [n for n, on in (("resolved", root.is_resolved),
                             ("on an earlier version", thread.on_earlier_version)) if on]
    title = inline(thread.label) + (f" ({', '.join(notes)})" if notes else "")
    out = [f"### {title}", ""]
    if root.quote and not root.is_deleted and not root.is_hidden:
        out += [f"> {inline(root.quote)}", ""]
    out.append(f"- {_comment_line(root)}")
    out += [f"  - {_comment_line(reply)}" for reply in thread.replies]
    return [*out, ""]


def threads_markdown(debate: Debate) -> str:
    """"## Comments": each thread (what it is about, the quoted passage) with its
    replies, one line each; hidden and deleted comments say so without their text."""
    threads = debate_threads(debate=debate)
    if not threads:
        return ""
    out = ["## Comments", ""]
    for thread in threads:
        out += _thread_markdown(thread)
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
             "done_at": rfc3339(a.done_at) if a.done_at else None} for a in actions]
