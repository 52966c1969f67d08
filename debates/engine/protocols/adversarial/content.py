"""The adversarial protocol's content checks (docs/engine.md, "Content checks"): the
text rules over every proposal and critique with the final solution as the decision,
the critic's counts against the issues it listed, the verifier's quotes."""

from __future__ import annotations

from collections.abc import Callable

from ... import prompts
from ...quality import TextPolicy, panel
from ...schemas import QualityReason, StopReason, VerifierReport
from ...state import DebateState, Step
from ..content import claim_quotes, corpus, judged, policy, read_turns
from ..judge import judge_reasons
from .issues import SeverityCounts
from .phases import AdversarialPhase
from .schemas import (
    AdversarialResult,
    AdversarialSynthesis,
    Critique,
    Proposal,
    claims_more_than_listed,
)

PROMPTS = prompts.beside(__file__)  # its own templates, in ./prompts

CRITIC = 1
# Fields a sentence belongs in; an issue's title or a decision may be one word.
PROSE = ("summary", "proposal", "reply", "assessment", "detail", "suggested_fix",
         "final_solution", "rationale", "why")
TEMPLATES = ("propose_first", "propose_next", "critique", "critique_previous",
             "synthesis", "proposer_role", "critic_role", "verifier", "preamble",
             "sources")
# The decision: the final solution, and every version of the proposal the critic judged
# (a critique that converges on an empty proposal converged on nothing).
DECISION = (("synthesis", "final_solution"), ("propose", "proposal"))


def listed_counts(critique: Critique) -> SeverityCounts:
    return SeverityCounts(**{sev: sum(1 for i in critique.issues if i.severity.value == sev)
                             for sev in ("red", "yellow", "green")})


def _counts(result: AdversarialResult) -> list[QualityReason]:
    found = []
    for r in result.rounds:
        claimed = r.critique.claimed_counts
        listed = listed_counts(r.critique)
        if claimed is None or claimed == listed:
            continue
        where = f"critique {r.round} · claimed_counts"
        evidence = (f"claimed red {claimed.red}, yellow {claimed.yellow}, green "
                    f"{claimed.green}; listed red {listed.red}, yellow {listed.yellow}, "
                    f"green {listed.green}")
        converged_on = (r.round == result.rounds_completed
                        and result.stop_reason is StopReason.CONVERGED)
        rule = ("counts.false_convergence" if converged_on and claims_more_than_listed(
            r.critique) else "counts.contradict")
        found.append(panel.reason(rule, where, evidence, AdversarialPhase.CRITIQUE.value,
                                  r.round, CRITIC))
    return found


def text_policy(state: DebateState) -> TextPolicy:
    return policy(state, (Proposal, Critique, AdversarialSynthesis, VerifierReport),
                  (PROMPTS, TEMPLATES), PROSE, DECISION)


def with_quality(state: DebateState, result: AdversarialResult,
                 label: Callable[[Step], str]) -> AdversarialResult:
    more = [*_counts(result),
            *panel.quotes(claim_quotes(result.unverified_claims), corpus(state)),
            *judge_reasons(state)]
    return judged(state, result, read_turns(state, label), text_policy(state), more)
