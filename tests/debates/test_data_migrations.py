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


def test_0014_gives_turns_stored_before_the_column_the_passages_they_were_shown():
    """What the engine showed each turn, rebuilt from its request as the step runner
    built it: the same passages a turn records today, so the evidence is unchanged."""
    from debates.engine import get_protocol
    from tests.engine.sources.helpers import run, sources

    offered_again = migration("0014_turns_say_what_they_were_shown").offered_again
    for protocol in ("council", "adversarial", "workflow"):
        state, result = run(protocol, sources(), mode="quick")
        recorded = {k: list(t.offered) for k, t in state.turns.items() if t.offered}
        assert recorded, protocol
        for turn in state.turns.values():
            turn.offered = []
        assert offered_again(state) == recorded, protocol
        again = get_protocol(protocol).build_result(state, result.usage)
        assert again.evidence == result.evidence, protocol


def test_0014_writes_them_into_the_rows_of_a_debate_with_sources(team, monkeypatch):
    from debates.engine import DebateState
    from debates.models import Turn
    from debates.runtime import state_rows
    from tests.engine.sources.helpers import run, sources

    state, _ = run("council", sources(), mode="quick")
    debate = Debate.objects.create(team=team, question=state.question,
                                   settings=state.config.model_dump(mode="json"))
    for turn in state.turns.values():
        Turn.objects.create(debate=debate, phase=turn.phase.value, round=turn.round,
                            agent_index=turn.agent, status=turn.status.value,
                            payload=turn.payload, compaction=turn.compaction, offered=[])
    recorded = {(t.phase.value, t.round, t.agent): list(t.offered)
                for t in state.turns.values()}
    unsourced = Debate.objects.create(team=team, question="No sources?", settings={})
    Turn.objects.create(debate=unsourced, phase="position", agent_index=0, status="ok",
                        payload={}, offered=[])

    def with_its_sources(row: Debate) -> DebateState:
        # The sources' hook, as the sources app answers for this debate's documents.
        loaded = state_rows.load_state(row)
        loaded.sources = list(state.sources) if row.pk == debate.pk else []
        return loaded

    monkeypatch.setattr(state_rows, "load_state_with_sources", with_its_sources)
    migration("0014_turns_say_what_they_were_shown").turns_say_what_they_were_shown(apps, None)

    stored = {(t.phase, t.round, t.agent_index): t.offered for t in debate.turns.all()}
    assert stored == recorded
    assert Turn.objects.get(debate=unsourced).offered == []
