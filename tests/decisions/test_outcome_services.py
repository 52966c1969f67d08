"""Recording what a review found: the right option, how it went, "can't tell yet"
(which puts the review off), and the refusals that save nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from decisions.models import Decision, Outcome
from decisions.outcomes import OutcomeError, outcome_record
from decisions.selectors import decision_state
from decisions.services import decision_record


@pytest.fixture
def decided(debate, owner):
    return decision_record(debate=debate, user=owner, option="Stay", rationale="Too risky.")


def test_an_outcome_marks_the_decision_reviewed(debate, decided, member):
    outcome = outcome_record(debate=debate, user=member, right_option="migrate in q3",
                             result="mixed", notes="Q3 slipped to Q4.")
    assert (outcome.right_option, outcome.result, outcome.notes) == (
        "Migrate in Q3", "mixed", "Q3 slipped to Q4.")  # spelled as the debate spells it
    assert outcome.recorded_by == member and outcome.can_tell
    decided.refresh_from_db()
    assert decision_state(decided) == "reviewed"


def test_cant_tell_yet_puts_the_review_off(debate, decided, owner):
    due = timezone.localdate()
    Decision.objects.filter(pk=decided.pk).update(review_on=due)
    assert decision_state(Decision.objects.get(pk=decided.pk)) == "review_due"
    outcome = outcome_record(debate=debate, user=owner, right_option=None,
                             notes="The pilot has not ended.")
    decided.refresh_from_db()
    assert not outcome.can_tell and outcome.review_again_on == due + timedelta(days=90)
    assert decided.review_on == due + timedelta(days=90)
    assert decision_state(decided) == "decided"


def test_cant_tell_yet_with_a_chosen_date_reopens_a_reviewed_decision(debate, decided, owner):
    outcome_record(debate=debate, user=owner, right_option="Stay", result="worked")
    later = timezone.localdate() + timedelta(days=14)
    outcome_record(debate=debate, user=owner, right_option="", review_again_on=later)
    decided.refresh_from_db()
    assert (decided.review_on, decision_state(decided)) == (later, "decided")


@pytest.mark.parametrize("kwargs, message", [
    ({"right_option": "Rewrite it in Rust", "result": "worked"},
     "'Rewrite it in Rust' is not one of this debate's options (Migrate now, "
     "Migrate in Q3, Stay)"),
    ({"right_option": "Stay", "result": ""}, "Say how it went"),
    ({"right_option": "Stay", "result": "great"}, "'great' is not a result"),
    ({"right_option": "Stay", "result": "worked", "notes": "x" * 10_001},
     "at most 10,000 characters"),
    ({"right_option": None, "review_again_on": "today"}, "is not in the future"),
    ({"right_option": "Stay", "result": "worked", "review_again_on": "tomorrow"},
     "goes with \"can't tell yet\" only"),
])
def test_bad_outcomes_are_refused_and_nothing_is_saved(debate, decided, owner, kwargs, message):
    days = {"today": 0, "tomorrow": 1}
    if "review_again_on" in kwargs:
        kwargs["review_again_on"] = timezone.localdate() + timedelta(
            days=days[kwargs["review_again_on"]])
    with pytest.raises(OutcomeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        outcome_record(debate=debate, user=owner, **kwargs)
    assert Outcome.objects.count() == 0
    decided.refresh_from_db()
    assert decided.reviewed_at is None


def test_an_outcome_needs_a_decision(debate, owner):
    with pytest.raises(OutcomeError, match="no decision yet"):
        outcome_record(debate=debate, user=owner, right_option="Stay", result="worked")
    assert Outcome.objects.count() == 0
