"""evaluate_question runs real debates through the engine: on the simulated population
its report lands exactly on the population's own, and failures become notes."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace

import pytest

from debates.engine.evaluation import arms
from debates.engine.evaluation.population import expected_vote_yes_no, plurality
from debates.engine.evaluation.report import EvaluationReport, report_json, report_markdown
from debates.engine.evaluation.runs import (
    SYNTHESIS,
    EvaluationSpec,
    QuestionOutcome,
    evaluate_question,
    population_of,
    questions_for,
    report_from_outcomes,
)
from debates.engine.evaluation.sets import Question
from debates.engine.prompts import PROMPT_VERSION
from tests.engine.evaluation.direct_report import simulated_report


def _outcomes(spec: EvaluationSpec, questions: Sequence[Question]) -> list[QuestionOutcome]:
    async def every() -> list[QuestionOutcome]:
        return [await evaluate_question(q, spec) for q in questions]

    return asyncio.run(every())


def _engine_and_population(spec: EvaluationSpec) -> tuple[EvaluationReport, EvaluationReport]:
    labelled = questions_for(spec)
    engine = report_from_outcomes(labelled, spec, _outcomes(spec, labelled.questions))
    return engine, simulated_report(labelled, population_of(spec))


@pytest.fixture(scope="module")
def five_at_0_6() -> tuple[EvaluationReport, EvaluationReport]:
    spec = EvaluationSpec("compare", n=30, seed=11, agents=5, sim_accuracy=0.6)
    return _engine_and_population(spec)


def _same_figures(engine: EvaluationReport, population: EvaluationReport) -> None:
    for name in ("single", "vote", "council"):
        assert engine.arms[name].accuracy == population.arms[name].accuracy, name
    assert engine.paired is not None and population.paired is not None
    assert engine.paired.table == population.paired.table
    assert engine.paired.flips == population.paired.flips


def test_through_the_engine_the_report_is_the_populations_own(five_at_0_6):
    engine, population = five_at_0_6
    _same_figures(engine, population)
    # The debate's calls were made and counted: the vote's are round 0's, the council's
    # all of them.
    single, vote, council = (engine.arms[a] for a in ("single", "vote", "council"))
    assert 0 < single.prompt_tokens < vote.prompt_tokens < council.prompt_tokens
    # The simulated agents state the population's accuracy: a calibrated single agent.
    assert single.brier == pytest.approx(0.6 * 0.4**2 + 0.4 * 0.6**2, abs=0.05)


def test_five_agents_at_0_6_hold_the_exact_single_and_vote_values(five_at_0_6):
    out = report_json(five_at_0_6[0])
    low, high = out["arms"]["single"]["ci"]
    assert low <= 0.600 <= high
    low, high = out["arms"]["vote"]["ci"]
    assert low <= expected_vote_yes_no(0.6, 5) <= high
    assert round(expected_vote_yes_no(0.6, 5), 5) == 0.68256


def test_the_synthesis_is_reported_after_the_council(five_at_0_6):
    engine, _ = five_at_0_6
    assert list(engine.arms) == ["single", "vote", "council", SYNTHESIS]
    # The simulated synthesis recommends the final plurality: as right as the council.
    assert engine.arms[SYNTHESIS].accuracy == engine.arms["council"].accuracy


def test_free_numbers_and_a_corrective_update_through_the_engine():
    spec = EvaluationSpec("arithmetic", n=12, seed=3, agents=3, sim_accuracy=0.5,
                          update="corrective", strength=0.5)
    engine, population = _engine_and_population(spec)
    _same_figures(engine, population)
    assert engine.arms["council"].accuracy.right > 0


def test_a_failing_model_gives_no_answers_and_says_why():
    question = questions_for(EvaluationSpec("compare", n=1)).questions[0]
    spec = EvaluationSpec("compare", n=1, model="sim/down", arms=("single", "vote", "council"))
    outcome = asyncio.run(evaluate_question(question, spec))
    assert {a.answer for a in outcome.arms.values()} == {None}
    assert "the debate failed" in outcome.note
    assert QuestionOutcome.from_json(outcome.to_json()) == outcome


def test_a_crash_inside_the_debate_is_a_note(monkeypatch):
    async def broken(state, hooks):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(arms, "run_protocol", broken)
    question = questions_for(EvaluationSpec("arithmetic", n=1)).questions[0]
    spec = EvaluationSpec("arithmetic", n=1, arms=("single", "vote", "council", "adversarial"))
    outcome = asyncio.run(evaluate_question(question, spec))
    assert all(a.answer is None for a in outcome.arms.values())
    assert "RuntimeError: the disk is full" in outcome.note


def test_the_adversarial_arm_runs_on_free_numbers_only():
    spec = EvaluationSpec("arithmetic", n=1, arms=("adversarial",))
    question = questions_for(spec).questions[0]
    outcome = asyncio.run(evaluate_question(question, spec))
    assert list(outcome.arms) == ["adversarial"]
    assert outcome.arms["adversarial"].prompt_tokens > 0
    yes_no = questions_for(EvaluationSpec("compare", n=1)).questions[0]
    assert asyncio.run(evaluate_question(yes_no, spec)).arms == {}
    simulated = EvaluationSpec("arithmetic", n=1, arms=("adversarial",), sim_accuracy=0.5)
    outcome = asyncio.run(evaluate_question(question, simulated))
    assert outcome.arms == {} and "not run on a simulated population" in outcome.note


@pytest.mark.parametrize("text, read", [
    ("The panel's answer: yes.", "yes"),
    ("No: the product is smaller.", "no"),
    ("Yes or no, we cannot tell.", None),  # both named: no single answer
    ("Nobody knows.", None),  # "no" only inside a word
    (None, None),
])
def test_a_recommendation_names_one_option(text, read):
    question = Question("c", "Is it?", ("yes", "no"), "yes")
    assert arms.read_recommendation(question, text) == read


def test_an_agents_reply_is_an_option_or_a_number():
    options = Question("c", "Is it?", ("yes", "no"), "yes")
    assert arms.read_reply(options, "Yes") == "yes"
    assert arms.read_reply(options, "maybe") is None
    number = Question("n", "What is 6*7?", None, "42")
    assert arms.read_reply(number, "6*7 is 42.") == "42"
    assert arms.read_reply(number, "I cannot tell.") is None


@pytest.mark.parametrize("agents", [1, 13])
def test_a_panel_the_engine_cannot_run_is_refused(agents):
    with pytest.raises(ValueError, match="agents"):
        EvaluationSpec("compare", agents=agents)


def test_an_unknown_update_is_refused():
    with pytest.raises(ValueError, match="update"):
        EvaluationSpec("compare", update="sideways")


def test_each_arms_confidence_is_its_holders_mean():
    # A hand-made panel: round 0 yes 0.9, yes 0.5, no 0.2; after round 1 no 0.4, yes 0.7,
    # no 0.8. Single: yes at 0.9; vote: yes at (0.9 + 0.5) / 2; council: no at
    # (0.4 + 0.8) / 2.
    question = Question("c", "Is 2 greater than 1?", ("yes", "no"), "yes")
    first = [("yes", 0.9), ("yes", 0.5), ("no", 0.2)]
    final = [("no", 0.4), ("yes", 0.7), ("no", 0.8)]
    script = {"agents": [
        {"name": f"Solver {i + 1}", "position_verdict": v0, "position_confidence": c0,
         "rounds": [{"updated_verdict": v1, "updated_confidence": c1}]}
        for i, ((v0, c0), (v1, c1)) in enumerate(zip(first, final, strict=True))]}
    spec = EvaluationSpec("compare", agents=3)
    state = arms.DebateState(question=question.text, given_personas=arms.panel(3),
                             config=arms._config(spec, "council", question, script))
    calls, failure = asyncio.run(arms._run(state))
    reading = arms._read_council(question, state, calls, failure)
    assert failure == "" and reading.detail["first"] == ["yes", "yes", "no"]
    single, vote, council = (reading.arms[a] for a in ("single", "vote", "council"))
    assert (single.answer, single.confidence) == ("yes", 0.9)
    assert vote.answer == "yes" and vote.confidence == pytest.approx(0.7)
    assert council.answer == "no" and council.confidence == pytest.approx(0.6)
    # The vote's calls are round 0's (premortems and positions); the single's agent 0's.
    assert single.costs.prompt_tokens * 2 < vote.costs.prompt_tokens
    assert vote.costs.prompt_tokens < council.costs.prompt_tokens


def test_a_debate_that_cannot_be_read_is_a_note_and_keeps_its_costs(monkeypatch):
    def unreadable(*args):
        raise KeyError("verdict")

    monkeypatch.setattr(arms, "_read_council", unreadable)
    question = questions_for(EvaluationSpec("compare", n=1)).questions[0]
    outcome = asyncio.run(evaluate_question(question, EvaluationSpec("compare", n=1)))
    assert all(a.answer is None for a in outcome.arms.values())
    assert outcome.arms["council"].prompt_tokens > 0
    assert "could not be read: KeyError" in outcome.note


def test_a_herding_mixed_panel_with_a_corrector_runs_through_the_engine_as_simulated():
    # Seats of 0.9, 0.5 and 0.5; the first two herd, the last corrects (docs/engine.md,
    # "Herding and correctors"): the engine's debates answer as the population did, and
    # each agent states its own accuracy as its confidence.
    spec = EvaluationSpec("compare", n=12, seed=5, agents=3, sim_accuracy=0.6,
                          sim_accuracies=(0.9, 0.5, 0.5), update="herding", strength=1.0,
                          correctors=1, correction=0.5)
    engine, population = _engine_and_population(spec)
    _same_figures(engine, population)
    assert EvaluationSpec.from_json(spec.to_json()) == spec


@pytest.mark.parametrize("bad, says", [
    ({"sim_accuracies": (0.9, 0.5)}, "2 accuracies for 3 agents"),
    ({"update": "herding", "correctors": 4}, "4 correctors in a panel of 3"),
    ({"update": "telepathy"}, "unknown update 'telepathy'"),
])
def test_an_impossible_population_is_refused(bad, says):
    with pytest.raises(ValueError, match=says):
        EvaluationSpec("compare", n=5, agents=3, sim_accuracy=0.6, **bad)


def test_the_confidence_arm_follows_the_sure_seats_and_breaks_ties_by_the_vote():
    # Seats of 0.9, 0.9, 0.5, 0.5, 0.5, each stating its accuracy: ranks 4.5, 4.5, 2, 2,
    # 2. The two sure seats together score 9 against at most 6: their answer, even
    # against three; split, each scores 4.5 plus 2 a seat beside it, and the plurality
    # wins.
    spec = EvaluationSpec("compare", n=16, seed=5, agents=5, sim_accuracy=0.6,
                          sim_accuracies=(0.9, 0.9, 0.5, 0.5, 0.5),
                          arms=("single", "vote", "confidence", "council"))
    labelled = questions_for(spec)
    outcomes = _outcomes(spec, labelled.questions)
    population = population_of(spec)
    overruled = 0
    for question, outcome in zip(labelled.questions, outcomes, strict=True):
        first = population.debate(question).first
        sure = first[0] if first[0] == first[1] else plurality(first)
        assert outcome.arms["confidence"].answer == sure, question.id
        assert outcome.arms["vote"].answer == plurality(first), question.id
        overruled += sure != plurality(first)
    assert overruled > 0  # the two sure seats outweighed three on some question
    report = report_from_outcomes(labelled, spec, outcomes)
    assert list(report.arms)[:3] == ["single", "vote", "confidence"]


def test_three_seats_confidence_ties_go_to_the_vote_not_to_the_first_seat():
    """0.9, 0.5, 0.5: the sure seat alone scores 3, the two others 1.5 + 1.5: a tie, which
    the council's rule breaks by the independent vote. Broken by the first-given answer,
    the arm answered as seat 0 on every question (it did on Qwen 0.5B: 50 of 50)."""
    spec = EvaluationSpec("compare", n=12, seed=5, agents=3, sim_accuracy=0.6,
                          sim_accuracies=(0.9, 0.5, 0.5), arms=("single", "vote", "confidence"))
    labelled = questions_for(spec)
    outcomes = _outcomes(spec, labelled.questions)
    population = population_of(spec)
    firsts = [population.debate(q).first for q in labelled.questions]
    assert any(f[0] != plurality(f) for f in firsts)  # seat 0 was outvoted somewhere
    assert [o.arms["confidence"].answer for o in outcomes] == [plurality(f) for f in firsts]


def test_each_outcome_records_its_prompt_version_and_a_mix_of_versions_is_said():
    """A run resumed across a deploy may span prompt versions: each stored outcome
    records its own, and the report counts them and says so when there is more than one."""
    spec = EvaluationSpec("compare", n=4, seed=5, agents=3, sim_accuracy=0.7)
    labelled = questions_for(spec)
    outcomes = _outcomes(spec, labelled.questions)
    assert {o.prompt_version for o in outcomes} == {PROMPT_VERSION}
    stored = [QuestionOutcome.from_json(o.to_json()) for o in outcomes]
    assert stored == outcomes
    one = report_from_outcomes(labelled, spec, stored)
    assert report_json(one)["prompt_versions"] == {PROMPT_VERSION: 4}
    assert "prompt versions" not in report_markdown(one)
    # Two stored under an older wording, one before versions were recorded (not counted).
    older = [replace(o, prompt_version="v0") for o in stored[:2]]
    unrecorded = QuestionOutcome.from_json(
        {k: v for k, v in stored[2].to_json().items() if k != "prompt_version"})
    assert unrecorded.prompt_version == ""
    mixed = report_from_outcomes(labelled, spec, [*older, unrecorded, stored[3]])
    assert report_json(mixed)["prompt_versions"] == {"v0": 2, PROMPT_VERSION: 1}
    assert (f"Mixed prompt versions: v0 (2 questions), {PROMPT_VERSION} (1). The arms "
            "compare answers to different wordings; read them per version.") in (
        report_markdown(mixed).splitlines())


def test_each_question_debates_on_its_own_seed_and_a_rerun_replays_it():
    """Seat i samples with the debate's seed + i: one seed for the whole run gave every
    seat the same random draws on every question, so its answers were not independent
    across questions. Each question now has its own seed, the same on every rerun."""
    spec = EvaluationSpec("compare", n=6, seed=7, agents=3, sim_accuracy=0.7)
    questions = questions_for(spec).questions
    seeds = [o.detail["seed"] for o in _outcomes(spec, questions)]
    assert len(set(seeds)) == len(questions)
    assert seeds == [o.detail["seed"] for o in _outcomes(spec, questions)]
    other_run = EvaluationSpec("compare", n=6, seed=8, agents=3, sim_accuracy=0.7)
    assert seeds[0] != _outcomes(other_run, questions[:1])[0].detail["seed"]
