"""The workflow protocol's content checks (docs/engine.md, "Content checks"): the
text rules over every analysis, discussion, check and the synthesis with its summary
as the decision, phase 2 citations against the analyses they cite, the contracts, the
verifier's quotes."""

from __future__ import annotations

from collections.abc import Callable

from ... import prompts
from ...quality import TextPolicy, panel
from ...schemas import Phase, QualityReason, VerifierReport
from ...state import DebateState, Step
from ..content import claim_quotes, corpus, judged, policy, read_turns
from ..judge import judge_reasons
from .contracts import ROLES
from .phases import WorkflowPhase
from .schemas import (
    ConvergenceCheck,
    CriticAnalysis,
    Discussion,
    Rebuttal,
    ResearcherAnalysis,
    SynthesizerAnalysis,
    WorkflowResult,
    WorkflowSynthesis,
)

PROMPTS = prompts.beside(__file__)  # its own templates, in ./prompts

# Fields a sentence belongs in; a criterion, a risk or what it favours may be one word.
PROSE = ("summary", "claim", "mitigation", "response", "argument", "path_forward",
         "key_agreement", "why")
# A rebuttal's stance is concede or justify.
CONSTRAINED = ("stance",)
TEMPLATES = ("phase1", "phase2", "phase2b", "convergence", "synthesis",
             "role", "verifier", "preamble", "sources")
DECISION = (("synthesis", "summary"),)
SCHEMAS = (ResearcherAnalysis, CriticAnalysis, SynthesizerAnalysis, Discussion, Rebuttal,
           ConvergenceCheck, WorkflowSynthesis, VerifierReport)


def no_contract_met(result: WorkflowResult) -> bool:
    return bool(result.contract_checks) and not any(c.passed for c in result.contract_checks)


def _contracts(result: WorkflowResult) -> list[QualityReason]:
    if not no_contract_met(result):
        return []
    shown = "; ".join(f"{c.role}: {c.citations} citations, {c.acknowledged} acknowledged"
                      for c in result.contract_checks)
    return [panel.reason("contracts.none_met", "phase 2 · every role's contract", shown,
                         WorkflowPhase.DISCUSSION.value, 1)]


def _citations(state: DebateState, result: WorkflowResult) -> list[QualityReason]:
    """A citation's claim must come from the analyses it cites (phase 1), the
    question or the team's sources."""
    sources = corpus(state, skip=(Phase.VERIFY, WorkflowPhase.DISCUSSION, WorkflowPhase.CONVERGENCE,
                                  Phase.SYNTHESIS))
    agent = {role.key: i for i, role in enumerate(ROLES)}
    cited = [(f"phase 2 · {e.label} · citation {n}", c.claim, WorkflowPhase.DISCUSSION.value, 1,
              agent.get(e.role))
             for e in result.discussion if e.discussion is not None
             for n, c in enumerate(e.discussion.citations, 1) if c.claim.strip()]
    return panel.quotes(cited, sources)


def text_policy(state: DebateState) -> TextPolicy:
    return policy(state, SCHEMAS, (PROMPTS, TEMPLATES), PROSE, DECISION, CONSTRAINED)


def with_quality(state: DebateState, result: WorkflowResult,
                 label: Callable[[Step], str]) -> WorkflowResult:
    more = [*_contracts(result), *_citations(state, result),
            *panel.quotes(claim_quotes(result.unverified_claims), corpus(state)),
            *judge_reasons(state)]
    return judged(state, result, read_turns(state, label), text_policy(state), more)
