"""The prompts of a whole debate stay within the reference's token budget.

Issue 20: the seed reference agent-council sends 25.0k prompt tokens for 5 agents and
4 rounds on the bench's OpenAI-compatible stub (the ``sidebyside`` bench area); Council
sent 40.4k (the schema stated
in the prompt and in the request, every peer's opening reasoning again in every round,
every concession and disagreement of every round in the synthesis). The same debate
as ``python -m bench --only prompts`` runs here, over litellm's real HTTP path; the
stub's answers depend only on what each request is for, so the count is exact and a
prompt that grows shows here, not in a timing."""

from __future__ import annotations

from bench.cli import ROUNDS
from bench.prompts import REFERENCE_TOKENS, measure_debate


def test_a_five_agent_four_round_debate_sends_no_more_prompt_tokens_than_the_reference():
    sizes = measure_debate()
    assert sorted(sizes.cross_exam_chars) == list(range(1, ROUNDS + 1))
    assert all(len(agents) == 5 for agents in sizes.cross_exam_chars.values())
    assert sizes.synthesis_chars > 0
    assert sizes.tokens <= REFERENCE_TOKENS, (
        f"{sizes.tokens} prompt tokens per debate, above agent-council's {REFERENCE_TOKENS}")

