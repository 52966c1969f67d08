"""The content checks (docs/engine.md, "Content checks"): each rule fires on the noise
it names and not on sensible text; the simulator's debates and the hand-written
transcripts stay sound; the transcripts recorded from real small models are flagged by
the rules that should fire; what follows in the protocols and the reports."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.plugins import load_plugins
from debates.engine.protocols import get_protocol, run_protocol
from debates.engine.protocols.adversarial.phases import AdversarialPhase
from debates.engine.protocols.adversarial.schemas import AdversarialResult, AskedCritique
from debates.engine.protocols.council.schemas import DebateResult
from debates.engine.protocols.workflow.schemas import WorkflowResult
from debates.engine.quality import panel
from debates.engine.quality.rules import BUILTIN_RULES, all_rules
from debates.engine.quality.text import EchoVocabulary, digit_run, empty, repetition
from debates.engine.quality.verdict import verdict
from debates.engine.schemas import Phase, Quality, QualityReason, Usage
from debates.engine.sim import generate
from debates.engine.state import DebateState

from .transcripts import FIXTURES, load, replay, replay_turns, state_of

QUESTIONS = {
    "en": "Should we migrate our billing service from MySQL to PostgreSQL this quarter?",
    "zh": "我们应该在本季度把计费服务从 MySQL 迁移到 PostgreSQL 吗？",
    "ja": "今四半期に課金サービスを MySQL から PostgreSQL に移行すべきですか？",
    "fr": "Devons-nous migrer notre service de facturation de MySQL vers PostgreSQL ce "
          "trimestre ?",
}
REAL = sorted((FIXTURES / "real_transcripts").glob("*.json"))
SOUND = sorted((FIXTURES / "sound_transcripts").glob("*.json"))


def simulated(protocol: str, question: str, mode: str = "quick", seed: int = 3) -> DebateState:
    config = resolve_config(protocol=protocol, mode=mode, seed=seed,
                            simulator={"seed": seed})
    state = DebateState(question=question, config=config)
    asyncio.run(run_protocol(state, EngineHooks()))
    return state


def built(state: DebateState):
    return get_protocol(state.config.protocol).build_result(state, Usage())


# --------------------------------------------------------------------------- rules


@pytest.mark.parametrize("text", ["1.2.1.1.1.1…", "quote: 1.2.1.4.1.1.1", "7-7-7-7-7"])
def test_a_run_of_chained_numbers_is_degenerate(text):
    assert digit_run(text) is not None


@pytest.mark.parametrize("text", ["192.168.1.1", "version 1.2.3", "on 2024-01-15",
                                  "3 of 5 agents", "2,000 requests per second"])
def test_addresses_versions_dates_and_figures_are_not(text):
    assert digit_run(text) is None


def test_text_that_keeps_saying_the_same_words_is_degenerate():
    assert repetition("Why this is why he is why he is why he is why he is why he is why")
    assert repetition("Begin dual writes this quarter and cut over to PostgreSQL right "
                      "after the audit, once the dry-run reconciliation matches.") is None


def test_a_schema_name_an_enum_value_the_question_or_the_prompt_copied_is_an_echo():
    echo = EchoVocabulary(["key_agreement", "same_direction"], "Should we adopt Kafka?",
                          ["Give an overall assessment in one or two sentences of the "
                           "current version."])
    assert echo.echo("same direction")
    assert echo.echo("Key_agreement")
    assert echo.echo("should we adopt kafka")
    assert echo.echo("Give an overall assessment in one or two sentences")
    assert echo.echo("Adopt Kafka for the event bus once the team has run it in staging") is None


@pytest.mark.parametrize("text", ["Backere", "Ankle", "", " ", "数据"])
def test_a_prose_field_of_one_word_is_empty(text):
    assert empty(text) is not None


@pytest.mark.parametrize("text", ["Database operations", "数据库运维专家", "AI 战略"])
def test_a_phrase_is_not(text):
    assert empty(text) is None


def test_placeholder_and_repeated_names_fire_and_a_real_panel_does_not():
    assert panel.names(["Namen", "Namen (2)", "Namen (3)"])
    assert panel.names(["Ann Lee", "Ann Lee (2)"])
    assert panel.names(["Priya Raman", "Marco Bellini", "Aiko Tanaka"]) == []


def test_confidences_at_the_extremes_or_frozen_fire_and_moving_ones_do_not():
    assert panel.confidences([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]])[0].rule == \
        "confidence.extreme"
    assert panel.confidences([[0.5, 0.5], [0.5, 0.5]])[0].rule == "confidence.frozen"
    assert panel.confidences([[0.6, 0.65], [0.7, 0.7], [0.5, 0.55]]) == []
    # One round of positions only, every agent at 0.7: nothing could move yet.
    assert panel.confidences([[0.7], [0.7]]) == []


def test_identical_stances_fire_and_different_ones_do_not():
    assert panel.stances(["Migrate now.", "migrate now", "Migrate NOW!"], "p", "position", 0)
    assert panel.stances(["Migrate now.", "Wait a quarter.", "Migrate after the audit."],
                         "p", "position", 0) == []


def test_a_quote_nowhere_in_the_debate_is_unfound():
    corpus = "Two earlier migrations finished in four weeks with logical replication."
    found = panel.quotes([("q1", "finished in four weeks", "verify", 0, None),
                          ("q2", "123.45.6.7", "verify", 0, None),
                          ("q3", "the vendor guarantees five nines", "verify", 0, None)],
                         corpus)
    assert [r.where for r in found] == ["q2", "q3"]


def test_a_paraphrased_quote_is_found():
    corpus = "Two earlier migrations finished in four weeks with logical replication."
    assert panel.quotes([("q", "the earlier migrations took about four weeks", "verify", 0,
                          None)], corpus) == []


def test_short_labels_may_be_one_word():
    recorded = load(FIXTURES / "sound_transcripts" / "adversarial-en-rate-limiter.json")
    critique = next(t for t in recorded["turns"] if t["phase"] == "critique")
    critique["payload"]["issues"][0]["title"] = "Availability"
    assert replay(recorded).quality is Quality.SOUND


def _reason(rule: str) -> QualityReason:
    return QualityReason(rule=rule, severity=all_rules()[rule].severity, where="w", evidence="e")


def test_the_verdict_combines_as_documented():
    assert verdict([], 10, 0) is Quality.SOUND
    assert verdict([_reason("empty_content.one_word")], 10, 1) is Quality.DOUBTFUL
    assert verdict([_reason("degenerate_decision")], 10, 1) is Quality.UNUSABLE
    # Most turns flagged, or three different rules: noise everywhere.
    assert verdict([_reason("empty_content.one_word")], 10, 6) is Quality.UNUSABLE
    assert verdict([_reason("empty_content.one_word"), _reason("confidence.frozen"),
                    _reason("stances.identical")], 10, 1) is Quality.UNUSABLE


def test_every_rule_is_in_the_docs_table_with_its_severity():
    doc = (Path(__file__).parents[2] / "docs" / "engine.md").read_text()
    assert list(all_rules().values())[:len(BUILTIN_RULES)] == list(BUILTIN_RULES)
    for rule in BUILTIN_RULES:
        assert f"| `{rule.name}` | {rule.severity} |" in doc, rule.name


# --------------------------------------------------------------------------- no false alarms


@pytest.mark.parametrize("language", sorted(QUESTIONS))
@pytest.mark.parametrize("protocol", ["council", "adversarial", "workflow"])
def test_a_simulated_debate_is_sound(protocol, language):
    result = built(simulated(protocol, QUESTIONS[language]))
    assert result.language == language
    assert (result.quality, result.quality_reasons) == (Quality.SOUND, [])
    assert result.summary.quality is Quality.SOUND


@pytest.mark.parametrize("mode", ["medium", "deep"])
@pytest.mark.parametrize("protocol", ["council", "adversarial", "workflow"])
def test_a_longer_simulated_debate_is_sound(protocol, mode):
    result = built(simulated(protocol, QUESTIONS["en"], mode=mode, seed=11))
    assert result.quality is Quality.SOUND, result.quality_reasons


@pytest.mark.parametrize("path", SOUND, ids=lambda p: p.stem)
def test_a_sensible_hand_written_transcript_is_sound(path):
    result = replay(load(path))
    assert result.quality_reasons == []
    assert result.quality is Quality.SOUND
    assert not result.degraded


def test_there_are_sensible_transcripts_of_every_protocol():
    assert {p.stem.split("-")[0] for p in SOUND} == {"council", "adversarial", "workflow"}


# --------------------------------------------------------------------------- real transcripts

# The rules each recorded transcript must trip (and its verdict): tuned on these. A
# debate that failed has no result: its turns alone are judged, and "failed: ..." names
# the failure it must end in (the critic's empty critique under counts, since the
# checks, or a timeout below quorum).
EXPECTED = {
    "gemma3-council": ("unusable", {"empty_content.one_word", "confidence.extreme"}),
    "gemma3-council-checked": ("unusable", {"degenerate_decision", "confidence.extreme"}),
    "gemma3-adversarial": ("unusable", {"degenerate_decision", "empty_content.one_word"}),
    "gemma3-adversarial-checked": ("unusable", {"degenerate_decision"}),
    "gemma3-workflow": ("unusable", {"degenerate_decision", "contracts.none_met",
                                     "degenerate_text.echo"}),
    "gemma3-workflow-checked": ("failed: below quorum", {"empty_content.one_word"}),
    "smollm2-adversarial": ("unusable", {"counts.false_convergence", "degenerate_decision",
                                         "evidence.unfound_quote"}),
    # A proposal of "}, " that the critic let converge.
    "smollm2-adversarial-ci-checked": ("unusable", {"degenerate_decision"}),
    "smollm2-adversarial-checked": ("failed: the critic failed in round 1", set()),
    "smollm2-adversarial-go-checked": ("failed: the critic failed in round 2", set()),
    "smollm2-adversarial-kafka-checked": ("failed: the critic failed in round 4",
                                          {"degenerate_text.digit_run"}),
    "smollm2-workflow": ("unusable", {"contracts.none_met", "degenerate_text.repetition",
                                      "empty_content.one_word"}),
    "smollm2-workflow-checked-run2": ("unusable", {"contracts.none_met",
                                                   "degenerate_decision"}),
    "smollm2-workflow-checked": ("failed: below quorum", set()),
    "smollm2-council-checked-run2": ("unusable", {"agents.placeholder_name",
                                                  "confidence.extreme", "degenerate_decision",
                                                  "degenerate_text.digit_run"}),
    # Issue 42's Qwen runs with a source (docs/models.md): the 0.5B's junk, and the
    # 1.5B's stances "against" with the verdict "conditional".
    "qwen05-council-source": ("unusable", {
        "decision.missing", "degenerate_text.echo", "degenerate_text.repeated_items",
        "agents.placeholder_name", "stances.contradict_verdict"}),
    "qwen15-council-source": ("doubtful", {"stances.contradict_verdict"}),
    # Their synthesis timed out.
    "smollm2-council": ("failed: the synthesis failed", {
        "degenerate_text.digit_run", "degenerate_text.echo", "degenerate_text.repetition",
        "empty_content.one_word", "agents.placeholder_name"}),
    "smollm2-council-run2": ("failed: the synthesis failed", {
        "degenerate_text.digit_run", "degenerate_text.repetition", "agents.placeholder_name"}),
    "smollm2-council-checked": ("failed: the synthesis failed", {
        "degenerate_text.repetition", "agents.placeholder_name"}),
}


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_a_recorded_real_transcript_is_flagged_by_the_rules_that_should_fire(path):
    recorded = load(path)
    expected, expected_rules = EXPECTED[path.stem]
    if recorded.get("result") is None:
        state = state_of(recorded)
        failure = get_protocol(state.config.protocol).failure(state)
        assert failure is not None and failure.startswith(expected.removeprefix("failed: "))
        if "critic failed" in expected:
            assert "claimed_counts count issues but issues is empty" in failure
        _, rules = replay_turns(recorded)
    else:
        result = replay(recorded)
        assert result.quality.value == expected
        rules = [r.rule for r in result.quality_reasons]
        # Recorded before the checks it claimed to be sound; recorded since (the
        # "-checked" runs), by the checks as they were then.
    assert expected_rules <= set(rules)


def test_every_recorded_transcript_has_its_expectation():
    assert {p.stem for p in REAL} <= set(EXPECTED)


# --------------------------------------------------------------------------- what follows


def test_a_critique_whose_counts_claim_issues_it_does_not_list_fails_validation():
    with pytest.raises(ValueError, match="claimed_counts count issues but issues is empty"):
        AskedCritique.model_validate({"assessment": "ok", "issues": [],
                                      "claimed_counts": {"red": 2, "yellow": 4}})
    AskedCritique.model_validate({"assessment": "ok", "issues": [],
                                  "claimed_counts": {"red": 0, "yellow": 0}})
    assert AskedCritique.__name__ == "Critique"


def test_an_empty_critique_claiming_issues_is_a_failed_critic_turn_not_convergence(
        monkeypatch):
    def empty_critique(ctx):
        return {"assessment": "Looks fine.", "resolutions": [], "issues": [],
                "claimed_counts": {"red": 2, "yellow": 4, "green": 0}}

    load_plugins()  # the generators register when the plugins load
    schema, _ = generate._GENERATORS["Critique"]
    monkeypatch.setitem(generate._GENERATORS, "Critique", (schema, empty_critique))
    state = simulated("adversarial", QUESTIONS["en"])
    protocol = get_protocol("adversarial")
    failure = protocol.failure(state)
    assert failure is not None and "critic failed in round 1" in failure
    assert "claimed_counts" in failure
    assert protocol.stop(state) is None  # never read as converged


def test_a_stored_critique_whose_counts_contradict_its_issues_is_doubtful():
    state = simulated("adversarial", QUESTIONS["en"])
    turn = state.turn(AdversarialPhase.CRITIQUE, 1, 1)
    assert turn is not None and turn.payload is not None
    turn.payload["claimed_counts"] = {"red": 5, "yellow": 0, "green": 0}
    result = built(state)
    assert isinstance(result, AdversarialResult)
    assert [r.rule for r in result.quality_reasons] == ["counts.contradict"]
    assert result.quality is Quality.DOUBTFUL
    assert (result.quality_reasons[0].phase, result.quality_reasons[0].round) == \
        ("critique", 1)


def test_a_workflow_where_no_role_met_its_contract_is_degraded_and_not_converged():
    result = replay(load(FIXTURES / "real_transcripts" / "gemma3-workflow.json"))
    assert isinstance(result, WorkflowResult)
    assert result.contract_failures == len(result.contract_checks) > 0
    assert result.degraded
    assert result.convergence.status == "divergent"
    assert result.summary.decision is None
    assert "no role met its phase 2 contract" in " ".join(result.degraded_notes)


def test_an_unusable_report_says_so_first_and_labels_the_decision_not_to_be_acted_on():
    state = simulated("council", QUESTIONS["en"])
    result = built(state)
    assert isinstance(result, DebateResult) and result.recommended_path is not None
    protocol = get_protocol("council")
    assert "Quality" not in protocol.render_markdown(result)  # sound: as before
    result.quality = Quality.UNUSABLE
    result.quality_reasons = [_reason("degenerate_decision")]
    lines = protocol.render_markdown(result).splitlines()
    assert lines[1].startswith("**Quality:** **unusable**")
    assert "degenerate_decision" in lines[1]
    path_at = lines.index("## Recommended path")
    assert lines[path_at + 2].startswith("*Not to be acted on")


@pytest.mark.parametrize("name", ["smollm2-adversarial", "gemma3-workflow"])
def test_every_protocols_report_of_an_unusable_result_says_so(name):
    result = replay(load(FIXTURES / "real_transcripts" / f"{name}.json"))
    text = get_protocol(result.protocol).render_markdown(result)
    assert text.splitlines()[1].startswith("**Quality:** **unusable**")
    assert "*Not to be acted on" in text


def test_a_chinese_report_says_it_in_chinese():
    result = built(simulated("workflow", QUESTIONS["zh"]))
    result.quality = Quality.DOUBTFUL
    result.quality_reasons = [_reason("empty_content.one_word")]
    assert "**质量:** **存疑**" in get_protocol("workflow").render_markdown(result)


# --------------------------------------------------------------------------- the judge


class _Ledger(EngineHooks):
    def __init__(self) -> None:
        self.calls: list = []

    async def on_call(self, record) -> None:
        self.calls.append(record)


def judged(protocol: str, judge_model: str | None) -> tuple[DebateState, _Ledger]:
    config = resolve_config(protocol=protocol, mode="quick", seed=3, simulator={"seed": 3},
                            judge_model=judge_model)
    state = DebateState(question=QUESTIONS["en"], config=config)
    hooks = _Ledger()
    asyncio.run(run_protocol(state, hooks))
    return state, hooks


def test_without_a_judge_model_no_judge_is_called():
    state, hooks = judged("council", None)
    assert state.turn(Phase.JUDGE) is None
    assert all(c.phase is not Phase.JUDGE for c in hooks.calls)


@pytest.mark.parametrize("protocol", ["council", "adversarial", "workflow"])
def test_a_judge_grades_the_synthesis_on_its_own_ledger_line(protocol):
    state, hooks = judged(protocol, "sim/judge")
    judge_calls = [c for c in hooks.calls if c.phase is Phase.JUDGE]
    assert [c.model for c in judge_calls] == ["sim/judge"]
    assert get_protocol(protocol).next_step(state) is None
    result = built(state)
    assert result.quality is Quality.SOUND  # the simulator's judge finds it good


@pytest.mark.parametrize("protocol", ["council", "workflow"])
def test_a_poor_grade_becomes_a_reason(protocol, monkeypatch):
    load_plugins()
    schema, _ = generate._GENERATORS["JudgeGrade"]
    monkeypatch.setitem(generate._GENERATORS, "JudgeGrade", (schema, lambda ctx: {
        "grade": "poor", "reason": "The report repeats its field names."}))
    state, _ = judged(protocol, "sim/judge")
    result = built(state)
    assert [r.rule for r in result.quality_reasons] == ["judge.poor"]
    assert result.quality is Quality.DOUBTFUL
    assert "repeats its field names" in result.quality_reasons[0].evidence


def test_a_judge_that_fails_leaves_the_result_degraded_not_failed():
    state, _ = judged("adversarial", "sim/down")
    protocol = get_protocol("adversarial")
    assert protocol.failure(state) is None
    result = built(state)
    assert result.degraded and any("the judge failed" in n for n in result.degraded_notes)


def test_one_more_round_drops_the_old_grade_with_the_old_synthesis():
    state, _ = judged("council", "sim/judge")
    state.view.request_more_round()
    assert state.turn(Phase.JUDGE) is None
    assert state.turn(Phase.SYNTHESIS) is None


# --------------------------------------------------------------------------- a plugin's rules


def test_a_registered_rule_with_a_check_judges_the_protocols_it_names(monkeypatch):
    from debates.engine.quality import rules as registry
    from debates.engine.quality.rules import Finding, Rule

    monkeypatch.setattr(registry, "_RULES", dict(registry.all_rules()))

    def long_question(state, result):
        yield Finding(where="the question", evidence=result.question)

    registry.register_rule(Rule("test.question", "unusable", "any question", "a test",
                                check=long_question, protocols=("adversarial",)))
    council = built(simulated("council", QUESTIONS["en"]))
    adversarial = built(simulated("adversarial", QUESTIONS["en"]))
    assert council.quality is Quality.SOUND
    assert adversarial.quality is Quality.UNUSABLE
    assert [(r.rule, r.where) for r in adversarial.quality_reasons] == \
        [("test.question", "the question")]
    with pytest.raises(ValueError, match="another content rule named 'test.question'"):
        registry.register_rule(Rule("test.question", "doubtful", "", ""))
