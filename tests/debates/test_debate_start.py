"""debate_start, the one way a debate is created: it completes the spec (defaults,
seed, simulator, fallback model), prices it with every model that will be called,
checks the team's limits and saves nothing it refuses."""

from __future__ import annotations

import pytest

from debates.engine.inputs import InputError
from debates.engine.schemas import Persona
from debates.estimates import estimate
from debates.limits import LimitExceeded
from debates.models import Debate, DebateEvent
from debates.services import DebateSpec, debate_start, plan_debate

pytestmark = pytest.mark.django_db

QUESTION = "Should we move the billing service to a managed database?"


def _persona(name: str, model: str | None = None) -> Persona:
    return Persona(name=name, background="Twenty years in payments.", expertise="payments",
                   approach="Follows the money.", bias="Distrusts vendor promises.",
                   model=model)


def _library_persona(team, owner, name: str, model: str | None = None):
    from personas.services import library_create, persona_create

    library = team.persona_libraries.first() or library_create(team=team, user=owner,
                                                                 name="Core panel")
    return persona_create(library=library, user=owner, data=_persona(name, model))


def start(team, **spec):
    return debate_start(team=team, user=None, start=False,
                        spec=DebateSpec(question=spec.pop("question", QUESTION), **spec))


def test_blank_settings_take_the_sites_defaults_and_the_modes_values(team, settings):
    settings.COUNCIL_MODEL = "sim/default"
    debate = start(team, mode="deep")
    s = debate.settings
    assert (s["model"], s["agents"], s["max_rounds"], s["threshold"]) == (
        "sim/default", 7, 4, 0.08)


def test_the_fallback_model_comes_from_the_settings_unless_the_spec_names_one(team, settings):
    settings.COUNCIL_FALLBACK_MODEL = "sim/fallback"
    assert start(team).settings["fallback_model"] == "sim/fallback"
    assert start(team, fallback_model="sim/other").settings["fallback_model"] == "sim/other"
    settings.COUNCIL_FALLBACK_MODEL = None
    assert start(team).settings["fallback_model"] is None


def test_an_unknown_fallback_model_is_refused(team, settings):
    settings.COUNCIL_FALLBACK_MODEL = "nonsense-provider/x"
    with pytest.raises(InputError, match="unknown model"):
        start(team)
    assert Debate.objects.count() == 0


def test_each_start_draws_a_seed_unless_one_is_pinned(team):
    seeds = {start(team).settings["seed"] for _ in range(4)}
    assert len(seeds) > 1
    pinned = start(team, seed=1234).settings
    assert pinned["seed"] == 1234 and pinned["simulator"]["seed"] == 1234


def test_simulator_settings_come_from_the_environment_for_simulated_models(team,
                                                                          monkeypatch):
    monkeypatch.setenv("COUNCIL_SIM_LATENCY_MS", "25")
    assert start(team, model="sim/default").settings["simulator"]["latency_ms"] == 25
    assert start(team, model="openai/gpt-4o-mini").settings["simulator"]["latency_ms"] == 0


def test_bad_simulator_environment_is_a_clear_refusal(team, monkeypatch):
    monkeypatch.setenv("COUNCIL_SIM_LATENCY_MS", "soon")
    with pytest.raises(InputError, match="Simulator settings: COUNCIL_SIM_LATENCY_MS"):
        start(team, model="sim/default")
    assert Debate.objects.count() == 0


def test_library_personas_sit_on_the_panel_linked_to_their_source(team, owner):
    grace = _library_persona(team, owner, "Grace Ledger")
    debate = start(team, library_personas=[str(grace.code)])
    agent = debate.agents.get(index=0)
    assert agent.name == "Grace Ledger" and agent.source_persona_id == grace.code


def test_inline_personas_come_first_and_library_links_follow_their_place(team, owner):
    grace = _library_persona(team, owner, "Grace Ledger")
    debate = start(team, personas=[_persona("Ann")], library_personas=[str(grace.code)])
    names = list(debate.agents.order_by("index").values_list("name", "source_persona_id"))
    assert names[:2] == [("Ann", None), ("Grace Ledger", grace.code)]


def test_another_teams_persona_is_refused_and_nothing_saved(team, other_team, outsider):
    theirs = _library_persona(other_team, outsider, "Not Yours")
    with pytest.raises(InputError, match="Unknown or archived personas"):
        start(team, library_personas=[str(theirs.code)])
    assert Debate.objects.count() == 0


def test_a_simulated_debate_whose_personas_use_a_paid_model_is_priced_and_not_simulated(
        team, owner):
    grace = _library_persona(team, owner, "Grace Ledger", model="openai/gpt-4o")
    debate = start(team, mode="quick", model="sim/default",
                   library_personas=[str(grace.code)])
    assert debate.simulated is False
    assert debate.estimated_cost_usd is not None and debate.estimated_cost_usd > 0
    assert start(team, mode="quick", model="sim/default").simulated is True


def test_the_estimate_prices_each_agent_at_its_personas_model(team):
    cheap = plan_debate(team=team, spec=DebateSpec(
        question=QUESTION, mode="quick", model="openai/gpt-4o-mini",
        personas=[_persona("Ann")]))
    dear = plan_debate(team=team, spec=DebateSpec(
        question=QUESTION, mode="quick", model="openai/gpt-4o-mini",
        personas=[_persona("Ann", model="openai/gpt-4o")]))
    assert cheap.estimate.cost_usd is not None and dear.estimate.cost_usd is not None
    assert dear.estimate.cost_usd > cheap.estimate.cost_usd
    # Only that agent's calls move: the panel-wide ones stay on the debate's model.
    assert dear.estimate.calls == cheap.estimate.calls
    assert dear.estimate == estimate(dear.config, text_chars=len(QUESTION),
                                     personas=[_persona("Ann", model="openai/gpt-4o")])


def test_the_cost_cap_counts_the_personas_models(team, owner):
    grace = _library_persona(team, owner, "Grace Ledger", model="openai/gpt-4o")
    team.debate_cost_cap_usd = 0.0001
    team.save()
    start(team, mode="quick", model="sim/default")  # free: under any cap
    with pytest.raises(LimitExceeded, match="Cost cap"):
        start(team, mode="quick", model="sim/default", library_personas=[str(grace.code)])
    assert Debate.objects.count() == 1


def test_the_estimate_is_stored_with_the_debate(team):
    plan = plan_debate(team=team, spec=DebateSpec(question=QUESTION, mode="quick",
                                                   model="openai/gpt-4o-mini"))
    debate = start(team, mode="quick", model="openai/gpt-4o-mini")
    assert debate.estimated_cost_usd == pytest.approx(plan.estimate.cost_usd)


def test_a_refused_start_saves_and_queues_nothing(team, django_capture_on_commit_callbacks):
    team.debates_per_hour = 1
    team.save()
    with django_capture_on_commit_callbacks(execute=False) as first:
        debate_start(team=team, user=None, spec=DebateSpec(question=QUESTION))
    assert first  # the accepted debate: its first step and event go out on commit
    with django_capture_on_commit_callbacks(execute=False) as callbacks, \
            pytest.raises(LimitExceeded, match="Rate limit"):
        debate_start(team=team, user=None, spec=DebateSpec(question="And again?"))
    assert callbacks == []
    assert Debate.objects.count() == 1 and DebateEvent.objects.count() == 1


@pytest.mark.parametrize(("spec", "message"), [
    ({"question": "  "}, "the question is empty"),
    ({"context": "y" * 20_001}, "the limit is 20,000"),
    ({"model": "nonsense-provider/x"}, "unknown model"),
    ({"agents": 1}, "agents"),
    ({"personas": [_persona("Ann"), _persona("ann")]}, "share a name"),
])
def test_bad_input_is_refused_before_anything_is_saved(team, spec, message):
    with pytest.raises(InputError, match=message):
        start(team, **{"question": QUESTION, **spec})
    assert Debate.objects.count() == 0


def test_a_judge_model_is_checked_like_every_model_the_debate_may_call(team):
    with pytest.raises(InputError, match="unknown model"):
        start(team, base={"judge_model": "nonsense-provider/x"})
    assert Debate.objects.count() == 0
    assert start(team, base={"judge_model": "sim/judge"}).settings["judge_model"] == "sim/judge"
