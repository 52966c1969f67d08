"""Reads on comments, scoped to one debate (whose team the caller was checked against)
or to the calling user's own mentions."""

from __future__ import annotations

import html
import uuid
from dataclasses import dataclass, field

import nh3
from django.contrib.auth.models import User
from django.db.models import Count, Prefetch, QuerySet

from accounts.access import WRITE_ROLES
from collab.models import (
    Action,
    ClaimCheck,
    Comment,
    CommentModeration,
    CommentRevision,
    Mention,
    TargetKind,
)
from debates.engine import ResultPart, get_protocol
from debates.models import Debate
from debates.selectors import debate_result
from view_kit.rendering import render_untrusted
from view_kit.site_words import ui


@dataclass(frozen=True)
class ResultView:
    """A debate's result as comments see it, whatever its protocol: the parts a
    comment or an action can point at (``DebateProtocol.result_parts``) and the
    passages a reader can quote (``quote_passages``)."""

    parts: list[ResultPart]
    passages: list[tuple[object, str]]

    def part(self, kind: str, ref: str) -> ResultPart | None:
        return next((p for p in self.parts if p.kind == kind and p.ref == ref), None)

    def of_kind(self, kind: str) -> list[ResultPart]:
        return [p for p in self.parts if p.kind == kind]


# How messages and the form's suggestions name a kind of part where its name alone would
# not do; any other kind reads as its name ("next_step": "next step").
_KIND_WORDS: dict[str, str] = {TargetKind.CLAIM: "claim to verify"}


def kind_words(kind: str) -> str:
    return _KIND_WORDS.get(kind, kind.replace("_", " "))


def synthesis_result(debate: Debate) -> ResultView | None:
    """The debate's result as its protocol parts it, None while there is none."""
    result = debate_result(debate=debate)
    if result is None:
        return None
    protocol = get_protocol(debate.protocol)
    return ResultView(parts=protocol.result_parts(result),
                      passages=protocol.quote_passages(result))


def synthesis_claims(result: ResultView | None) -> list[ResultPart]:
    """The verifier's claims to check (ref V1, V2 ...; text the quote)."""
    return result.of_kind(TargetKind.CLAIM) if result is not None else []


def item_text(result: ResultView | None, kind: str, ref: str) -> str:
    """The text of part ``ref`` of kind ``kind`` (a risk's, a claim's quote ...); "" if
    none."""
    part = result.part(kind, ref) if result is not None else None
    return part.text if part is not None else ""


def _kind_in_words(kind: str) -> str:
    try:
        return ui(f"site.kind.{kind}")
    except KeyError:  # a plugin's kind of part: its name
        return kind.replace("_", " ")


def target_label(comment: Comment | Action, result: ResultView | None) -> str:
    """What a thread (or an action) is about, in words in the request's language, e.g.
    'On risk R2 ("Vendor lock-in")'."""
    kind, ref = comment.target_kind, comment.target_ref
    if kind == TargetKind.QUOTE and isinstance(comment, Comment):
        return ui("site.target.passage", quote=" ".join(comment.quote.split()))
    if result is None or kind == TargetKind.SYNTHESIS:
        return ui("site.target.synthesis")
    if kind == TargetKind.RECOMMENDATION:
        if ref and ref != "recommendation":
            return ui("site.target.recommendation_part", part=ref.replace("_", " "))
        return ui("site.target.recommendation")
    text = " ".join(item_text(result, kind, ref).split())
    if kind == TargetKind.DISAGREEMENT:
        return (ui("site.target.disagreement", text=text) if text
                else ui("site.target.a_disagreement"))
    words = _kind_in_words(kind)
    return (ui("site.target.item", kind=words, ref=ref, text=text) if text
            else ui("site.target.item_bare", kind=words, ref=ref))


# ------------------------------------------------------------------ the quotable text


def _as_text(text: object, how: str) -> str:
    if how == "plain":
        return str(text)
    rendered = render_untrusted(text, inline=how == "inline")
    return html.unescape(nh3.clean(str(rendered), tags=set()))


def synthesis_text(result: ResultView | None) -> str:
    """The text a reader sees in the synthesis's passages, whitespace runs as one
    space: what a quote is checked against and its offset counts in. The page's script
    (static/js/comments.js) builds the same string from the rendered passages."""
    if result is None:
        return ""
    return " ".join(" ".join(_as_text(t, how) for t, how in result.passages).split())


def normalize_quote(quote: str) -> str:
    return " ".join(quote.split())


def quote_starts(text: str, quote: str) -> list[int]:
    """Where ``quote`` starts in ``text``, every occurrence."""
    starts, at = [], text.find(quote) if quote else -1
    while at >= 0:
        starts.append(at)
        at = text.find(quote, at + 1)
    return starts


def nearest(starts: list[int], offset: int | None) -> int:
    """The index (in ``starts``) of the occurrence closest to ``offset``."""
    return min(range(len(starts)), key=lambda i: abs(starts[i] - (offset or 0)))


# ------------------------------------------------------------------------------ threads


@dataclass
class Thread:
    root: Comment
    label: str
    replies: list[Comment] = field(default_factory=list)
    # For a quote: which occurrence of the quote in today's synthesis text it is on
    # (the page's script anchors it there), or None when the quote is no longer in
    # the text: the thread was on an earlier version.
    occurrence: int | None = None

    @property
    def on_earlier_version(self) -> bool:
        return self.root.target_kind == TargetKind.QUOTE and self.occurrence is None


def _anchor(root: Comment, text: str) -> int | None:
    if root.target_kind != TargetKind.QUOTE or not root.quote:
        return None
    starts = quote_starts(text, normalize_quote(root.quote))
    return nearest(starts, root.quote_offset) if starts else None


def debate_threads(*, debate: Debate) -> list[Thread]:
    """Open threads first, then resolved ones; each oldest first with its replies."""
    replies = (Comment.objects.select_related("author", "hidden_by")
               .prefetch_related("mentions__user").order_by("created_at", "id"))
    roots = (
        Comment.objects.filter(debate=debate, parent__isnull=True)
        .select_related("author", "resolved_by", "hidden_by")
        .prefetch_related(Prefetch("replies", queryset=replies), "mentions__user")
        .order_by("created_at", "id")
    )
    result = synthesis_result(debate)
    text = synthesis_text(result)
    threads = [Thread(root, target_label(root, result), list(root.replies.all()),
                      _anchor(root, text)) for root in roots]
    return sorted(threads, key=lambda t: t.root.is_resolved)


def comment_history(*, comment: Comment) -> list[CommentRevision]:
    """Earlier texts of ``comment``, newest first."""
    return list(comment.revisions.all())


def moderation_log(*, debate: Debate) -> QuerySet[CommentModeration]:
    return CommentModeration.objects.filter(debate=debate).select_related(
        "moderator", "comment_author", "comment")


def debate_comment(*, debate: Debate, code: uuid.UUID) -> Comment | None:
    return Comment.objects.select_related("author", "debate__team").filter(
        debate=debate, code=code
    ).first()


def user_mentions(*, user: User) -> QuerySet[Mention]:
    """Mentions of ``user`` in live comments of debates of teams they still belong to."""
    return (
        Mention.objects.filter(
            user=user, comment__deleted_at__isnull=True, comment__hidden_at__isnull=True,
            comment__debate__team__memberships__user=user,
        )
        .select_related("comment__author", "comment__debate")
        .distinct()
    )


@dataclass
class FollowUp:
    """What the team did with a synthesis: comment counts per part, actions and
    checked claims, for the synthesis page and the exports."""

    comment_counts: dict[tuple[str, str], int]
    actions: list[Action]
    checks: dict[str, ClaimCheck]

    def count(self, kind: str, ref: object) -> int:
        return self.comment_counts.get((kind, str(ref)), 0)

    def actions_on(self, kind: str, ref: object) -> list[Action]:
        return [a for a in self.actions if a.target_kind == kind and a.target_ref == str(ref)]


def synthesis_follow_up(*, debate: Debate) -> FollowUp:
    """Three queries, whatever the size of the synthesis."""
    rows = (Comment.objects.filter(debate=debate, deleted_at__isnull=True,
                                   hidden_at__isnull=True)
            .exclude(target_kind=TargetKind.QUOTE)
            .values("target_kind", "target_ref").annotate(n=Count("id")))
    return FollowUp(
        comment_counts={(r["target_kind"], r["target_ref"]): r["n"] for r in rows},
        actions=list(Action.objects.filter(debate=debate).select_related("owner", "done_by")),
        checks={c.claim_ref: c for c in
                ClaimCheck.objects.filter(debate=debate).select_related("checked_by")},
    )


def debate_action(*, debate: Debate, code: uuid.UUID) -> Action | None:
    return Action.objects.select_related("owner", "debate__team").filter(
        debate=debate, code=code).first()


def team_members(*, debate: Debate) -> QuerySet[User]:
    """Everyone in ``debate``'s team, by username: who a comment can @-mention."""
    return User.objects.filter(memberships__team_id=debate.team_id,
                               is_active=True).distinct().order_by("username")


def action_owners(*, debate: Debate) -> QuerySet[User]:
    """Who may own an action on ``debate``: its team's editors and owners (only they can
    mark it done; a viewer could never complete it), by username."""
    # One filter() call: the role must be that of the membership in this team.
    return User.objects.filter(memberships__team_id=debate.team_id,
                               memberships__role__in=WRITE_ROLES,
                               is_active=True).distinct().order_by("username")
