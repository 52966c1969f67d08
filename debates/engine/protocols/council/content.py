"""The council's content checks (docs/engine.md, "Content checks"): the text rules
over every turn with the recommendation as the decision, the composed panel's names,
the confidences, the stances, the verifier's quotes."""

from __future__ import annotations

from ... import prompts
from ...quality import TextPolicy, panel
from ...schemas import Phase, QualityReason, TurnStatus, VerifierReport
from ...state import DebateState
from ..content import claim_quotes, corpus, judged, option_names, policy, read_turns
from ..judge import judge_reasons
from .convergence import STABLE_DELTA
from .phases import CouncilPhase
from .schemas import (
    Challenge,
    ChallengeAnswer,
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
         "weakest_evidence", "summary", "view", "why", "claim", "concession")
TEMPLATES = ("compose", "premortem", "position", "cross_exam", "challenge",
             "challenge_answer", "synthesis", "verifier", "persona", "preamble", "sources")
DECISION = (("synthesis", "recommended_path.recommendation"),
            ("synthesis", "divergence_report.summary"))


def text_policy(state: DebateState) -> TextPolicy:
    return policy(state, (ComposedPanel, Premortem, Position, CrossExamination, Challenge,
                          ChallengeAnswer, SynthesisNarrative, VerifierReport),
                  (PROMPTS, TEMPLATES), PROSE, DECISION)


def with_quality(state: DebateState, result: DebateResult) -> DebateResult:
    composed = [p.name for p in state.personas[len(state.given_personas):]]
    trails = [[c for c in a.confidence_by_round if c is not None] for a in result.agents]
    options = option_names(state)
    more = [*panel.names(composed), *panel.confidences(trails),
            *panel.stances([a.initial_stance or "" for a in result.agents],
                           "every agent's position", CouncilPhase.POSITION.value, 0, options)]
    if result.rounds_completed:
        more += panel.stances([a.final_stance or "" for a in result.agents],
                              f"every agent's stance in round {result.rounds_completed}",
                              CouncilPhase.CROSS_EXAM.value, result.rounds_completed, options)
    more += panel.quotes(claim_quotes(result.unverified_claims), corpus(state))
    more += _stance_verdicts(state, result)
    more += _hollow_consensus(result)
    more += _synthesis_reasons(state, result)
    more += judge_reasons(state)
    return judged(state, result, read_turns(state, step_label), text_policy(state),
                  more)


def _stance_verdicts(state: DebateState, result: DebateResult) -> list[QualityReason]:
    """Stances that name an option other than the verdict given with them, at the
    position and at the end."""
    last = result.rounds_completed
    stated = []
    for a in result.agents:
        name = a.persona.name
        stated.append((f"position · {name}", a.initial_stance, a.initial_verdict,
                       CouncilPhase.POSITION.value, 0, a.index))
        if last and (a.final_stance, a.final_verdict) != (a.initial_stance, a.initial_verdict):
            stated.append((f"round {last} · {name}", a.final_stance, a.final_verdict,
                           CouncilPhase.CROSS_EXAM.value, last, a.index))
    return panel.stance_verdicts(stated, option_names(state))


def _hollow_consensus(result: DebateResult) -> list[QualityReason]:
    """A panel that came together without material (issue 42; docs/engine.md, "Content
    checks"): every agent ends on one verdict after its verdicts moved or its mean
    confidence rose, while no round brought a new point, a passage found in the sources
    or a concession. A panel agreed from its independent positions on is not hollow:
    that is the strongest agreement there is.

    The consensus is read where the rounds left it, before any challenge; in deep mode
    the evidence says whether it survived the challenge (docs/protocols.md 1.7a)."""
    rounds = [m for m in result.metrics if m.round >= 1]
    challenge = result.challenge if result.challenge and result.challenge.ran else None
    before_challenge = {r.agent: r.verdict_before for r in challenge.responses} \
        if challenge else {}
    finals = [before_challenge.get(a.persona.name, a.final_verdict) or a.initial_verdict
              for a in result.agents]
    if not rounds or len(finals) < 2 or None in finals or len(set(finals)) > 1:
        return []
    # A passage cited, listed or quoted is a source brought; a figure copied without
    # quotes is not (a herd repeats one agent's figures: docs/engine.md, "Sources").
    cited = result.evidence is not None and any(
        c.where.startswith("round") and c.known and c.found and c.way != "copied"
        for c in result.evidence.citations)
    if cited or any(m.new_arguments or m.concessions for m in rounds):
        return []
    before, after = result.metrics[0].mean_confidence, rounds[-1].mean_confidence
    moved = len({a.initial_verdict for a in result.agents}) > 1
    if not moved and after - before < STABLE_DELTA:
        return []
    how = (f"verdicts moved to all {finals[0]}" if moved
           else f"all {finals[0]}, confidence {before:.2f} → {after:.2f}")
    plural = "" if len(rounds) == 1 else "s"
    last = result.rounds_completed
    # Whether it survived deep mode's challenge goes with where the consensus stood
    # (the evidence is cut to a line).
    tested = ""
    if challenge is not None:
        movers = challenge.movers
        tested = (" (it survived a challenge: nobody moved)" if not movers else
                  f" (a challenge moved {len(movers)} of {len(challenge.responses)}: "
                  f"{', '.join(m.agent for m in movers)})")
    elif result.challenge is not None:
        tested = " (the challenge did not run)"
    return [panel.reason("consensus.hollow", f"every agent's verdict after round {last}{tested}",
                         f"{how}; no new point, passage or concession in {len(rounds)} "
                         f"round{plural}", CouncilPhase.CROSS_EXAM.value, last)]


def _synthesis_reasons(state: DebateState, result: DebateResult) -> list[QualityReason]:
    """What the synthesis itself must hold: a decision (a recommendation or a divergence
    report), and views credited to agents of the panel."""
    synthesis = state.turn(Phase.SYNTHESIS)
    if synthesis is None or synthesis.status is not TurnStatus.OK:
        return []
    found = []
    phase = Phase.SYNTHESIS.value
    if result.recommended_path is None and result.divergence_report is None:
        found.append(panel.reason("decision.missing", "synthesis",
                                  "recommended_path and divergence_report both null", phase))
    credits = [(f"synthesis · disagreements · {topic.topic}", view.agent)
               for topic in result.disagreements for view in topic.views]
    if result.divergence_report is not None:
        credits += [("synthesis · divergence_report.camps", camp.agent)
                    for camp in result.divergence_report.camps]
    found += panel.unknown_credits(credits, [p.name for p in state.personas], phase)
    return found
