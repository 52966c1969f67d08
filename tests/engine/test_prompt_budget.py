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
from bench.prompts import REFERENCE_TOKENS, measure_debate


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
