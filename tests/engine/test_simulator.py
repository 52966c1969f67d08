"""The built-in simulated model: determinism, valid output, faults, latency, scripts."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from debates.engine.llm.gateway import CallFailed, LLMGateway
from debates.engine.llm.loader import litellm_module
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.schemas import (
    ComposedPanel,
    CrossExamination,
    Position,
    Premortem,
    SynthesisNarrative,
)
from debates.engine.schemas import CallTag, SimulatorOptions, VerifierReport
from debates.engine.sim import simulator
from debates.engine.sim.simulator import (
    DOWN_MESSAGE,
    load_sim_script,
    parse_faults,
    salient_phrases,
    simulator_options_from_env,
)

litellm = litellm_module()

QUESTION = "Should we migrate our billing service from MySQL to PostgreSQL next quarter?"
QUESTION_ZH = "我们是否应该在下个季度把计费服务从MySQL迁移到PostgreSQL？"
# The languages with their own (smaller) banks: sim_data/lang_<code>.yaml.
QUESTIONS_EXTRA = [
    ("請求サービスを来四半期にMySQLからPostgreSQLへ移行すべきですか？", "ja"),
    ("다음 분기에 결제 서비스를 MySQL에서 PostgreSQL로 옮겨야 할까요?", "ko"),
    ("Devrions-nous migrer notre service de facturation de MySQL vers PostgreSQL ?", "fr"),
    ("Sollten wir unseren Abrechnungsdienst von MySQL auf PostgreSQL umstellen?", "de"),
]
AGENTS = ["Dana Reyes", "Miguel Okafor", "Priya Lindqvist"]

SCRIPT: dict[str, Any] = {
    "agents": [
        {
            "name": "Dana Reyes",
            "position_confidence": 0.62,
            "fail_in": ["premortem", "cross_exam:2"],
            "rounds": [
                {
                    "updated_confidence": 0.65,
                    "concessions": ["Fair point on cost"],
                    "remaining_disagreements": ["Timeline is unrealistic"],
                    "new_evidence_needed": ["A migration dry run"],
                },
                {"updated_confidence": None},
            ],
        },
        {"name": "Miguel Okafor", "position_confidence": 0.3, "rounds": [{}]},
    ]
}


@pytest.fixture(autouse=True)
def _fresh_counters(monkeypatch: pytest.MonkeyPatch) -> None:
    simulator.handler.reset()
    # A developer's own COUNCIL_SIM_* settings must not leak into these tests.
    for variable in ("COUNCIL_SIM_LATENCY_MS", "COUNCIL_SIM_FAULTS", "COUNCIL_SIM_SCRIPT"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.delenv("COUNCIL_SIM_SEED", raising=False)


def hints_for(schema: str, question: str = QUESTION, language: str = "en") -> dict[str, Any]:
    by_schema: dict[str, dict[str, Any]] = {
        "ComposedPanel": {"n": 5, "question": question, "language": language, "reserved_names": []},
        "Premortem": {"question": question},
        "Position": {"question": question},
        "CrossExamination": {
            "round": 1,
            "own_confidence": 0.7,
            "peer_mean": 0.5,
            "question": question,
        },
        "SynthesisNarrative": {
            "question": question,
            "language": language,
            "agent_names": AGENTS,
            "risk_ids": ["R1", "R2", "R3"],
            "stop_reason": "converged",
        },
        "VerifierReport": {
            "text": "Managed PostgreSQL costs $0.40 per hour. Most teams finish in 3 weeks. "
            "Billing downtime must stay near zero."
        },
    }
    return by_schema[schema]


PHASE_OF = {
    "ComposedPanel": "compose",
    "Premortem": "premortem",
    "Position": "position",
    "CrossExamination": "cross_exam",
    "SynthesisNarrative": "synthesis",
    "VerifierReport": "verify",
}
SCHEMAS: dict[str, type[BaseModel]] = {
    "ComposedPanel": ComposedPanel,
    "Premortem": Premortem,
    "Position": Position,
    "CrossExamination": CrossExamination,
    "SynthesisNarrative": SynthesisNarrative,
    "VerifierReport": VerifierReport,
}


def metadata(
    schema: str,
    hints: dict[str, Any] | None = None,
    *,
    agent_name: str | None = "Dana Reyes",
    round_: int | None = None,
    options: SimulatorOptions | None = None,
) -> dict[str, Any]:
    hints = hints_for(schema) if hints is None else hints
    if round_ is None:
        round_ = int(hints.get("round", 0))
    return {
        "council": {
            "schema": schema,
            "phase": PHASE_OF.get(schema, "position"),
            "round": round_,
            "agent": 0,
            "agent_name": agent_name,
            "hints": hints,
            "simulator": (options or SimulatorOptions()).model_dump(),
        }
    }


def plan(schema: str, model: str = "sim/default", seed: int | None = None, **kwargs: Any) -> Any:
    """The simulator's decision for one call, without going through litellm."""
    optional = {"seed": seed} if seed is not None else {}
    return simulator.handler.plan(
        model,
        [{"role": "user", "content": "prompt"}],
        {"metadata": metadata(schema, **kwargs)},
        optional,
    )


def generate(schema: str, **kwargs: Any) -> Any:
    result = plan(schema, **kwargs)
    assert result.error is None, result.error
    return SCHEMAS[schema].model_validate_json(result.text)


async def acall(schema: str, model: str = "sim/default", **kwargs: Any) -> str:
    response = await litellm.acompletion(
        model=model,
        messages=[{"role": "user", "content": "prompt"}],
        metadata=metadata(schema, **kwargs),
        num_retries=0,
        max_retries=0,
    )
    return response.choices[0].message.content or ""


def cjk_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    return sum(1 for c in letters if "\u4e00" <= c <= "\u9fff") / max(1, len(letters))


def dice(a: str, b: str) -> float:
    stop = {"the", "a", "of", "to", "that", "is", "it", "in", "for", "on", "i", "me", "my"}
    ta = {w for w in re.findall(r"\w+", a.lower()) if w not in stop}
    tb = {w for w in re.findall(r"\w+", b.lower()) if w not in stop}
    return 2 * len(ta & tb) / (len(ta) + len(tb))


# --------------------------------------------------------------------------- determinism


@pytest.mark.parametrize("schema", list(SCHEMAS))
def test_same_seed_gives_the_same_output(schema: str) -> None:
    options = SimulatorOptions(seed=42)
    first = plan(schema, options=options).text
    simulator.handler.reset()
    assert plan(schema, options=options).text == first


@pytest.mark.parametrize("schema", [s for s in SCHEMAS if s != "VerifierReport"])
def test_a_different_seed_gives_different_output(schema: str) -> None:
    outputs = {plan(schema, options=SimulatorOptions(seed=seed)).text for seed in range(4)}
    assert len(outputs) > 1


def test_the_call_seed_also_varies_the_output() -> None:
    assert plan("Position", seed=1).text != plan("Position", seed=2).text


# --------------------------------------------------------------------------- validity


@pytest.mark.parametrize("schema", list(SCHEMAS))
@pytest.mark.parametrize(
    ("question", "language"), [(QUESTION, "en"), (QUESTION_ZH, "zh"), *QUESTIONS_EXTRA]
)
def test_every_schema_is_valid_across_many_seeds(schema: str, question: str, language: str) -> None:
    for seed in range(30):
        hints = hints_for(schema, question, language)
        if schema == "SynthesisNarrative" and seed % 2:
            hints["stop_reason"] = "genuine_disagreement"
        if schema == "CrossExamination":
            hints["round"] = 1 + seed % 4
        generate(schema, hints=hints, options=SimulatorOptions(seed=seed))


def test_position_confidence_stays_in_its_band() -> None:
    values = [generate("Position", options=SimulatorOptions(seed=s)).confidence for s in range(40)]
    assert all(0.35 <= v <= 0.85 for v in values)
    assert len(set(values)) > 10


# --------------------------------------------------------------------------- question-aware


@pytest.mark.parametrize("schema", [s for s in SCHEMAS if s != "VerifierReport"])
def test_output_uses_the_questions_own_words(schema: str) -> None:
    text = plan(schema).text
    assert any(word in text for word in ("billing", "MySQL", "PostgreSQL", "migrate"))


def test_salient_phrases_prefer_names_and_noun_phrases() -> None:
    phrases = salient_phrases(QUESTION)
    assert phrases[0] == "billing service"
    assert {"MySQL", "PostgreSQL"} <= set(phrases)
    assert "should" not in phrases
    assert "计费服务" in salient_phrases(QUESTION_ZH)
    assert salient_phrases("") == ["this decision"]


@pytest.mark.parametrize("schema", [s for s in SCHEMAS if s != "VerifierReport"])
def test_chinese_output_when_the_language_is_zh(schema: str) -> None:
    hints = hints_for(schema, QUESTION_ZH, "zh")
    result = plan(schema, hints=hints)
    payload = json.loads(result.text)
    prose = " ".join(
        str(v)
        for v in re.findall(r'"(?:[^"\\]|\\.)*"', json.dumps(payload, ensure_ascii=False))
        if not re.fullmatch(r'"[a-z_]+"', v)
    )
    assert cjk_share(prose) > 0.6


def test_the_language_is_detected_from_the_question_when_not_given() -> None:
    position = generate("Position", hints={"question": QUESTION_ZH})
    assert cjk_share(position.stance) > 0.6


def test_composed_personas_are_distinct_and_include_a_skeptic_and_another_frame() -> None:
    for seed in range(10):
        for n in (2, 3, 7, 12):
            hints = {"n": n, "question": QUESTION, "language": "en", "reserved_names": ["Ann Lee"]}
            panel = generate("ComposedPanel", hints=hints, options=SimulatorOptions(seed=seed))
            names = [p.name for p in panel.personas]
            assert len(names) == n == len(set(names))
            assert "Ann Lee" not in names
            approaches = " ".join(p.approach for p in panel.personas)
            assert "skeptical" in approaches
            frames = ("feedback loops", "what people do", "analogy")
            assert any(f in approaches for f in frames)


def test_composed_personas_avoid_reserved_names() -> None:
    hints = {"n": 12, "question": QUESTION, "language": "en", "reserved_names": []}
    names = [p.name for p in generate("ComposedPanel", hints=hints).personas]
    hints["reserved_names"] = names[:6]
    again = [p.name for p in generate("ComposedPanel", hints=hints).personas]
    assert not set(again) & set(names[:6])


# --------------------------------------------------------------------------- cross-exam


def test_cross_examination_moves_towards_the_peer_mean() -> None:
    closer = unchanged = 0
    for seed in range(60):
        hints = {"round": 1, "own_confidence": 0.8, "peer_mean": 0.4, "question": QUESTION}
        exam = generate("CrossExamination", hints=hints, options=SimulatorOptions(seed=seed))
        if exam.updated_confidence is None:
            unchanged += 1
        else:
            assert 0.4 <= exam.updated_confidence <= 0.8
            closer += 1
    assert closer > 30 and unchanged > 3


def test_round_one_item_counts_are_in_range() -> None:
    for seed in range(40):
        exam = generate("CrossExamination", options=SimulatorOptions(seed=seed))
        assert 1 <= len(exam.remaining_disagreements) <= 3
        assert len(exam.concessions) <= 2
        assert len(exam.new_evidence_needed) <= 2


def test_later_rounds_mostly_rephrase_earlier_items() -> None:
    repeated = new = concessions = 0
    for seed in range(30):
        options = SimulatorOptions(seed=seed)
        seen: list[str] = []
        previous: list[str] = []
        for round_ in (1, 2, 3):
            hints = {
                "round": round_,
                "own_confidence": 0.6,
                "peer_mean": 0.55,
                "question": QUESTION,
            }
            exam = generate("CrossExamination", hints=hints, options=options)
            items = exam.remaining_disagreements + exam.new_evidence_needed
            if round_ > 1:
                concessions += len(exam.concessions)
                for item in items:
                    assert item not in previous  # reworded, not copied from last round
                    if max(dice(item, old) for old in seen) >= 0.5:
                        repeated += 1
                    else:
                        new += 1
            seen += items
            previous = items
    assert repeated > 4 * new
    assert concessions < 20


# --------------------------------------------------------------------------- synthesis, verifier


def test_synthesis_follows_up_every_risk_and_names_agents() -> None:
    for seed in range(15):
        narrative = generate("SynthesisNarrative", options=SimulatorOptions(seed=seed))
        assert [f.risk_id for f in narrative.risk_follow_up] == ["R1", "R2", "R3"]
        assert narrative.disagreements
        for topic in narrative.disagreements:
            assert {v.agent for v in topic.views} <= set(AGENTS)
        assert narrative.recommended_path is not None
        assert narrative.divergence_report is None


def test_genuine_disagreement_gives_a_divergence_report_instead_of_a_path() -> None:
    hints = hints_for("SynthesisNarrative") | {"stop_reason": "genuine_disagreement"}
    narrative = generate("SynthesisNarrative", hints=hints)
    assert narrative.recommended_path is None
    assert narrative.divergence_report is not None
    camps = " ".join(c.agent for c in narrative.divergence_report.camps)
    assert all(name in camps for name in AGENTS)


def test_verifier_quotes_exact_substrings_of_the_text() -> None:
    text = hints_for("VerifierReport")["text"]
    counts = set()
    for seed in range(20):
        report = generate("VerifierReport", options=SimulatorOptions(seed=seed))
        counts.add(len(report.claims))
        for claim in report.claims:
            assert claim.quote in text
    assert counts == {0, 1, 2}
    assert generate("VerifierReport", hints={"text": ""}).claims == []


# --------------------------------------------------------------------------- faults


def faulty(kind: str) -> SimulatorOptions:
    return SimulatorOptions(faults={kind: 1.0})


@pytest.mark.parametrize(
    ("kind", "error"),
    [
        ("timeout", litellm.Timeout),
        ("rate_limit", litellm.RateLimitError),
        ("server_error", (litellm.InternalServerError, litellm.ServiceUnavailableError)),
    ],
)
async def test_error_faults_raise_the_matching_litellm_error(kind: str, error: Any) -> None:
    with pytest.raises(error):
        await acall("Position", options=faulty(kind))


async def test_malformed_json_fault_returns_text_that_is_not_json() -> None:
    text = await acall("Position", options=faulty("malformed_json"))
    assert text.startswith("{")
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


@pytest.mark.parametrize("schema", list(SCHEMAS))
async def test_schema_invalid_fault_returns_json_the_schema_rejects(schema: str) -> None:
    text = await acall(schema, options=faulty("schema_invalid"))
    json.loads(text)
    with pytest.raises(ValidationError):
        SCHEMAS[schema].model_validate_json(text)


async def test_empty_fault_returns_an_empty_reply() -> None:
    assert await acall("Position", options=faulty("empty")) == ""


def test_faults_follow_their_rates_and_a_retry_can_succeed() -> None:
    options = SimulatorOptions(faults={"rate_limit": 0.5}, seed=3)
    outcomes = [plan("Position", options=options).error is None for _ in range(200)]
    assert 60 < sum(outcomes) < 140
    # The same call again is a retry: with a 50% rate it soon goes through.
    assert any(outcomes[:10])


def test_fault_sequences_are_reproducible() -> None:
    options = SimulatorOptions(faults={"rate_limit": 0.4, "empty": 0.2}, seed=9)
    first = [repr(plan("Position", options=options).error) for _ in range(20)]
    simulator.handler.reset()
    assert [repr(plan("Position", options=options).error) for _ in range(20)] == first


def test_a_repair_request_is_a_new_call_identity() -> None:
    options = SimulatorOptions(faults={"schema_invalid": 0.5}, seed=1)
    meta = {"metadata": metadata("Position", options=options)}
    call = [{"role": "user", "content": "prompt"}]
    repair = [*call, {"role": "assistant", "content": "x"}, {"role": "user", "content": "fix"}]
    simulator.handler.plan("default", call, meta, {})
    simulator.handler.plan("default", repair, meta, {})
    assert sorted(simulator.handler._attempts.values()) == [1, 1]


async def test_latency_is_honoured_and_calls_overlap() -> None:
    options = SimulatorOptions(latency_ms=1000)
    started = time.perf_counter()
    await acall("Position", options=options)
    assert time.perf_counter() - started >= 1
    started = time.perf_counter()
    await asyncio.gather(*(acall("Position", options=options) for _ in range(5)))
    # One after the other they could not take less than 5 s, however fast the machine;
    # overlapping they take about 1 s, and a loaded machine has 4 s to spare.
    assert time.perf_counter() - started < 5


def test_the_sync_completion_path_works() -> None:
    response = litellm.completion(
        model="sim/default",
        messages=[{"role": "user", "content": "prompt"}],
        metadata=metadata("Position", options=SimulatorOptions(latency_ms=10)),
    )
    Position.model_validate_json(response.choices[0].message.content)
    assert response.usage.prompt_tokens >= 1
    assert response.usage.completion_tokens > 10


# --------------------------------------------------------------------------- special models


async def test_sim_down_always_raises_service_unavailable() -> None:
    for _ in range(3):
        with pytest.raises(litellm.ServiceUnavailableError) as caught:
            await acall("Position", model="sim/down")
        assert DOWN_MESSAGE in str(caught.value)
        assert caught.value.status_code == 503


async def test_sim_junk_always_returns_junk() -> None:
    for schema in SCHEMAS:
        text = await acall(schema, model="sim/junk")
        assert text.strip() and "{" not in text


async def test_any_other_sim_name_behaves_normally() -> None:
    Position.model_validate_json(await acall("Position", model="sim/gpt-pretend"))


# --------------------------------------------------------------------------- scripts


def test_script_pins_position_confidences() -> None:
    options = SimulatorOptions(script=SCRIPT)
    assert generate("Position", options=options).confidence == 0.62
    assert generate("Position", options=options, agent_name="Miguel Okafor").confidence == 0.3
    unscripted = generate("Position", options=options, agent_name="Someone Else").confidence
    assert 0.35 <= unscripted <= 0.85


def test_script_pins_cross_examination_rounds_exactly() -> None:
    options = SimulatorOptions(script=SCRIPT)

    def exam(round_: int, agent: str = "Dana Reyes") -> CrossExamination:
        hints = {"round": round_, "own_confidence": 0.9, "peer_mean": 0.1, "question": QUESTION}
        return generate("CrossExamination", hints=hints, options=options, agent_name=agent)

    first = exam(1)
    assert first.updated_confidence == 0.65
    assert first.concessions == ["Fair point on cost"]
    assert first.remaining_disagreements == ["Timeline is unrealistic"]
    assert first.new_evidence_needed == ["A migration dry run"]
    for round_, agent in ((3, "Dana Reyes"), (1, "Miguel Okafor"), (2, "Miguel Okafor")):
        later = exam(round_, agent)
        assert later.updated_confidence is None
        assert later.concessions == later.remaining_disagreements == []
        assert later.new_evidence_needed == []


def test_script_names_are_used_for_composed_personas_in_order() -> None:
    options = SimulatorOptions(script=SCRIPT)
    hints = {"n": 3, "question": QUESTION, "language": "en", "reserved_names": []}
    names = [p.name for p in generate("ComposedPanel", hints=hints, options=options).personas]
    assert names[:2] == ["Dana Reyes", "Miguel Okafor"]
    hints["reserved_names"] = ["Dana Reyes"]
    names = [p.name for p in generate("ComposedPanel", hints=hints, options=options).personas]
    assert names[0] == "Miguel Okafor" and "Dana Reyes" not in names


async def test_script_fail_in_makes_those_calls_fail() -> None:
    options = SimulatorOptions(script=SCRIPT)
    for _ in range(3):
        with pytest.raises(litellm.InternalServerError):
            await acall("Premortem", options=options)
    with pytest.raises(litellm.InternalServerError):
        await acall("CrossExamination", hints={"round": 2, "question": QUESTION}, options=options)
    await acall("CrossExamination", hints={"round": 1, "question": QUESTION}, options=options)
    await acall("Premortem", options=options, agent_name="Miguel Okafor")


async def test_an_invalid_script_in_the_options_is_a_clear_bad_request() -> None:
    bad = SimulatorOptions(script={"agents": [{"name": "X", "position_confidence": 2}]})
    with pytest.raises(litellm.BadRequestError) as caught:
        await acall("Position", options=bad)
    assert "position_confidence" in str(caught.value)


def test_script_loader_reads_yaml_and_json(tmp_path: Path) -> None:
    yaml_file = tmp_path / "script.yaml"
    yaml_file.write_text(
        "agents:\n"
        "  - name: Dana Reyes\n"
        "    position_confidence: 0.62\n"
        "    fail_in: ['premortem', 'cross_exam:2']\n"
        "    rounds:\n"
        "      - {updated_confidence: 0.65, concessions: ['a']}\n"
        "      - {updated_confidence: null}\n",
        encoding="utf-8",
    )
    loaded = load_sim_script(yaml_file)
    assert loaded["agents"][0]["rounds"][0]["concessions"] == ["a"]
    assert loaded["agents"][0]["rounds"][1]["updated_confidence"] is None
    json_file = tmp_path / "script.json"
    json_file.write_text(json.dumps(SCRIPT), encoding="utf-8")
    assert load_sim_script(json_file)["agents"][1]["name"] == "Miguel Okafor"


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("missing.yaml", None, "cannot read"),
        ("broken.yaml", "agents: [unclosed", "not valid YAML"),
        ("broken.json", "{agents: []}", "not valid JSON"),
        ("list.yaml", "- name: Dana", "top level must be a mapping"),
        ("empty.yaml", "agents: []", "agents"),
        (
            "conf.yaml",
            "agents:\n  - name: Dana\n    position_confidence: 1.5\n",
            "agents[0].position_confidence",
        ),
        ("typo.yaml", "agents:\n  - name: Dana\n    confidance: 0.5\n", "confidance"),
        ("phase.yaml", "agents:\n  - name: Dana\n    fail_in: [rebuttal]\n", "unknown phase"),
        ("dupes.yaml", "agents:\n  - name: Dana\n  - name: Dana\n", "more than once"),
        (
            "round.yaml",
            "agents:\n  - name: Dana\n    rounds:\n      - {updated_confidence: 7}\n",
            "agents[0].rounds[0].updated_confidence",
        ),
    ],
)
def test_script_loader_errors_name_the_file_and_the_problem(
    tmp_path: Path, name: str, content: str | None, problem: str
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError) as caught:
        load_sim_script(path)
    assert str(path) in str(caught.value)
    assert problem in str(caught.value)


# --------------------------------------------------------------------------- environment


def test_options_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps(SCRIPT), encoding="utf-8")
    monkeypatch.setenv("COUNCIL_SIM_LATENCY_MS", "25")
    monkeypatch.setenv("COUNCIL_SIM_FAULTS", "timeout=0.1, rate_limit=0.05,empty=0")
    monkeypatch.setenv("COUNCIL_SIM_SCRIPT", str(script))
    monkeypatch.setenv("COUNCIL_SIM_SEED", "17")
    options = simulator_options_from_env()
    assert options.latency_ms == 25
    assert options.faults == {"timeout": 0.1, "rate_limit": 0.05, "empty": 0.0}
    assert options.seed == 17
    assert options.script is not None
    assert options.script["agents"][0]["name"] == "Dana Reyes"


async def test_environment_defaults_apply_when_no_options_are_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COUNCIL_SIM_FAULTS", "empty=1")
    meta = metadata("Position")
    meta["council"]["simulator"] = None
    response = await litellm.acompletion(
        model="sim/default", messages=[{"role": "user", "content": "p"}], metadata=meta
    )
    assert response.choices[0].message.content == ""
    # Options given with the call win over the environment.
    assert await acall("Position", options=SimulatorOptions()) != ""


async def test_environment_fills_only_the_options_a_gateway_did_not_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COUNCIL_SIM_FAULTS", "empty=1")
    tag = CallTag(phase=CouncilPhase.POSITION, agent=0, agent_name="Dana Reyes")
    messages = [{"role": "user", "content": QUESTION}]
    seeded_only = LLMGateway(simulator=SimulatorOptions(seed=3), backoff_base_s=0.001)
    with pytest.raises(CallFailed) as caught:
        await seeded_only.structured(Position, messages=messages, model="sim/default", tag=tag)
    assert caught.value.message == "the reply was empty"
    explicit = LLMGateway(simulator=SimulatorOptions(seed=3, faults={}))
    await explicit.structured(Position, messages=messages, model="sim/default", tag=tag)


def test_options_from_the_environment_take_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COUNCIL_SIM_LATENCY_MS", "40")
    monkeypatch.setenv("COUNCIL_SIM_SEED", "5")
    options = simulator_options_from_env(seed=9, script=None)
    assert (options.latency_ms, options.seed, options.script) == (40, 9, None)
    monkeypatch.delenv("COUNCIL_SIM_LATENCY_MS")
    monkeypatch.delenv("COUNCIL_SIM_SEED")
    assert simulator_options_from_env() == SimulatorOptions()


@pytest.mark.parametrize(
    ("variable", "value", "problem"),
    [
        ("COUNCIL_SIM_LATENCY_MS", "fast", "integer"),
        ("COUNCIL_SIM_LATENCY_MS", "-5", "negative"),
        ("COUNCIL_SIM_SEED", "x", "integer"),
        ("COUNCIL_SIM_FAULTS", "meteor=0.1", "unknown fault kind"),
        ("COUNCIL_SIM_FAULTS", "timeout=2", "between 0 and 1"),
        ("COUNCIL_SIM_FAULTS", "timeout", "kind=rate"),
    ],
)
def test_bad_environment_values_fail_loudly(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, problem: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=problem) as caught:
        simulator_options_from_env()
    assert variable in str(caught.value)


def test_parse_faults_accepts_every_kind() -> None:
    text = "timeout=0.1,rate_limit=0.05,server_error=0.1,malformed_json=0.1,"
    text += "schema_invalid=0.1,empty=0"
    assert set(parse_faults(text)) == set(simulator.FAULT_KINDS)
