"""Writes on debates: validation before saving, limits before queueing, transitions."""

import pytest

from debates.engine.inputs import InputError
from debates.engine.schemas import DebateConfig, Persona
from debates.limits import LimitExceeded
from debates.models import Agent, Debate, DebateStatus, Synthesis
from debates.selectors import round_measures
from debates.services import (
    IllegalTransition,
    debate_cancel,
    debate_create,
    debate_more_round,
    debate_rerun,
)

pytestmark = pytest.mark.django_db


def create(team, **kw):
    return debate_create(team=team, user=None, question=kw.pop("question", "Go or no go?"),
                         config=kw.pop("config", DebateConfig(mode="quick")), start=False, **kw)


@pytest.mark.parametrize("question", ["", "   \n\t  ", "Should we do it? " * 20000])
def test_bad_question_saves_nothing(team, question):
    with pytest.raises(InputError):
        create(team, question=question)
    assert Debate.objects.count() == 0


def test_unknown_model_saves_nothing(team):
    with pytest.raises(InputError, match="unknown model"):
        create(team, config=DebateConfig(model="nonsense-provider/x"))
    assert Debate.objects.count() == 0


def test_rate_limit_refuses_before_anything_is_saved(team, django_capture_on_commit_callbacks):
    team.debates_per_hour = 1
    team.save()
    create(team)
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(LimitExceeded):
        debate_create(team=team, user=None, question="Again?", config=DebateConfig())
    assert Debate.objects.count() == 1 and callbacks == []


def test_cost_cap_refuses_an_expensive_model(team):
    team.debate_cost_cap_usd = 0.0001
    team.save()
    with pytest.raises(LimitExceeded, match="Cost cap"):
        create(team, config=DebateConfig(mode="deep", model="openai/gpt-4o"))
    assert Debate.objects.count() == 0


def test_given_personas_are_snapshotted_at_creation(team):
    persona = Persona(name="Ann", background="b", expertise="e", approach="a", bias="x")
    debate = create(team, personas=[persona])
    assert list(debate.agents.values_list("name", flat=True)) == ["Ann"]


def test_cancel_twice_is_an_illegal_transition(team):
    debate = create(team)
    debate_cancel(debate=debate)
    with pytest.raises(IllegalTransition):
        debate_cancel(debate=debate)


def test_more_round_needs_a_finished_debate(team):
    with pytest.raises(IllegalTransition):
        debate_more_round(debate=create(team))


@pytest.mark.parametrize("protocol", ["adversarial", "workflow"])
def test_one_more_round_is_refused_for_protocols_without_it_and_changes_nothing(
        team, protocol, member_client):
    from debates.runtime.execution import run_to_completion

    debate = create(team, config=DebateConfig(mode="quick", protocol=protocol))
    run_to_completion(debate.code)
    debate.refresh_from_db()
    before = (debate.status, debate.synthesis.result)
    with pytest.raises(IllegalTransition, match=f"the {protocol} protocol offers no more round"):
        debate_more_round(debate=debate)
    debate.refresh_from_db()
    assert (debate.status, debate.synthesis.result) == before
    page = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "Re-run" in page and "One more round" not in page


def test_one_more_round_runs_a_round_past_the_stop(team):
    from debates.runtime.execution import run_to_completion

    debate = create(team)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    rounds = debate.synthesis.result["rounds_completed"]
    debate_more_round(debate=debate)
    debate.refresh_from_db()
    stopped_round = round_measures(debate=debate)[rounds]
    assert stopped_round["round"] == rounds and stopped_round["decision"] == "continue"
    assert "a user asked for one more round" in stopped_round["explanation"]
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED
    assert debate.synthesis.result["rounds_completed"] == rounds + 1


def test_one_more_round_keeps_the_replaced_synthesis_as_an_earlier_version(team):
    from debates.runtime.execution import run_to_completion

    debate = create(team)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    before = debate.synthesis.result
    debate_more_round(debate=debate)
    assert not Synthesis.objects.filter(debate=debate).exists()
    earlier = debate.earlier_syntheses.get()
    assert earlier.result == before
    assert earlier.rounds_completed == before["rounds_completed"]
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.synthesis.result["rounds_completed"] == before["rounds_completed"] + 1
    # A second "one more round" keeps both earlier versions, newest first.
    debate_more_round(debate=debate)
    run_to_completion(debate.code)
    versions = list(debate.earlier_syntheses.values_list("rounds_completed", flat=True))
    assert versions == [before["rounds_completed"] + 1, before["rounds_completed"]]


def test_the_round_measures_follow_one_more_round(team):
    # Derived from the turns when read (nothing cached): the round that stopped the
    # debate reads "continue" as soon as one more round is asked for.
    from debates.runtime.execution import run_to_completion

    debate = create(team)
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert len(round_measures(debate=debate)) >= 2
    debate_more_round(debate=debate)
    debate.refresh_from_db()
    assert round_measures(debate=debate)[-1]["decision"] == "continue"
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert len(round_measures(debate=debate)) == debate.synthesis.result[
        "rounds_completed"] + 1


def test_rerun_links_to_its_parent_and_keeps_library_links(team):
    persona = Persona(name="Ann", background="b", expertise="e", approach="a", bias="x")
    parent = create(team, personas=[persona])
    Agent.objects.filter(debate=parent, index=0).update(
        source_persona_id="00000000-0000-0000-0000-000000000001")
    child = debate_rerun(debate=parent, user=None, overrides={"max_rounds": 1})
    assert child.parent == parent and child.settings["max_rounds"] == 1
    assert str(child.agents.get(index=0).source_persona_id).endswith("0001")
