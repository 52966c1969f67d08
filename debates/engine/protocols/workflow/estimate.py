"""The workflow's calls in the worst case (docs/teams.md, "Cost"): phase 1 (each role's
analysis), phase 2 (each role's discussion), the convergence check, in deep mode phase
2b and a second check (the first check never converges), then the synthesis, the
verifier and, when a judge model is set, the judge: 3 + 3 + 1 (+ 3 + 1) + 2 (+ 1). Its
roles are fixed: given personas and the round cap change nothing. Retries and repairs
are not counted; they only happen on failures.

A discussion carries every role's analysis, and the synthesis every analysis and
discussion, so those are the long prompts."""

from __future__ import annotations

from ...schemas import DebateConfig, Mode
from ..base import PANEL, PlannedCall
from ..estimate import closing_calls
from .contracts import ROLES
from .phases import WorkflowPhase

# Approximate tokens per call (prompt, completion), before the question is added.
ANALYSIS = (450, 500)
DISCUSSION = (500, 450)  # every role's analysis is added
CONVERGENCE = (600, 200)
REBUTTAL = (600, 300)
SYNTHESIS = (600, 700)  # every analysis and discussion is added


def planned_calls(config: DebateConfig, *, agents_given: int,
                  question_tokens: int) -> list[PlannedCall]:
    del agents_given  # a researcher, a critic and a synthesizer, whatever was given
    q, roles = question_tokens, range(len(ROLES))
    analyses = ANALYSIS[1] * len(ROLES)
    discussed = DISCUSSION[1] * len(ROLES)
    calls = [PlannedCall(WorkflowPhase.ANALYSIS, ANALYSIS[0] + q, ANALYSIS[1], i)
             for i in roles]
    calls += [PlannedCall(WorkflowPhase.DISCUSSION, DISCUSSION[0] + q + analyses,
                          DISCUSSION[1], i) for i in roles]
    calls.append(PlannedCall(WorkflowPhase.CONVERGENCE, CONVERGENCE[0] + q, CONVERGENCE[1],
                             PANEL))
    if config.mode is Mode.DEEP:  # phase 2b and its check
        calls += [PlannedCall(WorkflowPhase.DISCUSSION, REBUTTAL[0] + q, REBUTTAL[1], i)
                  for i in roles]
        calls.append(PlannedCall(WorkflowPhase.CONVERGENCE, CONVERGENCE[0] + q,
                                 CONVERGENCE[1], PANEL))
        discussed += REBUTTAL[1] * len(ROLES)
    return calls + closing_calls(
        config, synthesis_prompt=SYNTHESIS[0] + q + analyses + discussed,
        synthesis_completion=SYNTHESIS[1])
