"""The content checks that read a debate against itself (docs/engine.md, "Content
checks"; issue 42 item 4): what the real Qwen2.5-Coder-0.5B run showed passing as sound.
A synthesis with no decision, a stance that contradicts its own verdict, views credited to
nobody on the panel, one sentence repeated across a list; and what fired where it should
not: two stop-word stances called identical, an option named as a stance called empty."""

from __future__ import annotations

from debates.engine.protocols import get_protocol
from debates.engine.quality import panel
from debates.engine.quality.turns import repeated_item
from debates.engine.schemas import Phase, Quality
from tests.engine.test_trajectories import agent, debate

THREE = [agent("Ann", 0.6, [{}], position_verdict="for"),
         agent("Bo", 0.7, [{}], position_verdict="for"),
         agent("Cy", 0.8, [{}], position_verdict="against")]


def rules(result) -> set[str]:
    return {r.rule for r in result.quality_reasons}


def rebuilt(state, result):
    state.changed()
    return get_protocol("council").build_result(state, result.usage)


def test_two_stop_word_stances_are_not_identical():
    # "Against" and "For" are both stop words: no tokens, so their similarity was 1.0.
    assert panel.stances(["Against", "For"], "every agent's position", "position", 0) == []
    assert panel.stances(["For", "for"], "every agent's position", "position", 0)
    assert panel.stances(["We should migrate now, the audit allows it",
                          "We should migrate now; the audit allows it."], "w", "position", 0)


def test_a_stance_names_an_option_only_when_it_is_or_opens_with_one():
    names = {"for": "for", "against": "against", "lease": "lease"}
    assert panel.named_option("Against", names) == "against"
    assert panel.named_option("against: the migration costs too much", names) == "against"
    assert panel.named_option("Lease.", names) == "lease"
    # "for" as a preposition inside a sentence is no verdict.
    assert panel.named_option("I argue for a staged migration", names) is None
    assert panel.named_option("The lease terms are poor", names) is None


def test_credits_name_agents_of_the_panel_with_titles_roles_or_several_at_once():
    panel_names = ["Ann Lee", "Bo Chen"]
    assert panel.credited("Ann Lee", panel_names)
    assert panel.credited("Dr. Ann Lee (CFO)", panel_names)
    assert panel.credited("Ann Lee, Bo Chen", panel_names)
    assert panel.credited("Ann Lee and Bo Chen", panel_names)
    assert panel.credited("the panel", panel_names)
    assert not panel.credited("John Smith", panel_names)
    assert not panel.credited("Ann Lee, John Smith", panel_names)


def test_one_sentence_three_times_in_a_list_is_repeated_items():
    said = "The migration is no longer efficient."
    assert repeated_item([said, said.upper(), f"  {said}!", "Another point."]) == (
        "degenerate_text.repeated_items",
        "3 of 4 items the same: the migration is no longer efficient")
    assert repeated_item([said, said, "Another point."]) is None  # twice is not a pattern


async def test_a_stance_against_its_own_verdict_is_doubtful():
    state, result, _ = await debate([
        agent("Ann", 0.6, [{}], position_verdict="for", position_stance="Against"),
        agent("Bo", 0.7, [{}], position_verdict="for"),
        agent("Cy", 0.8, [{}], position_verdict="against"),
    ], max_rounds=1)
    found = [r for r in result.quality_reasons if r.rule == "stances.contradict_verdict"]
    assert [(r.where, r.evidence, r.agent, r.round) for r in found] == [
        ("position · Ann", "stance 'Against', verdict 'for'", 0, 0)]
    assert result.quality is Quality.DOUBTFUL


async def test_a_stance_that_names_its_own_verdict_is_sound():
    # The 1.5B model's sensible turns: the bare option as the stance ("lease").
    _, result, _ = await debate([
        agent("Ann", 0.6, [{}], position_verdict="for", position_stance="For"),
        agent("Bo", 0.7, [{}], position_verdict="against", position_stance="Against"),
        agent("Cy", 0.8, [{}], position_verdict="against"),
    ], max_rounds=1)
    assert not rules(result) & {"empty_content.one_word", "stances.contradict_verdict",
                                "stances.identical"}, result.quality_reasons
    assert result.quality is Quality.SOUND


async def test_a_synthesis_with_no_decision_is_unusable():
    state, result, _ = await debate(THREE, max_rounds=1)
    assert result.quality is Quality.SOUND
    synthesis = state.turn(Phase.SYNTHESIS)
    synthesis.payload["recommended_path"] = None
    synthesis.payload["divergence_report"] = None
    result = rebuilt(state, result)
    assert "decision.missing" in rules(result)
    assert result.quality is Quality.UNUSABLE


async def test_views_credited_to_nobody_on_the_panel_are_doubtful():
    state, result, _ = await debate(THREE, max_rounds=1)
    synthesis = state.turn(Phase.SYNTHESIS)
    # Four disagreements credited to an agent that does not exist (the 0.5B run).
    synthesis.payload["disagreements"] = [
        {"topic": f"Topic {n}", "views": [{"agent": "John Smith", "view": f"View {n}"}]}
        for n in range(4)] + [{"topic": "Cost", "views": [{"agent": "Ann", "view": "Too high"}]}]
    result = rebuilt(state, result)
    found = [r for r in result.quality_reasons if r.rule == "agents.unknown_credit"]
    assert [(r.where, r.evidence) for r in found] == [
        ("synthesis · disagreements · Topic 0 (and 3 more)", "John Smith")]
    assert result.quality is Quality.DOUBTFUL


async def test_one_sentence_repeated_across_a_turns_list_is_doubtful():
    state, result, _ = await debate(THREE, max_rounds=1)
    position = next(t for t in state.turns.values() if t.phase.value == "position")
    position.payload["reasoning"] = ["Billing must stay up during the move."] * 8
    result = rebuilt(state, result)
    found = [r for r in result.quality_reasons if r.rule == "degenerate_text.repeated_items"]
    assert len(found) == 1 and found[0].where.endswith("· reasoning")
    assert found[0].evidence.startswith("8 of 8 items the same")
    assert result.quality is Quality.DOUBTFUL


def _hollow_panel(step):
    return [agent(name, 0.6, [step], position_verdict="for") for name in ("Ann", "Bo", "Cy")]


async def test_a_panel_that_agrees_without_new_material_is_called_hollow():
    # All three for from the start; round 1 raises every confidence to 0.9 with no
    # concession, no new argument and no passage: agreement by repetition (issue 42).
    quiet = {"updated_confidence": 0.9, "concessions": [], "remaining_disagreements": []}
    _, result, _ = await debate(_hollow_panel(quiet))
    [hollow] = [r for r in result.quality_reasons if r.rule == "consensus.hollow"]
    assert hollow.severity == "doubtful" and result.quality is not Quality.SOUND
    assert hollow.evidence == ("all for, confidence 0.60 → 0.90; no new point, passage or "
                               "concession in 2 rounds")


async def test_agreement_earned_by_arguments_and_concessions_is_not_hollow():
    argued = {"updated_confidence": 0.9, "concessions": ["The pilot data answers my doubt"],
              "remaining_disagreements": ["Whether the vendor's support covers nights"]}
    _, result, _ = await debate(_hollow_panel(argued))
    assert "consensus.hollow" not in rules(result)
    # A panel still split at the end is no consensus at all, hollow or not.
    quiet = {"updated_confidence": 0.9, "concessions": [], "remaining_disagreements": []}
    split = [*_hollow_panel(quiet)[:2], agent("Cy", 0.6, [quiet], position_verdict="against")]
    _, result, _ = await debate(split)
    assert "consensus.hollow" not in rules(result)
    # Agreed from the independent positions on, confidence flat: the strongest agreement.
    steady = {"updated_confidence": None, "concessions": [], "remaining_disagreements": []}
    _, result, _ = await debate(_hollow_panel(steady))
    assert "consensus.hollow" not in rules(result)


async def test_a_panel_that_comes_round_without_a_concession_is_hollow():
    # Cy moves to for in round 1 conceding nothing, and nobody raises a new point.
    quiet = {"concessions": [], "remaining_disagreements": []}
    moved = [*_hollow_panel(quiet)[:2],
             agent("Cy", 0.6, [{**quiet, "updated_verdict": "for"}], position_verdict="against")]
    _, result, _ = await debate(moved)
    [hollow] = [r for r in result.quality_reasons if r.rule == "consensus.hollow"]
    assert hollow.evidence.startswith("verdicts moved to all for; no new point")


def test_the_qwen_runs_junk_is_flagged_and_their_sensible_turns_are_not():
    from tests.engine.transcripts import FIXTURES, load, replay

    real = FIXTURES / "real_transcripts"
    small = replay(load(real / "qwen05-council-source.json"))
    echoes = [r for r in small.quality_reasons if r.rule == "degenerate_text.echo"]
    # Peers' headings written back as concessions and as an updated position.
    assert {"round 1 · Alice Johnson · concessions (and 1 more)",
            "round 2 · Alice Johnson · updated_position"} <= {r.where for r in echoes}
    # John Doe's premortem restates the source's risks: sensible, and not flagged.
    assert not [r for r in small.quality_reasons if r.where.startswith("premortem · John Doe")]
    larger = replay(load(real / "qwen15-council-source.json"))
    # "against" three times is agreement in one word, not a copied sentence...
    assert "stances.identical" not in rules(larger)
    # ...and its premortems, which use the source's figures, pass every text rule.
    assert not [r for r in larger.quality_reasons if r.phase == "premortem"]
    assert rules(larger) == {"stances.contradict_verdict"}


def test_a_stance_made_of_position_headings_is_an_echo_and_one_that_argues_is_not():
    from debates.engine.quality.text import EchoVocabulary

    echo = EchoVocabulary([], "Should we lease?", [])
    assert echo.echo("Jane Smith (verdict against, confidence 0.70); Jane Smith "
                     "(verdict against, confidence 0.50)")
    # The heading as the prompt writes it now, and recorded runs' older form above.
    assert echo.echo("Jane Smith: verdict against, confidence 0.70; Agent B: verdict for, "
                     "confidence 0.50")
    assert echo.echo("Jane Smith (verdict against, confidence 0.50) raised the cost of the "
                     "chargers, which the quote puts at 76,000 GBP for forty of them") is None


def test_identical_stances_that_only_name_an_option_are_agreement_not_a_copy():
    names = {"for": "for", "against": "against", "conditional": "conditional"}
    assert panel.stances(["against", "Against", "against"], "w", "position", 0, names) == []
    assert panel.stances(["against", "Against", "against"], "w", "position", 0)
    said = "We should not lease: the chargers will not be ready"
    assert panel.stances([said, said], "w", "position", 0, names)
