"""Writes on decisions: recording (and changing) what the team decided on a debate.

Every refusal is a ``DecisionError`` whose message is meant for the user; nothing is
saved when one is raised.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Final

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import record
from debates.models import Debate
from debates.selectors import debate_options, debate_quality
from decisions import signals
from decisions.models import Decision, DecisionVersion, ResultQuality
from decisions.selectors import debate_is_finished

REVIEW_AFTER_DAYS = 90
MAX_RATIONALE = 10_000
MAX_CHOICE = 500


class _Default:
    def __repr__(self) -> str:
        return "DEFAULT_REVIEW"


# ``review_on`` left out: the default review date (90 days on). ``None``: no review.
DEFAULT_REVIEW: Final = _Default()


class DecisionError(ValueError):
    """A refused decision; the message is meant for the user. ``field`` names the
    decision's input at fault when one is (the API's ``errors`` key)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class QualityNotConfirmed(DecisionError):
    """A decision on a doubtful or unusable result without the caller's confirmation."""


def _result_quality(debate: Debate, *, confirmed: bool) -> str:
    """The result's quality, to store with the decision; a doubtful or unusable one
    needs ``confirmed`` (docs/teams.md, "Decide and follow through")."""
    quality, rules = debate_quality(debate=debate) or (ResultQuality.SOUND, [])
    if quality != ResultQuality.SOUND and not confirmed:
        fired = f" (the content checks: {', '.join(rules)})" if rules else ""
        raise QualityNotConfirmed(
            f"This debate's result is {quality}{fired}: it may carry no real content. "
            "Confirm that the team decides on it anyway (the form's \"Decide anyway\" box; "
            "API and MCP: confirm_quality=true).", field="confirm_quality")
    return str(quality)


def default_review_on(today: date | None = None) -> date:
    return (today or timezone.localdate()) + timedelta(days=REVIEW_AFTER_DAYS)


def _clean_choice(debate: Debate, option: str, choice: str) -> tuple[str, str]:
    """(option, choice): exactly one of them set, the option spelled as the debate's."""
    option, choice = " ".join((option or "").split()), " ".join((choice or "").split())
    if option and choice:
        raise DecisionError("Give one of the debate's options or another choice, not both.",
                            field="choice")
    if choice:
        if len(choice) > MAX_CHOICE:
            raise DecisionError(f"The choice can be at most {MAX_CHOICE} characters.",
                                field="choice")
        return "", choice
    options = debate_options(debate)
    listed = ", ".join(options) or "none"
    if not option:
        raise DecisionError(
            f"Choose one of the debate's options ({listed}) or describe another choice.",
            field="option")
    for known in options:
        if known.casefold() == option.casefold():
            return known, ""
    raise DecisionError(
        f"{option!r} is not one of this debate's options ({listed}); choose one of them "
        "or describe another choice in words.", field="option")


def _clean_rationale(rationale: str) -> str:
    rationale = (rationale or "").strip()
    if not rationale:
        raise DecisionError("Say why the team decided this (the rationale).", field="rationale")
    if len(rationale) > MAX_RATIONALE:
        raise DecisionError(f"The rationale can be at most {MAX_RATIONALE:,} characters.",
                            field="rationale")
    return rationale


def clean_review_on(review_on: date | None | _Default, *, kept: date | None) -> date | None:
    """The review date; a past one is refused unless it is the date the decision
    already has (``kept``): changing a decision whose review is due keeps it due. The
    form asks too, so the refusal shows beside its field."""
    if isinstance(review_on, _Default):
        return default_review_on()
    if review_on is not None and review_on < timezone.localdate() and review_on != kept:
        raise DecisionError(
            f"The review date {review_on:%Y-%m-%d} is in the past; pick today or later, "
            "or no review.", field="review_on")
    return review_on


@transaction.atomic
def decision_record(
    *,
    debate: Debate,
    user: User,
    option: str = "",
    choice: str = "",
    rationale: str,
    review_on: date | None | _Default = DEFAULT_REVIEW,
    confirm_quality: bool = False,
) -> Decision:
    """Records ``user``'s team's decision on a finished ``debate``: one of its options
    (``option``) or another choice in words (``choice``), why, and when to review it
    (90 days on unless given; ``None`` for no review). Recording again changes the
    decision and keeps the earlier version readable. The caller checked that ``user``
    may write the debate. On a doubtful or unusable result it needs ``confirm_quality``
    and stores that quality with the decision."""
    if not debate_is_finished(debate):
        raise DecisionError(
            "This debate has not finished: the team can decide once it has a result.")
    option, choice = _clean_choice(debate, option, choice)
    rationale = _clean_rationale(rationale)
    quality = _result_quality(debate, confirmed=confirm_quality)
    decision = Decision.objects.select_for_update().filter(debate=debate).first()
    review = clean_review_on(review_on, kept=decision.review_on if decision else None)
    now = timezone.now()
    if decision is None:
        decision = Decision.objects.create(
            debate=debate, option=option, choice=choice, rationale=rationale,
            decided_by=user, decided_at=now, review_on=review, version=1,
            result_quality=quality)
    elif (decision.option, decision.choice, decision.rationale, decision.review_on) == (
            option, choice, rationale, review):
        return decision  # nothing changed: no new version
    else:
        decision.option, decision.choice, decision.rationale = option, choice, rationale
        decision.review_on, decision.decided_by, decision.decided_at = review, user, now
        decision.version += 1
        decision.result_quality = quality
        decision.save()
    DecisionVersion.objects.create(
        decision=decision, version=decision.version, option=option, choice=choice,
        rationale=rationale, decided_by=user, decided_at=now, review_on=review)
    record("decision.record", decision, user=user, data={"version": decision.version})
    signals.decision_recorded.send(Decision, decision=decision)
    return decision
