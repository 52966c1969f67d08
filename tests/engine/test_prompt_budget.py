"""The prompts of a whole debate stay within the reference's token budget, at both of the
bench stub's answer lengths.

Issue 20: the seed reference agent-council sends 25.0k prompt tokens for 5 agents and
4 rounds on the bench's OpenAI-compatible stub (the ``sidebyside`` bench area); Council
sent 40.4k (the schema stated
in the prompt and in the request, every peer's opening reasoning again in every round,
every concession and disagreement of every round in the synthesis). Issue 30: with
answers of one full sentence per text field (about 720 characters a position) every
prompt that repeats an earlier answer grows, and agent-council sends 34.2k on that stub.
The same debate as ``python -m bench --only prompts`` runs here, over litellm's real
HTTP path; the stub's answers depend only on what each request is for, so the count is
exact and a prompt that grows shows here, not in a timing."""

from __future__ import annotations

import pytest

from bench.cli import ROUNDS
from bench.model_stub import ANSWER_LENGTHS
from bench.prompts import (
    OUTPUT_MODES,
    REFERENCE_COMPOSED_TOKENS,
    REFERENCE_TOKENS,
    measure_debate,
)


@pytest.mark.parametrize("answers", ANSWER_LENGTHS)
def test_a_five_agent_four_round_debate_sends_no_more_prompt_tokens_than_the_reference(
        answers):
    sizes = measure_debate(answers)
    assert sorted(sizes.cross_exam_chars) == list(range(1, ROUNDS + 1))
    assert all(len(agents) == 5 for agents in sizes.cross_exam_chars.values())
    assert sizes.synthesis_chars > 0
    reference = REFERENCE_TOKENS[answers]
    assert sizes.tokens <= reference, (
        f"{sizes.tokens} prompt tokens per debate ({answers} answers), above "
        f"agent-council's {reference}")


# Issue 39: in every output mode the engine can use. json_object names the schema's
# keys in the prompt on top of the schema the request carries, so it is the most a
# debate sends; it is also held with the panel the model composes, against the
# reference composing its own (one more call each).
@pytest.mark.parametrize("answers", ANSWER_LENGTHS)
@pytest.mark.parametrize("mode", OUTPUT_MODES)
def test_every_output_mode_sends_no_more_prompt_tokens_than_the_reference(mode, answers):
    sizes = measure_debate(answers, mode)
    assert sorted(sizes.cross_exam_chars) == list(range(1, ROUNDS + 1))
    reference = REFERENCE_TOKENS[answers]
    assert sizes.tokens <= reference, (
        f"{sizes.tokens} prompt tokens per debate in {mode} ({answers} answers), above "
        f"agent-council's {reference}")


@pytest.mark.parametrize("answers", ANSWER_LENGTHS)
def test_with_a_composed_panel_json_object_stays_within_the_reference(answers):
    sizes = measure_debate(answers, "json_object", composed=True)
    assert sizes.calls == 33 and sorted(sizes.cross_exam_chars) == list(range(1, ROUNDS + 1))
    reference = REFERENCE_COMPOSED_TOKENS[answers]
    assert sizes.tokens <= reference, (
        f"{sizes.tokens} prompt tokens with a composed panel ({answers} answers), above "
        f"agent-council's {reference}")
