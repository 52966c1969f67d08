"""Recording the team's decision on a finished debate: options or another choice,
rationale, review date (90 days by default, none allowed), versions, refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from debates.selectors import debate_options
from decisions.models import Decision, DecisionVersion
from decisions.selectors import decision_state, decision_versions
from decisions.services import DecisionError, decision_record
from tests.factories import make_debate


def test_a_decision_on_one_of_the_options_with_the_default_review(debate, owner):
    decision = decision_record(debate=debate, user=owner, option="migrate in q3",
                               rationale="Cheaper after the freeze.")
    assert decision.option == "Migrate in Q3"  # spelled as the debate spells it
    assert decision.choice == "" and decision.label == "Migrate in Q3"
    assert decision.decided_by == owner and decision.version == 1
    assert decision.review_on == timezone.localdate() + timedelta(days=90)
    assert decision_state(decision) == "decided"


def test_another_choice_in_words_and_no_review(debate, owner):
    decision = decision_record(debate=debate, user=owner, choice="Split the service first",
                               rationale="Neither option fits.", review_on=None)
    assert (decision.option, decision.label, decision.review_on) == (
        "", "Split the service first", None)


def test_changing_a_decision_keeps_the_earlier_version(debate, owner, member):
    decision_record(debate=debate, user=owner, option="Stay", rationale="Too risky.")
    later = timezone.localdate() + timedelta(days=10)
    decision = decision_record(debate=debate, user=member, option="Migrate now",
                               rationale="The vendor dropped the price.", review_on=later)
    assert Decision.objects.count() == 1
    assert (decision.version, decision.option, decision.decided_by) == (2, "Migrate now", member)
    versions = decision_versions(decision=decision)
    assert [(v.version, v.option, v.rationale, v.decided_by) for v in versions] == [
        (2, "Migrate now", "The vendor dropped the price.", member),
        (1, "Stay", "Too risky.", owner)]
    # Recording the same thing again adds no version.
    decision_record(debate=debate, user=member, option="Migrate now",
                    rationale="The vendor dropped the price.", review_on=later)
    assert DecisionVersion.objects.count() == 2


@pytest.mark.parametrize("kwargs, message", [
    ({"option": "Rewrite it in Rust"}, "'Rewrite it in Rust' is not one of this debate's "
                                      r"options \(Migrate now, Migrate in Q3, Stay\)"),
    ({}, "Choose one of the debate's options"),
    ({"option": "Stay", "choice": "Something else"}, "not both"),
    ({"option": "Stay", "review_on": timezone.localdate() - timedelta(days=1)},
     "is in the past"),
    ({"option": "Stay", "rationale": "  "}, "rationale"),
])
def test_bad_input_is_refused_and_nothing_saved(debate, owner, kwargs, message):
    kwargs = {"rationale": "Because.", **kwargs}
    with pytest.raises(DecisionError, match=message):
        decision_record(debate=debate, user=owner, **kwargs)
    assert not Decision.objects.exists() and not DecisionVersion.objects.exists()


@pytest.mark.parametrize("status", ["queued", "running", "failed", "cancelled"])
def test_no_decision_on_an_unfinished_debate(team, owner, status):
    debate = make_debate(team, owner)
    debate.status = status
    debate.save()
    with pytest.raises(DecisionError, match="has not finished"):
        decision_record(debate=debate, user=owner, option="yes", rationale="r")
    assert not Decision.objects.exists()


def test_options_come_from_the_engine_when_the_result_has_none(team, owner):
    debate = make_debate(team, owner, options=["Buy", "Build"])
    assert debate_options(debate) == ["Buy", "Build"]


def test_review_due_once_its_date_came(debate, owner):
    today = timezone.localdate()
    decision = decision_record(debate=debate, user=owner, option="Stay", rationale="r",
                               review_on=today)
    assert decision_state(decision, today=today) == "review_due"
    assert decision_state(decision, today=today - timedelta(days=1)) == "decided"
    decision.reviewed_at = timezone.now()
    assert decision_state(decision, today=today) == "reviewed"


@pytest.mark.parametrize("protocol", ["adversarial", "workflow"])
def test_a_decision_on_a_finished_debate_of_any_protocol(team, owner, protocol, monkeypatch):
    from debates.runtime.execution import run_to_completion

    monkeypatch.setenv("COUNCIL_SIM_LATENCY_MS", "0")
    debate = make_debate(team, owner, protocol=protocol)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    options = debate_options(debate)
    assert options, protocol
    decision = decision_record(debate=debate, user=owner, option=options[-1], rationale="r")
    assert decision.option == options[-1]


def test_a_due_decision_can_change_keeping_its_past_review_date(debate, owner):
    """The form offers the decision as it stands: a review date that has since passed
    is the decision's own, not a new date in the past."""
    decision = decision_record(debate=debate, user=owner, option="Stay", rationale="r")
    past = timezone.localdate() - timedelta(days=3)
    Decision.objects.filter(pk=decision.pk).update(review_on=past)
    changed = decision_record(debate=debate, user=owner, option="Stay",
                              rationale="Still too risky.", review_on=past)
    assert (changed.version, changed.review_on) == (2, past)
    with pytest.raises(DecisionError, match="is in the past"):
        decision_record(debate=debate, user=owner, option="Stay", rationale="r2",
                        review_on=past - timedelta(days=1))
    assert Decision.objects.get().version == 2
