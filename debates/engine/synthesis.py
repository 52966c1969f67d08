"""The synthesis: algorithmic findings plus the LLM's narrative, as one typed result.

What code can compute (risk clusters, surviving concerns, verdict splits, metrics,
the diagnostic) is computed here and only *shown* to the synthesizer, so the
narrative cannot quietly rewrite it.
"""

from __future__ import annotations

from typing import Any

from . import convergence, novelty, prompts
from .i18n import step_words, translator
from .schemas import (
    AgentResult,
    AgentView,
    ClusteredItem,
    DebateResult,
    DivergenceReport,
    Phase,
    RiskFollowUp,
    RiskStatus,
    Severity,
    StopReason,
    SynthesisNarrative,
    TurnStatus,
    Usage,
    VerifierReport,
)
from .state import DebateState, Step


def severity(raised_by: int) -> Severity:
    """High when three or more agents foresaw the same failure independently."""
    if raised_by >= 3:
        return Severity.HIGH
    return Severity.MEDIUM if raised_by == 2 else Severity.LOW


def pre_positional_risks(state: DebateState) -> list[ClusteredItem]:
    items = []
    for i in state.ok_agents(Step(Phase.PREMORTEM)):
        premortem = state.premortem(i)
        assert premortem is not None
        items += [(cause, state.personas[i].name) for cause in premortem.root_causes]
    return [
        ClusteredItem(id=f"R{n}", text=text, raised_by=sources, severity=severity(len(sources)))
        for n, (text, sources) in enumerate(
            novelty.cluster(items, state.config.novelty_threshold), 1)
    ]


def post_positional_concerns(state: DebateState) -> list[ClusteredItem]:
    """Concerns still in dispute in the last round, or raised by >= 2 distinct agents."""
    last = state.completed_rounds
    items: list[tuple[str, str]] = []
    in_last_round: set[str] = set()
    for r in range(1, last + 1):
        for i in state.ok_agents(Step(Phase.CROSS_EXAM, r)):
            exam = state.cross_exam(i, r)
            assert exam is not None
            for text in exam.remaining_disagreements + exam.new_evidence_needed:
                items.append((text, state.personas[i].name))
                if r == last:
                    in_last_round.add(text)
    concerns: list[ClusteredItem] = []
    threshold = state.config.novelty_threshold
    for text, sources in novelty.cluster(items, threshold):
        still_open = any(novelty.similarity(text, t) >= threshold for t in in_last_round)
        if still_open or len(sources) >= 2:
            concerns.append(ClusteredItem(id=f"C{len(concerns) + 1}", text=text, raised_by=sources))
    return concerns


def final_agents(state: DebateState) -> list[int]:
    """Agents live in the last round."""
    return state.live_agents(state.completed_rounds)


def counted_agents(state: DebateState) -> list[int]:
    """Agents whose final stance counts: the live ones and those carried forward."""
    return state.counted_agents(state.completed_rounds)


# ---------------------------------------------------------------------- LLM requests


def synthesis_messages(state: DebateState) -> tuple[list[dict[str, str]], dict[str, Any]]:
    stop = state.stop()
    assert stop is not None
    reason, explanation = stop
    last = state.completed_rounds
    names = state.personas
    finals = final_agents(state)
    positions = []
    for i in counted_agents(state):
        position = state.position(i)
        assert position is not None
        failed = state.failed_at(i)
        carried = (f" [failed in {failed.label}: last stance carried forward]"
                   if i not in finals and failed is not None else "")
        positions.append(
            f"- {names[i].name}: [{state.verdict(i, last) or 'no verdict'}] "
            f"{state.stance(i, last)} (confidence "
            f"{state.confidence(i, last):.2f}){carried}; assumptions: "
            f"{'; '.join(position.key_assumptions) or '(none)'}"
        )
    open_items, concessions = [], []
    for i in finals:
        exam = state.cross_exam(i, last) if last else None
        if exam is not None:
            open_items += [f"- {names[i].name}: {d}" for d in exam.remaining_disagreements]
        for r in range(1, last + 1):
            past = state.cross_exam(i, r)
            if past is not None:
                concessions += [f"- {names[i].name} (round {r}): {c}" for c in past.concessions]
    risks = pre_positional_risks(state)
    if reason is StopReason.GENUINE_DISAGREEMENT:
        path = ("divergence_report: the panel ended in genuine disagreement, so do NOT force a "
                "recommendation: summarise the divergence, each camp's view (by agent name) and "
                "what would resolve it. Set recommended_path to null.")
    else:
        path = ("recommended_path: what is at stake, where evidence is strongest and weakest, "
                "what each path depends on, the recommended path and its risks. Set "
                "divergence_report to null.")
    user = prompts.render(
        "synthesis",
        question=state.question,
        context_block=prompts.context_block(state.context),
        rounds=last,
        stop_reason=reason.value,
        stop_explanation=explanation,
        positions="\n".join(positions) or "(none)",
        open_disagreements="\n".join(open_items) or "(none)",
        concessions="\n".join(concessions) or "(none)",
        risks="\n".join(f"- [{r.id}] {r.text} (raised by {', '.join(r.raised_by)})"
                        for r in risks) or "(none)",
        path_instruction=path,
    )
    hints = {
        "question": state.question,
        "language": state.language,
        "agent_names": [names[i].name for i in finals],
        "risk_ids": [r.id for r in risks],
        "stop_reason": reason.value,
    }
    return prompts.messages(
        system=prompts.system_prompt(state.language), user=user, schema=SynthesisNarrative
    ), hints


def narrative_text(narrative: SynthesisNarrative) -> str:
    parts = list(narrative.consensus_points)
    for topic in narrative.disagreements:
        parts.append(topic.topic)
        parts += [f"{v.agent}: {v.view}" for v in topic.views]
    if narrative.recommended_path is not None:
        p = narrative.recommended_path
        parts += [p.stakes, p.strongest_evidence, p.weakest_evidence, *p.path_dependencies,
                  p.recommendation, *p.risks]
    if narrative.divergence_report is not None:
        d = narrative.divergence_report
        parts += [d.summary, *(f"{v.agent}: {v.view}" for v in d.camps), *d.what_would_resolve_it]
    return "\n".join(parts)


def verifier_messages(state: DebateState) -> tuple[list[dict[str, str]], dict[str, Any]]:
    payload = state.ok_payload(Phase.SYNTHESIS, 0, -1)
    assert payload is not None
    text = narrative_text(SynthesisNarrative.model_validate(payload))
    return prompts.messages(
        system=prompts.system_prompt(state.language),
        user=prompts.render("verifier", text=text),
        schema=VerifierReport,
    ), {"text": text, "language": state.language}


# ---------------------------------------------------------------------- result


def _degraded_notes(state: DebateState) -> list[str]:
    t = translator(state.language)
    notes = []
    total = len(state.personas)
    counted = set(counted_agents(state))
    for i, persona in enumerate(state.personas):
        failed = state.failed_at(i)
        if failed is None:
            continue
        turn = state.turn(failed.phase, failed.round, i)
        assert turn is not None
        notes.append(t("note.failed" if i in counted else "note.failed_early",
                       name=persona.name, step=step_words(t, failed.label), error=turn.error))
    if state.needs_compose and len(state.personas) < state.target_agents:
        notes.append(t("note.composed", got=len(state.personas), wanted=state.target_agents))
    if total and len(final_agents(state)) < total:
        notes.append(t("note.final_round", live=len(final_agents(state)), total=total))
    verify = state.turn(Phase.VERIFY)
    if verify is not None and verify.status is TurnStatus.FAILED:
        notes.append(t("note.verifier", error=verify.error))
    return notes


def _narrative(state: DebateState, reason: StopReason) -> SynthesisNarrative:
    payload = state.ok_payload(Phase.SYNTHESIS, 0, -1)
    assert payload is not None
    narrative = SynthesisNarrative.model_validate(payload)
    last = state.completed_rounds
    if reason is StopReason.GENUINE_DISAGREEMENT:
        # The rule found genuine disagreement: a recommendation would claim more
        # authority than the debate earned, whatever the synthesizer wrote.
        narrative.recommended_path = None
        if narrative.divergence_report is None:
            narrative.divergence_report = DivergenceReport(
                summary=translator(state.language)("fallback_divergence"),
                camps=[AgentView(agent=state.personas[i].name, view=state.stance(i, last) or "")
                       for i in counted_agents(state)],
            )
    return narrative


def build_result(state: DebateState, usage: Usage) -> DebateResult:
    stop = state.stop()
    assert stop is not None, "the debate has not stopped"
    reason, explanation = stop
    narrative = _narrative(state, reason)
    metrics = state.all_metrics()
    last = state.completed_rounds
    finals = final_agents(state)
    # The decision's split, before (round 0: the baseline answer) and after: counted
    # on verdicts, not on how alike stances read.
    before, after = state.verdict_split(0), state.verdict_split(last)
    leading = after.leading if after else None

    follow_up = {f.risk_id: f for f in narrative.risk_follow_up}
    risks = pre_positional_risks(state)
    for risk in risks:
        item = follow_up.get(risk.id) or RiskFollowUp(
            risk_id=risk.id, status=RiskStatus.OPEN,
            note=translator(state.language)("not_assessed")
        )
        risk.follow_up, risk.follow_up_note = item.status, item.note

    agents = []
    for i, persona in enumerate(state.personas):
        position = state.position(i)
        failed = state.failed_at(i)
        agents.append(AgentResult(
            index=i,
            persona=persona,
            model=state.config.model_for(Phase.CROSS_EXAM.value, persona),
            initial_stance=position.stance if position else None,
            initial_confidence=position.confidence if position else None,
            final_stance=state.stance(i, last) if i in finals else None,
            final_confidence=state.confidence(i, last) if i in finals else None,
            key_assumptions=position.key_assumptions if position else [],
            confidence_by_round=[
                state.confidence(i, r) if i in state.ok_agents(
                    Step(Phase.CROSS_EXAM, r) if r else Step(Phase.POSITION)) else None
                for r in range(last + 1)
            ],
            initial_verdict=state.verdict(i, 0) if position else None,
            final_verdict=state.verdict(i, last) if i in finals else None,
            verdict_by_round=[
                state.verdict(i, r) if i in state.ok_agents(
                    Step(Phase.CROSS_EXAM, r) if r else Step(Phase.POSITION)) else None
                for r in range(last + 1)
            ],
            in_final_majority=(leading is not None and state.verdict(i, last) == leading)
            if i in finals else None,
            failed_in=failed.label if failed else None,
        ))

    verify = state.turn(Phase.VERIFY)
    claims = (VerifierReport.model_validate(verify.payload).claims
              if verify is not None and verify.status is TurnStatus.OK and verify.payload
              else [])
    notes = _degraded_notes(state)
    synthesis_turn = state.turn(Phase.SYNTHESIS)
    return DebateResult(
        question=state.question,
        language=state.language,
        protocol=state.config.protocol,
        mode=state.config.mode,
        config=state.config,
        prompt_version=prompts.PROMPT_VERSION,
        simulated=state.config.simulated,
        agents=agents,
        rounds_completed=last,
        stop_reason=reason,
        stop_explanation=explanation,
        metrics=metrics,
        diagnostic=convergence.diagnose(metrics[0], metrics[-1]),
        options=state.options,
        verdicts_before=before,
        verdicts_after=after,
        pre_positional_risks=risks,
        post_positional_concerns=post_positional_concerns(state),
        disagreements=narrative.disagreements,
        consensus_points=narrative.consensus_points,
        recommended_path=narrative.recommended_path,
        divergence_report=narrative.divergence_report,
        unverified_claims=claims,
        verifier_ok=verify is not None and verify.status is TurnStatus.OK,
        degraded=bool(notes),
        degraded_notes=notes,
        synthesis_model=(synthesis_turn.model if synthesis_turn and synthesis_turn.model
                         else state.config.model_for(Phase.SYNTHESIS.value)),
        usage=usage,
    )
