"""The council's content checks (docs/engine.md, "Content checks"): the text rules
over every turn with the recommendation as the decision, the composed panel's names,
the confidences, the stances, the verifier's quotes."""

from __future__ import annotations

from ... import prompts
from ...quality import TextPolicy, panel
from ...schemas import VerifierReport
from ...state import DebateState
from ..content import claim_quotes, corpus, judged, policy, read_turns
from ..judge import judge_reasons
from .phases import CouncilPhase
from .schemas import (
    ComposedPanel,
    CrossExamination,
    DebateResult,
    Position,
    Premortem,
    SynthesisNarrative,
)
from .state import step_label

PROMPTS = prompts.beside(__file__)  # its own templates, in ./prompts

# Fields a sentence belongs in; short labels (expertise, a root cause, a topic) may be
# one word and are left to the other rules.
PROSE = ("background", "approach", "bias", "failure_scenario", "stance", "reasoning",
         "reflection", "updated_position", "recommendation", "stakes", "strongest_evidence",
         "weakest_evidence", "summary", "view", "why")
TEMPLATES = ("compose", "premortem", "position", "cross_exam", "synthesis", "verifier",
             "persona", "preamble", "sources")
DECISION = (("synthesis", "recommended_path.recommendation"),
            ("synthesis", "divergence_report.summary"))


def text_policy(state: DebateState) -> TextPolicy:
    return policy(state, (ComposedPanel, Premortem, Position, CrossExamination,
                          SynthesisNarrative, VerifierReport), (PROMPTS, TEMPLATES),
                  PROSE, DECISION)


def with_quality(state: DebateState, result: DebateResult) -> DebateResult:
    composed = [p.name for p in state.personas[len(state.given_personas):]]
    trails = [[c for c in a.confidence_by_round if c is not None] for a in result.agents]
    more = [*panel.names(composed), *panel.confidences(trails),
            *panel.stances([a.initial_stance or "" for a in result.agents],
                           "every agent's position", CouncilPhase.POSITION.value, 0)]
    if result.rounds_completed:
        more += panel.stances([a.final_stance or "" for a in result.agents],
                              f"every agent's stance in round {result.rounds_completed}",
                              CouncilPhase.CROSS_EXAM.value, result.rounds_completed)
    more += panel.quotes(claim_quotes(result.unverified_claims), corpus(state))
    more += judge_reasons(state)
    return judged(state, result, read_turns(state, step_label), text_policy(state),
                  more)
