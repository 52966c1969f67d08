"""Writes on comments: threads, replies, edits, soft deletes, resolution, mentions,
and carrying annotations into a re-run as objections."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from datetime import date

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from accounts.models import Membership
from audit.services import record
from collab import signals
from collab.models import (
    ACTION_TARGETS,
    Action,
    ActionStatus,
    ClaimCheck,
    Comment,
    CommentModeration,
    CommentRevision,
    Mention,
    ModerationAction,
    TargetKind,
)
from collab.selectors import (
    ResultView,
    action_owners,
    item_text,
    kind_words,
    nearest,
    normalize_quote,
    quote_starts,
    synthesis_claims,
    synthesis_result,
    synthesis_text,
    target_label,
)
from debates.models import Debate
from debates.services import debate_rerun
from debates.web.forms import MAX_CONTEXT_CHARS

MAX_BODY = 10_000
MAX_TITLE = 300
MAX_NOTE = 2_000
MAX_QUOTE = 2_000
# A position in the synthesis text; no rendered synthesis comes near a million characters,
# and a bound keeps a hostile number from overflowing the integer column (OverflowError).
MAX_QUOTE_OFFSET = 1_000_000
# Django usernames may hold letters, digits and @ . + - _; a mention starts at an @
# that does not follow such a character (so e-mail addresses are not mentions).
MENTION_RE = re.compile(r"(?<![\w.@+-])@([\w.@+-]+)")


class CommentError(ValueError):
    """A refused comment; the message is meant for the user. ``field`` names the
    comment's input at fault when there is one, as the API's comment body names it (its
    ``errors`` key: docs/api.md, "Errors")."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class NotYourComment(PermissionDenied):
    """Only a comment's author may edit it; only its author or a team owner may delete
    it, and only an owner may hide it."""


def _clean_body(body: str) -> str:
    body = body.strip()
    if not body:
        raise CommentError("A comment cannot be empty.", field="body")
    if len(body) > MAX_BODY:
        raise CommentError(f"A comment can be at most {MAX_BODY:,} characters.", field="body")
    return body


def _clean_target(
    debate: Debate, kind: str, ref: str, quote: str, offset: int | None
) -> tuple[str, str, str, int | None]:
    ref, quote = ref.strip(), quote.strip()
    if kind == TargetKind.SYNTHESIS:
        return kind, "", "", None
    result = synthesis_result(debate)
    kinds = [TargetKind.SYNTHESIS.value, TargetKind.QUOTE.value,
             *dict.fromkeys(p.kind for p in (result.parts if result else []))]
    if kind not in kinds and kind not in TargetKind.values:
        raise CommentError(f"Unknown target {kind!r}; expected one of {', '.join(kinds)}.",
                           field="target_kind")
    if result is None:
        raise CommentError("This debate has no synthesis yet: comment on the debate as a whole.",
                           field="target_kind")
    if kind == TargetKind.QUOTE:
        # A quote: the passage itself identifies the target; the offset says which
        # occurrence when it appears more than once.
        return kind, "", *_clean_quote(result, quote, offset)
    return kind, _part_ref(result, kind, ref), "", None


def _part_ref(result: ResultView, kind: str, ref: str) -> str:
    """``ref`` as the result names one of its parts of ``kind`` (a disagreement's index
    without leading zeros; the recommendation as a whole when no part of it is named)."""
    parts = result.of_kind(kind)
    if kind == TargetKind.RECOMMENDATION:
        if not parts:
            raise CommentError("This synthesis has no recommendation.", field="target_kind")
        ref = ref or "recommendation"
        if result.part(kind, ref) is None:
            raise CommentError(f"Unknown part {ref!r} of the recommendation.",
                               field="target_ref")
        return ref
    if kind == TargetKind.DISAGREEMENT and ref.isdigit():
        ref = str(int(ref))
    if result.part(kind, ref) is None:
        if kind == TargetKind.DISAGREEMENT:
            raise CommentError(f"The synthesis has {len(parts)} disagreement(s); {ref!r} "
                               "is not one of them.", field="target_ref")
        known = ", ".join(p.ref for p in parts) or "none"
        raise CommentError(f"The synthesis has no {kind_words(kind)} {ref!r} "
                           f"(it has: {known}).", field="target_ref")
    return ref


def _clean_quote(result: ResultView, quote: str, offset: int | None
                 ) -> tuple[str, int | None]:
    """The quote as the synthesis has it, and where it starts (the occurrence nearest
    ``offset``); refused when the synthesis does not contain it."""
    quote = normalize_quote(quote)
    if not quote:
        raise CommentError("Select the passage you are annotating.", field="quote")
    if len(quote) > MAX_QUOTE:
        raise CommentError(f"A quoted passage can be at most {MAX_QUOTE:,} characters.",
                           field="quote")
    if offset is not None and not 0 <= offset <= MAX_QUOTE_OFFSET:
        raise CommentError(f"The quote's offset must be between 0 and {MAX_QUOTE_OFFSET:,}.",
                           field="quote_offset")
    starts = quote_starts(synthesis_text(result), quote)
    if not starts:
        raise CommentError("The quoted passage is not in the synthesis: select the text "
                           "in the synthesis itself (it may have changed since you copied it).",
                           field="quote")
    return quote, starts[nearest(starts, offset)]


def _check_claim(result: ResultView, ref: str) -> None:
    ids = [p.ref for p in synthesis_claims(result)]
    if ref not in ids:
        known = ", ".join(ids) or "none"
        raise CommentError(f"The synthesis has no claim to verify {ref!r} (it has: {known}).")


def _sync_mentions(comment: Comment) -> None:
    """Mentions are the @usernames in the body that belong to the debate's team;
    anything else stays plain text."""
    names = set()
    for raw in MENTION_RE.findall(comment.body):
        names.update({raw, raw.rstrip(".,;:!?")})
    users = (
        User.objects.filter(username__in=names, memberships__team_id=comment.debate.team_id)
        .exclude(pk__in=[comment.author_id]).distinct()
        if names and not comment.is_deleted else User.objects.none()
    )
    Mention.objects.filter(comment=comment).exclude(user__in=users).delete()
    existing = set(Mention.objects.filter(comment=comment).values_list("user_id", flat=True))
    added = Mention.objects.bulk_create(
        [Mention(comment=comment, user=u) for u in users if u.pk not in existing]
    )
    signals.mentions_added.send(Comment, comment=comment, user_ids=[m.user_id for m in added])


@transaction.atomic
def comment_create(
    *,
    debate: Debate,
    author: User,
    body: str,
    target_kind: str = TargetKind.SYNTHESIS,
    target_ref: str = "",
    quote: str = "",
    quote_offset: int | None = None,
    parent: Comment | None = None,
) -> Comment:
    """A new thread on (a part of) the synthesis, or a reply when ``parent`` is given
    (a reply to a reply joins the same thread)."""
    body = _clean_body(body)
    if parent is not None:
        if parent.debate_id != debate.pk:
            raise CommentError("A reply must be on the same debate.", field="parent")
        thread = parent.parent or parent
        comment = Comment.objects.create(debate=debate, author=author, parent=thread, body=body,
                                         target_kind=thread.target_kind,
                                         target_ref=thread.target_ref)
    else:
        kind, ref, quote, offset = _clean_target(debate, target_kind, target_ref, quote,
                                                 quote_offset)
        comment = Comment.objects.create(debate=debate, author=author, body=body,
                                         target_kind=kind, target_ref=ref, quote=quote,
                                         quote_offset=offset)
    _sync_mentions(comment)
    record("comment.create", comment, user=author)
    signals.comment_posted.send(Comment, comment=comment)
    return comment


def _own(comment: Comment, user: User) -> None:
    if comment.author_id != user.pk:
        raise NotYourComment("You can only change your own comments.")
    if comment.is_deleted:
        raise CommentError("This comment was deleted.")


def is_team_owner(*, user: User, debate: Debate) -> bool:
    return Membership.objects.filter(team_id=debate.team_id, user_id=user.pk,
                                     role=Membership.Role.OWNER).exists()


def may_moderate(*, comment: Comment, user: User) -> bool:
    """Owners moderate the comments of others on their team's debates."""
    return comment.author_id != user.pk and is_team_owner(user=user, debate=comment.debate)


@transaction.atomic
def comment_edit(*, comment: Comment, user: User, body: str) -> Comment:
    """The author's new text; the text it replaces is kept as a revision."""
    _own(comment, user)
    body = _clean_body(body)
    if body == comment.body:
        return comment
    CommentRevision.objects.create(comment=comment, body=comment.body,
                                   written_at=comment.edited_at or comment.created_at)
    comment.body = body
    comment.edited_at = timezone.now()
    comment.save(update_fields=["body", "edited_at"])
    _sync_mentions(comment)
    record("comment.edit", comment, user=user)
    return comment


def _log(comment: Comment, user: User, action: str) -> None:
    CommentModeration.objects.create(comment=comment, debate_id=comment.debate_id,
                                     moderator=user, comment_author_id=comment.author_id,
                                     action=action)


@transaction.atomic
def comment_delete(*, comment: Comment, user: User) -> Comment:
    """A soft delete: the comment stays in its thread as "deleted", its text and its
    earlier versions go. Its author may delete it, and so may a team owner (logged)."""
    if comment.is_deleted:
        raise CommentError("This comment was deleted.")
    moderated = may_moderate(comment=comment, user=user)
    if not moderated:
        _own(comment, user)
    comment.body = ""
    comment.deleted_at = timezone.now()
    comment.save(update_fields=["body", "deleted_at"])
    Mention.objects.filter(comment=comment).delete()
    CommentRevision.objects.filter(comment=comment).delete()
    if moderated:
        _log(comment, user, ModerationAction.DELETE)
    record("comment.delete", comment, user=user, data={"moderated": moderated})
    return comment


@transaction.atomic
def comment_set_hidden(*, comment: Comment, user: User, hidden: bool) -> Comment:
    """An owner hides someone else's comment from the team (its text stays for owners)
    or shows it again; each is logged."""
    if not may_moderate(comment=comment, user=user):
        raise NotYourComment("Only team owners can hide or show others' comments.")
    if comment.is_deleted:
        raise CommentError("This comment was deleted.")
    if comment.is_hidden == hidden:
        return comment
    comment.hidden_at = timezone.now() if hidden else None
    comment.hidden_by = user if hidden else None
    comment.save(update_fields=["hidden_at", "hidden_by"])
    _log(comment, user, ModerationAction.HIDE if hidden else ModerationAction.SHOW)
    record("comment.hide" if hidden else "comment.show", comment, user=user)
    return comment


@transaction.atomic
def thread_set_resolved(*, comment: Comment, user: User, resolved: bool) -> Comment:
    """Resolves or reopens the whole thread ``comment`` belongs to."""
    thread = comment.parent or comment
    thread.resolved_at = timezone.now() if resolved else None
    thread.resolved_by = user if resolved else None
    thread.save(update_fields=["resolved_at", "resolved_by"])
    record("comment.resolve" if resolved else "comment.reopen", thread, user=user)
    return thread


def _as_uuid(value: object) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def objections_for_rerun(*, debate: Debate, comment_codes: Sequence[object]) -> str:
    """The text a re-run adds to its context so the new council answers these comments."""
    codes = list(dict.fromkeys(str(_as_uuid(c) or c) for c in comment_codes))
    if not codes:
        raise CommentError("Choose at least one comment to carry into the re-run.",
                           field="comments")
    valid = [u for u in map(_as_uuid, codes) if u is not None]
    found = Comment.objects.filter(debate=debate, code__in=valid, deleted_at__isnull=True,
                                   hidden_at__isnull=True)
    comments = {str(c.code): c for c in found}
    missing = [c for c in codes if c not in comments]
    if missing:
        raise CommentError(
            f"Not comments of this debate (or deleted or hidden): {', '.join(missing)}",
            field="comments")
    result = synthesis_result(debate)
    lines = ["Objections the council must address:"]
    for code in codes:
        comment = comments[code]
        body = " ".join(comment.body.split())
        lines.append(f"- {target_label(comment, result)}: {body}")
    return "\n".join(lines)


def debate_rerun_with_objections(
    *, debate: Debate, user: User, comment_codes: Sequence[object]
) -> Debate:
    """A re-run of ``debate`` whose context carries the chosen comments as objections.
    debate_create checks the limits first, so a refused re-run saves and queues nothing."""
    objections = objections_for_rerun(debate=debate, comment_codes=comment_codes)
    context = f"{debate.context}\n\n{objections}".strip()
    # The same limit the new-debate form applies: a re-run must not smuggle in more.
    if len(context) > MAX_CONTEXT_CHARS:
        raise CommentError(
            f"With these comments the context would be {len(context):,} characters; the "
            f"limit is {MAX_CONTEXT_CHARS:,}. Carry fewer or shorter comments.",
            field="comments")
    return debate_rerun(debate=debate, user=user, context=context)


# ------------------------------------------------------------------------ acting on it


def _clean_action_target(debate: Debate, kind: str, ref: str) -> tuple[str, str, str]:
    """(kind, ref, the item's text) of a risk or claim of the synthesis; a general
    action (the synthesis as a whole) has no ref and no item text."""
    ref = ref.strip()
    if kind not in ACTION_TARGETS:
        raise CommentError("An action is about the debate in general, a risk or a claim "
                           "to verify.")
    result = synthesis_result(debate)
    if result is None:
        raise CommentError("This debate has no synthesis to act on yet.")
    if kind == TargetKind.SYNTHESIS:
        return kind, "", ""
    if kind == TargetKind.CLAIM:
        _check_claim(result, ref)
    elif result.part(kind, ref) is None:
        known = ", ".join(p.ref for p in result.of_kind(kind)) or "none"
        raise CommentError(f"The synthesis has no risk {ref!r} (it has: {known}).")
    return kind, ref, item_text(result, kind, ref)


@transaction.atomic
def action_create(
    *,
    debate: Debate,
    user: User,
    target_kind: str,
    target_ref: str,
    owner: User,
    due_date: date,
    title: str = "",
) -> Action:
    """An action on ``debate``'s synthesis (a risk, a claim, or in general), owned by a
    member of its team and due on ``due_date`` (today or later). Without a title it is
    named after the item; a general action has none to be named after, so it needs one.
    The owner hears of it (``signals.action_assigned``) unless they made it."""
    kind, ref, text = _clean_action_target(debate, target_kind, target_ref)
    title = " ".join((title or "").split())
    if not title and kind == TargetKind.SYNTHESIS:
        raise CommentError("A general action needs a title: say what to do.")
    if not title:
        verb = "Verify" if kind == TargetKind.CLAIM else "Mitigate"
        title = f"{verb} {ref}: {' '.join(text.split())}"[:MAX_TITLE]
    if len(title) > MAX_TITLE:
        raise CommentError(f"An action's title can be at most {MAX_TITLE} characters.")
    if not User.objects.filter(pk=owner.pk, is_active=True,
                               memberships__team_id=debate.team_id).exists():
        raise CommentError("The owner must be a member of this debate's team.")
    if not action_owners(debate=debate).filter(pk=owner.pk).exists():
        raise CommentError("The owner must be an editor or owner of this debate's team: "
                           "viewers cannot complete an action.")
    if due_date < timezone.localdate():
        raise CommentError("The due date is in the past.")
    action = Action.objects.create(debate=debate, target_kind=kind, target_ref=ref,
                                   title=title, owner=owner, due_date=due_date,
                                   created_by=user)
    record("action.create", action, user=user, data={"owner": owner.get_username()})
    if owner.pk != user.pk:
        signals.action_assigned.send(Action, action=action)
    return action


@transaction.atomic
def action_set_done(*, action: Action, user: User, done: bool) -> Action:
    """Marks the action done (by ``user``, now) or open again."""
    action.status = ActionStatus.DONE if done else ActionStatus.OPEN
    action.done_at = timezone.now() if done else None
    action.done_by = user if done else None
    action.save(update_fields=["status", "done_at", "done_by"])
    record("action.done" if done else "action.reopen", action, user=user)
    return action


@transaction.atomic
def claim_set_checked(*, debate: Debate, user: User, claim_ref: str,
                      checked: bool, note: str = "") -> ClaimCheck | None:
    """Records that ``user`` checked claim ``claim_ref`` (V1 ...) and what they found;
    ``checked=False`` takes the mark back. Checking again replaces the note."""
    result = synthesis_result(debate)
    if result is None:
        raise CommentError("This debate has no synthesis yet.")
    ref = claim_ref.strip()
    _check_claim(result, ref)
    note = note.strip()
    if len(note) > MAX_NOTE:
        raise CommentError(f"A note can be at most {MAX_NOTE:,} characters.")
    if not checked:
        ClaimCheck.objects.filter(debate=debate, claim_ref=ref).delete()
        record("claim.uncheck", debate, user=user, kind="debate", data={"claim": ref})
        return None
    check, _ = ClaimCheck.objects.update_or_create(
        debate=debate, claim_ref=ref, defaults={"note": note, "checked_by": user})
    record("claim.check", debate, user=user, kind="debate", data={"claim": ref})
    return check
