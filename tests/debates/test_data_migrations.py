"""The debates app's data migrations, each applied to a row of the old shape (the
migration's function called with the app registry, whose models match the migration's
for the columns it touches)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from debates import selectors
from debates.models import Debate, EarlierSynthesis, Synthesis, result_text
from tests.factories import synthesis_result

pytestmark = pytest.mark.django_db


def migration(name: str):
    return importlib.import_module(f"debates.migrations.{name}")


def _before_the_checks() -> dict:
    """A result as stored before the content checks: no quality pair."""
    result = synthesis_result()
    del result["quality"], result["quality_reasons"]
    return result


def test_0013_gives_results_stored_before_the_checks_their_quality(team):
    debate = Debate.objects.create(team=team, question="Kafka or SQS?", settings={})
    old = _before_the_checks()
    Synthesis.objects.create(debate=debate, result=old)
    EarlierSynthesis.objects.create(debate=debate, result=old, rounds_completed=1,
                                    created_at=debate.created_at)
    checked = Debate.objects.create(team=team, question="Checked?", settings={})
    doubtful = {**synthesis_result(), "quality": "doubtful", "quality_reasons": [
        {"rule": "echo", "severity": "doubtful", "where": "w", "evidence": "e"}]}
    Synthesis.objects.create(debate=checked, result=doubtful)

    migration("0013_results_say_their_quality").results_say_their_quality(apps, None)

    stored = Synthesis.objects.get(debate=debate)
    assert list(stored.result) == [*old, "quality", "quality_reasons"]
    assert (stored.result["quality"], stored.result["quality_reasons"]) == ("sound", [])
    # The search text is what saving the result now would write.
    assert stored.search_text == result_text(stored.result)
    assert EarlierSynthesis.objects.get(debate=debate).result["quality"] == "sound"
    # The lists and the status poll read it from the row, without a branch of their own.
    assert selectors.debate_quality(debate=Debate.objects.get(pk=debate.pk)) == ("sound", [])
    assert selectors.with_quality(Debate.objects.filter(pk=debate.pk)).get().quality == "sound"
    # A result that has its quality keeps it.
    assert Synthesis.objects.get(debate=checked).result == doubtful
