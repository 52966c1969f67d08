"""Every schema the engine sends stays within llama.cpp's grammar limits (see
``llama_grammar``, which converts a schema as llama.cpp does and applies its parser's
repetition bound)."""

from __future__ import annotations

from typing import Any

import pytest

from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.llm.gateway import format_params, json_schema_of, sent_schema
from debates.engine.llm.grammar_limits import GRAMMAR_MAX_REPEAT, grammar_safe
from debates.engine.llm.loader import litellm_module
from debates.engine.protocols import run_protocol
from debates.engine.protocols.adversarial.phases import AdversarialPhase
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.schemas import ComposedPanel, composed_panel_of
from debates.engine.protocols.workflow.phases import WorkflowPhase
from debates.engine.schemas import MAX_AGENTS, Mode, PersonaText, Phase
from debates.engine.sim import simulator
from debates.engine.state import DebateState

from .llama_grammar import (
    MAX_REPETITION_THRESHOLD,
    REPETITION_REFUSAL,
    parse_gbnf,
    refusal,
    schema_to_gbnf,
)

litellm = litellm_module()

# ------------------------------------------------------------------ the converter itself


def test_the_converter_writes_llama_cpps_grammar_for_a_bounded_list_and_string() -> None:
    schema = {"type": "object", "properties": {
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 12},
                 "minItems": 3, "maxItems": 5}}, "required": ["tags"]}
    grammar = schema_to_gbnf(schema).splitlines()
    assert 'tags ::= "[" space tags-item ("," space tags-item){2,4} "]" space' in grammar
    assert 'tags-item ::= "\\"" char{0,12} "\\"" space' in grammar
    assert 'root ::= "{" space tags-kv "}" space' in grammar
    assert parse_gbnf("\n".join(grammar)) > len(grammar)


def test_the_parser_refuses_a_repetition_that_reaches_the_threshold() -> None:
    def text(most: int) -> dict[str, Any]:
        return {"type": "string", "minLength": 1, "maxLength": most}

    assert refusal(text(MAX_REPETITION_THRESHOLD - 1)) is None
    assert refusal(text(MAX_REPETITION_THRESHOLD)) == REPETITION_REFUSAL
    # A list that may be empty is "(item (sep item){0,max-1})?": the optional group
    # counts the rules unrolled inside it.
    listed = {"type": "array", "items": {"type": "string"}}
    assert refusal({**listed, "maxItems": GRAMMAR_MAX_REPEAT}) is None
    assert refusal({**listed, "maxItems": MAX_REPETITION_THRESHOLD}) == REPETITION_REFUSAL
    # A repeated group counts every rule made inside it, its own repetitions too.
    assert parse_gbnf('root ::= ("a"{0,500}){0,3}') > 500
    with pytest.raises(ValueError, match="exceeds sane defaults"):
        parse_gbnf('root ::= ("a"{0,500}){0,4}')


def test_the_compose_schema_as_it_was_sent_is_refused_by_llama_cpp() -> None:
    # What the real server showed: persona texts of up to 2000 characters.
    for n in (3, 5, 7):
        assert refusal(json_schema_of(composed_panel_of(n))) == REPETITION_REFUSAL


# ------------------------------------------------------------------ the sent schema


def test_grammar_safe_caps_only_the_counts_and_leaves_the_input_alone() -> None:
    original = json_schema_of(composed_panel_of(4))
    safe = grammar_safe(original)
    personas = safe["properties"]["personas"]
    assert (personas["minItems"], personas["maxItems"]) == (4, 4)
    fields = personas["items"]["properties"]
    assert fields["name"]["maxLength"] == 80
    assert fields["bias"] == {**original["properties"]["personas"]["items"]["properties"]
                              ["bias"], "maxLength": GRAMMAR_MAX_REPEAT}
    assert original["properties"]["personas"]["items"]["properties"]["bias"]["maxLength"] \
        == 2000
    assert grammar_safe({"type": "array", "minItems": 5000, "maxItems": 9000}) == {
        "type": "array", "minItems": GRAMMAR_MAX_REPEAT, "maxItems": GRAMMAR_MAX_REPEAT}


@pytest.mark.parametrize("mode", ["json_schema", "json_object", "tools"])
def test_every_request_mode_carries_the_grammar_safe_schema(mode: str) -> None:
    params = format_params(mode, ComposedPanel)  # type: ignore[arg-type]
    sent = (params["response_format"]["json_schema"]["schema"] if mode == "json_schema"
            else params["response_format"]["schema"] if mode == "json_object"
            else params["tools"][0]["function"]["parameters"])
    assert sent == sent_schema(ComposedPanel)
    assert refusal(sent) is None


@pytest.mark.parametrize("max_text_chars", [None, 100, 2000, 5000])
def test_max_text_chars_of_any_size_stays_within_the_limits(max_text_chars: int | None) -> None:
    assert refusal(sent_schema(composed_panel_of(MAX_AGENTS), max_text_chars)) is None


def test_validation_keeps_the_real_limits() -> None:
    long = "x" * (GRAMMAR_MAX_REPEAT + 1)
    persona = {"name": "Ann", "background": long, "expertise": "e", "approach": "a",
               "bias": "b"}
    assert PersonaText.model_validate(persona).background == long
    with pytest.raises(ValueError):
        PersonaText.model_validate({**persona, "background": "x" * 2001})


PROTOCOL_PHASES = {
    "council": {CouncilPhase.COMPOSE, CouncilPhase.PREMORTEM, CouncilPhase.POSITION,
                CouncilPhase.CROSS_EXAM,
                Phase.SYNTHESIS, Phase.VERIFY},
    "adversarial": {AdversarialPhase.PROPOSE, AdversarialPhase.CRITIQUE, Phase.SYNTHESIS,
                    Phase.VERIFY},
    "workflow": {WorkflowPhase.ANALYSIS, WorkflowPhase.DISCUSSION, WorkflowPhase.CONVERGENCE},
}


@pytest.mark.parametrize("agents", range(3, 8))
@pytest.mark.parametrize("protocol", sorted(PROTOCOL_PHASES))
async def test_every_schema_the_engine_sends_is_one_llama_cpp_accepts(
    protocol: str, agents: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole debate of every protocol in json_schema mode, default settings: every
    request's schema converts to a grammar llama.cpp's parser takes."""
    simulator.handler.reset()
    sent: list[tuple[str, dict[str, Any]]] = []
    real = litellm.acompletion

    async def spy(**kwargs: Any) -> Any:
        council = kwargs["metadata"]["council"]
        sent.append((council["phase"], kwargs["response_format"]["json_schema"]["schema"]))
        return await real(**kwargs)

    monkeypatch.setattr(litellm, "acompletion", spy)
    config = resolve_config(protocol=protocol, agents=agents, output_mode="json_schema",
                          mode=Mode.DEEP, max_rounds=2)
    state = DebateState(question="Should we migrate billing to PostgreSQL this quarter?",
                        config=config)
    await run_protocol(state, EngineHooks())

    phases = {Phase(phase) for phase, _ in sent}
    assert PROTOCOL_PHASES[protocol] <= phases
    refused = {(phase, refusal(schema)) for phase, schema in sent} - {
        (phase, None) for phase, _ in sent}
    assert refused == set()

