"""The adversarial protocol's calls in the worst case (docs/teams.md, "Cost"): a
proposal and a critique in each round up to the round cap (the critic never lets it
converge), then the synthesis, the verifier and, when a judge model is set, the judge:
2 x max_rounds + 2 (+ 1). Its panel is fixed: given personas change nothing. Retries and
repairs are not counted; they only happen on failures.

A revision carries the previous version and the critique of it, a critique the version
it examines and the issues raised so far, and the synthesis every round's history and
the final version, so later calls are longer."""

from __future__ import annotations

from ...schemas import DebateConfig
from ..base import PlannedCall
from ..estimate import closing_calls
from .phases import AdversarialPhase

# Approximate tokens per call (prompt, completion), before the question is added.
PROPOSE = (450, 600)
PROPOSE_REVISION = 300  # the critique fed back, besides the previous version
CRITIQUE = (600, 600)  # the version it examines is added
CRITIQUE_PER_EARLIER_ROUND = 200  # the issues raised so far
SYNTHESIS = (700, 900)  # the final version is added
SYNTHESIS_PER_ROUND = 300  # each round's summary and issues
PROPOSER, CRITIC = 0, 1  # the agents as the protocol numbers them


def planned_calls(config: DebateConfig, *, agents_given: int,
                  question_tokens: int) -> list[PlannedCall]:
    del agents_given  # a proposer and a critic, whatever was given
    q, version = question_tokens, PROPOSE[1]
    calls: list[PlannedCall] = []
    for r in range(1, config.round_cap + 1):
        revision = version + PROPOSE_REVISION if r > 1 else 0
        calls.append(PlannedCall(AdversarialPhase.PROPOSE, PROPOSE[0] + q + revision,
                                 PROPOSE[1], PROPOSER))
        calls.append(PlannedCall(
            AdversarialPhase.CRITIQUE,
            CRITIQUE[0] + q + version + CRITIQUE_PER_EARLIER_ROUND * (r - 1),
            CRITIQUE[1], CRITIC))
    return calls + closing_calls(
        config,
        synthesis_prompt=(SYNTHESIS[0] + q + version
                          + SYNTHESIS_PER_ROUND * config.round_cap),
        synthesis_completion=SYNTHESIS[1])
