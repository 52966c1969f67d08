"""Writes on outcomes: what a review found about a decision.

A separate module from ``decisions.services`` (which records decisions) because an
outcome has its own rules: it needs a decision, its right option must be one of the
debate's options (that is what calibration scores), and "can't tell yet" puts the
review off instead of closing it. Every refusal is an ``OutcomeError`` meant for the
user; nothing is saved when one is raised.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.services import record
from debates.models import Debate
from debates.selectors import debate_options
from decisions import signals
from decisions.models import Decision, Outcome, OutcomeResult
from view_kit.site_words import ui

MAX_NOTES = 10_000
# "Can't tell yet" looks again this much later unless the reviewer picks a date.
LOOK_AGAIN_AFTER_DAYS = 90


class OutcomeError(ValueError):
    """A refused outcome; the message is meant for the user. ``field`` names the
    outcome's input at fault when one is (the API's ``errors`` key)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _right_option(debate: Debate, right_option: str) -> str:
    """The option spelled as the debate spells it."""
    wanted = " ".join(right_option.split())
    options = debate_options(debate)
    for known in options:
        if known.casefold() == wanted.casefold():
            return known
    listed = ", ".join(options) or "none"
    raise OutcomeError(
        f"{right_option!r} is not one of this debate's options ({listed}); pick the one "
        "that proved right, or \"can't tell yet\".", field="right_option")


def _result(result: str, *, required: bool) -> str:
    if not result:
        if required:
            raise OutcomeError(ui("site.decisions.error.result_missing"), field="result")
        return ""
    if result not in OutcomeResult.values:
        raise OutcomeError(f"{result!r} is not a result; use worked, mixed or failed.",
                           field="result")
    return result


def _look_again_on(review_again_on: date | None) -> date:
    today = timezone.localdate()
    if review_again_on is None:
        return today + timedelta(days=LOOK_AGAIN_AFTER_DAYS)
    if review_again_on <= today:
        raise OutcomeError(ui("site.decisions.error.review_past",
                              date=f"{review_again_on:%Y-%m-%d}"), field="review_again_on")
    return review_again_on


@transaction.atomic
def outcome_record(
    *,
    debate: Debate,
    user: User,
    right_option: str | None,
    result: str = "",
    notes: str = "",
    review_again_on: date | None = None,
) -> Outcome:
    """Records a review of the decision on ``debate``: ``right_option`` is the option
    that proved right, or ``None`` for "can't tell yet", which moves the decision's
    review to ``review_again_on`` (default: 90 days on) and leaves it unreviewed.
    ``result`` (worked, mixed, failed) is required with a right option. Every review
    stays; the latest one is what counts (calibration scores it when it names a right
    option). The caller checked that
    ``user`` may write the debate."""
    decision = Decision.objects.select_for_update().filter(debate=debate).first()
    if decision is None:
        raise OutcomeError(ui("site.decisions.no_decision"))
    notes = (notes or "").strip()
    if len(notes) > MAX_NOTES:
        raise OutcomeError(f"The notes can be at most {MAX_NOTES:,} characters.",
                           field="notes")
    now = timezone.now()
    if right_option is None or not right_option.strip():
        clean_result = _result(result, required=False)
        again = _look_again_on(review_again_on)
        outcome = Outcome.objects.create(
            decision=decision, right_option="", result=clean_result, notes=notes,
            review_again_on=again, recorded_by=user, recorded_at=now)
        # The latest review speaks: a decision judged before and doubted now is open again.
        decision.review_on, decision.reviewed_at = again, None
        decision.save(update_fields=["review_on", "reviewed_at"])
        record("outcome.record", outcome, user=user, data={"result": outcome.result})
        signals.outcome_recorded.send(Outcome, outcome=outcome)
        return outcome
    option = _right_option(debate, right_option)
    clean_result = _result(result, required=True)
    if review_again_on is not None:
        raise OutcomeError(ui("site.decisions.error.again_only_cant_tell"),
                           field="review_again_on")
    outcome = Outcome.objects.create(
        decision=decision, right_option=option, result=clean_result, notes=notes,
        recorded_by=user, recorded_at=now)
    decision.reviewed_at = now
    decision.save(update_fields=["reviewed_at"])
    record("outcome.record", outcome, user=user, data={"result": outcome.result})
    signals.outcome_recorded.send(Outcome, outcome=outcome)
    return outcome
