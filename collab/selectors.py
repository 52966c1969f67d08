"""Reads on comments, scoped to one debate (whose team the caller was checked against)
or to the calling user's own mentions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Prefetch, QuerySet

from collab.models import Comment, Mention, TargetKind
from debates.engine.schemas import DebateResult
from debates.models import Debate
from debates.selectors import debate_result

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def synthesis_result(debate: Debate) -> DebateResult | None:
    """The council's typed synthesis, the one whose parts comments point at; None
    while there is none and for other protocols (their results have no such parts)."""
    if debate.protocol != "council":
        return None
    return debate_result(debate=debate)


def target_label(comment: Comment, result: DebateResult | None) -> str:
    """What a thread is about, in words, e.g. 'On risk R2 ("Vendor lock-in")'."""
    kind, ref = comment.target_kind, comment.target_ref
    if kind == TargetKind.QUOTE:
        return f'On the passage "{" ".join(comment.quote.split())}"'
    if result is None or kind == TargetKind.SYNTHESIS:
        return "On the synthesis"
    if kind in (TargetKind.RISK, TargetKind.CONCERN):
        items = (result.pre_positional_risks if kind == TargetKind.RISK
                 else result.post_positional_concerns)
        text = next((i.text for i in items if i.id == ref), "")
        return f'On {kind} {ref} ("{text}")' if text else f"On {kind} {ref}"
    if kind == TargetKind.DISAGREEMENT:
        topics = result.disagreements
        topic = topics[int(ref)].topic if ref.isdigit() and int(ref) < len(topics) else ""
        return f'On the disagreement about "{topic}"' if topic else "On a disagreement"
    if ref and ref != "recommendation":
        return f"On the recommendation ({ref.replace('_', ' ')})"
    return "On the recommendation"


@dataclass
class Thread:
    root: Comment
    label: str
    replies: list[Comment] = field(default_factory=list)


def debate_threads(*, debate: Debate) -> list[Thread]:
    """Open threads first, then resolved ones; each oldest first with its replies."""
    replies = Comment.objects.select_related("author").order_by("created_at", "id")
    roots = (
        Comment.objects.filter(debate=debate, parent__isnull=True)
        .select_related("author", "resolved_by")
        .prefetch_related(Prefetch("replies", queryset=replies))
        .order_by("created_at", "id")
    )
    result = synthesis_result(debate)
    threads = [Thread(root, target_label(root, result), list(root.replies.all())) for root in roots]
    return sorted(threads, key=lambda t: t.root.is_resolved)


def debate_comment(*, debate: Debate, code: object) -> Comment | None:
    return Comment.objects.select_related("author", "debate__team").filter(
        debate=debate, code=code
    ).first()


def user_mentions(*, user: AbstractBaseUser) -> QuerySet[Mention]:
    """Mentions of ``user`` in live comments of debates of teams they still belong to."""
    return (
        Mention.objects.filter(
            user=user, comment__deleted_at__isnull=True,
            comment__debate__team__memberships__user=user,
        )
        .select_related("comment__author", "comment__debate")
        .distinct()
    )
