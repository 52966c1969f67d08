"""The synthesis: algorithmic findings plus the LLM's narrative, as one typed result.

What code can compute (risk clusters, surviving concerns, verdict splits, metrics,
the diagnostic) is computed here and only *shown* to the synthesizer, so the
narrative cannot quietly rewrite it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import novelty, prompts
from ...i18n import step_words
from ...llm.capabilities import uses_simulator
from ...points import DISAGREEMENT
from ...schemas import (
    EvidenceReport,
    Phase,
    Severity,
    StopReason,
    TurnStatus,
    Usage,
    VerifierReport,
)
from ...state import DebateState, Step
from ..evidence import EvidenceRules, evidence_report
from ..judge import judge_note
from ..sourced import sourced_messages
from .change import VoteTally, tally
from .content import with_quality
from .decision import PanelDecision, decide, overturned, resolve_rule
from .labels import labels as translator
from .phases import CouncilPhase
from .schemas import (
    AgentResult,
    AgentView,
    ChallengeRecord,
    ChallengeResponse,
    ClusteredItem,
    Compaction,
    DebateResult,
    DivergenceReport,
    MovedAgent,
    RiskFollowUp,
    RiskStatus,
    SynthesisNarrative,
)
from .state import council, step_label
from .steps import attack_lines, challenge

PROMPTS = prompts.beside(__file__)  # its own templates, in ./prompts


def severity(raised_by: int) -> Severity:
    """High when three or more agents foresaw the same failure independently."""
    if raised_by >= 3:
        return Severity.HIGH
    return Severity.MEDIUM if raised_by == 2 else Severity.LOW


def pre_positional_risks(state: DebateState) -> list[ClusteredItem]:
    items = []
    for i in council(state).ok_agents(Step(CouncilPhase.PREMORTEM)):
        premortem = council(state).premortem(i)
        assert premortem is not None
        items += [(cause, state.personas[i].name) for cause in premortem.root_causes]
    return [
        ClusteredItem(id=f"R{n}", text=text, raised_by=sources, severity=severity(len(sources)))
        for n, (text, sources) in enumerate(
            novelty.cluster(items, state.config.novelty_threshold), 1)
    ]


def post_positional_concerns(state: DebateState) -> list[ClusteredItem]:
    """Points still raised in the last round, or raised by >= 2 distinct agents, under
    their ledger ids (D1, E2...: the ids the agents cited), most agents first."""
    last = council(state).completed_rounds
    concerns: list[tuple[int, ClusteredItem]] = []
    for point in council(state).points.raised_before(last + 1):
        agents = list(dict.fromkeys(m.agent for m in point.mentions if m.round <= last))
        if point.open_after(last) or len(agents) >= 2:
            concerns.append((len(agents), ClusteredItem(
                id=point.id, text=point.text,
                raised_by=[state.personas[i].name for i in agents])))
    concerns.sort(key=lambda c: -c[0])  # stable: ledger order among equals
    return [item for _, item in concerns]


def final_agents(state: DebateState) -> list[int]:
    """Agents live in the last round."""
    return council(state).live_agents(council(state).completed_rounds)


def counted_agents(state: DebateState) -> list[int]:
    """Agents whose final stance counts: the live ones and those carried forward."""
    return council(state).counted_agents(council(state).completed_rounds)


def agent_model(state: DebateState, agent: int) -> str:
    """The model agent ``agent`` debates with: what ``AgentResult.model`` shows, and
    what the default decision rule reads (one model, or a mixed panel)."""
    return state.config.model_for(CouncilPhase.CROSS_EXAM.value, state.personas[agent], agent)


def votes(state: DebateState) -> tuple[VoteTally | None, VoteTally | None]:
    """The independent vote (round 0) and the final one (after any challenge), as the
    result derives them (``change.derive``): both or neither."""
    before, after = council(state).verdict_split(0), council(state).final_split()
    if before is None or after is None:
        return None, None
    agents = len(state.personas)
    return tally(before, state.options, agents), tally(after, state.options, agents)


def panel_decision(state: DebateState, language: str | None = None) -> PanelDecision:
    """The option the debate's decision rule picks (docs/protocols.md 1.9), from the
    same figures the result's ``decision`` reads; worded in ``language`` (default the
    debate's)."""
    models = [agent_model(state, i) for i in range(len(state.personas))]
    rule, source = resolve_rule(state.config.decision_rule, models)
    first, final = votes(state)
    view = council(state)
    positions = [(view.verdict(i, 0), position.confidence)
                 for i in range(len(state.personas))
                 if (position := view.position(i)) is not None]
    return decide(rule, source, state.options, first, final, positions,
                  translator(language or state.language))


def overturn_movers(state: DebateState) -> list[MovedAgent]:
    """When the debate overturned the independent vote: every counted agent whose first
    verdict was that vote's plurality and whose final one is not, with its concessions
    (every round's): the reasons to review."""
    first, final = votes(state)
    last = council(state).completed_rounds
    if not overturned(first, final, last):
        return []
    assert first is not None and first.plurality is not None
    view = council(state)
    movers = []
    for i in counted_agents(state):
        if view.verdict(i, 0) != first.plurality or view.final_verdict(i) == first.plurality:
            continue
        concessions = [c for r in range(1, last + 1)
                       if (exam := view.cross_exam(i, r)) is not None for c in exam.concessions]
        answer = view.challenge_answer(i)
        if answer is not None and answer.concession:
            concessions.append(answer.concession)
        movers.append(MovedAgent(agent=state.personas[i].name, from_verdict=first.plurality,
                                 to_verdict=view.final_verdict(i), concessions=concessions,
                                 final_stance=view.stance(i, last)))
    return movers


def decision_instruction(state: DebateState) -> str:
    """What the synthesizer is told of the decision rule (in English, as the prompts
    are): the option to recommend, and when the debate moved away from it."""
    decision = panel_decision(state, "en")
    if decision.option is None:
        return ""
    first, final = votes(state)
    line = (f" The panel decides by its decision rule ({decision.words}): the recommended "
            f"path must recommend {decision.option}.")
    if overturned(first, final, council(state).completed_rounds) and final is not None:
        line += (f" The final positions lean {final.plurality or 'to a tie'}: say so under "
                 "weakest_evidence, with the concessions that moved them.")
    return line


# ---------------------------------------------------------------------- LLM requests


def synthesis_messages(
    state: DebateState, compaction: int = 0
) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """The synthesizer's prompt, built from the final stances and the tracked points
    (open disagreements by id with their holders, premortem risks by id), not from every
    turn: concessions of rounds before the last are counted. ``compaction`` shortens it
    to fit the context: the last round's concessions are counted too first, then
    assumptions, open items and minor risks are cut; every final stance and confidence
    stays whole at every level."""
    stop = council(state).stop()
    assert stop is not None
    reason, explanation = stop
    last = council(state).completed_rounds
    names = state.personas
    finals = final_agents(state)
    per_agent = None if compaction < 2 else 2
    positions = []
    for i in counted_agents(state):
        position = council(state).position(i)
        assert position is not None
        failed = council(state).failed_at(i)
        carried = (f" [failed in {step_label(failed)}: last stance carried forward]"
                   if i not in finals and failed is not None else "")
        line = (
            f"- {names[i].name}: [{council(state).final_verdict(i) or 'no verdict'}] "
            f"{council(state).stance(i, last)} (confidence "
            f"{council(state).final_confidence(i) or 0.0:.2f}){carried}"
        )
        if compaction < 3:
            assumptions = position.key_assumptions[:per_agent]
            line += f"; assumptions: {'; '.join(assumptions) or '(none)'}"
        positions.append(line)
    concessions = _concession_lines(state, finals, last, compaction)
    risks = pre_positional_risks(state)
    if reason is StopReason.GENUINE_DISAGREEMENT:
        path = ("divergence_report: the panel ended in genuine disagreement, so do NOT force a "
                "recommendation: summarise the divergence, each camp's view (by agent name) and "
                "what would resolve it. Set recommended_path to null.")
    else:
        path = ("recommended_path: what is at stake, where evidence is strongest and weakest, "
                "what each path depends on, the recommended path and its risks. Set "
                "divergence_report to null." + decision_instruction(state))
    open_disagreements = _open_point_lines(state, finals, last, per_agent)
    user = PROMPTS.render(
        "synthesis",
        rounds=last,
        stop_reason=reason.value,
        stop_explanation=explanation,
        positions="\n".join(positions) or "(none)",
        open_disagreements=open_disagreements,
        concessions=concessions,
        risks=_risk_lines(risks, compaction),
        path_instruction=path,
        challenge=challenge_block(state, compaction),
    )
    hints: dict[str, Any] = {
        "question": state.question,
        "language": state.language,
        "agent_names": [names[i].name for i in finals],
        "risk_ids": [r.id for r in risks],
        "stop_reason": reason.value,
        "decision": panel_decision(state).option,
    }
    focus = "" if open_disagreements == "(none)" else open_disagreements
    return sourced_messages(
        state, state.config.model_for(Phase.SYNTHESIS.value), own="", user=user,
        schema=SynthesisNarrative, hints=hints, focus=focus, compaction=compaction), hints


def decision_check(state: DebateState) -> Callable[[Any], str | None]:
    """What a synthesis without its decision lacks, in the words its one repair shows
    the model (``DebateProtocol.answer_check``): a recommendation, or under genuine
    disagreement a divergence report. The 0.5B run set both to null (issue 42)."""
    stop = council(state).stop()
    disagree = stop is not None and stop[0] is StopReason.GENUINE_DISAGREEMENT
    wanted = ("divergence_report: the panel ended in genuine disagreement; summarise the "
              "divergence, each camp's view (by agent name) and what would resolve it"
              if disagree else
              "recommended_path: what is at stake, where evidence is strongest and "
              "weakest, what each path depends on, the recommended path and its risks")

    def lacks(narrative: Any) -> str | None:
        assert isinstance(narrative, SynthesisNarrative)
        if narrative.recommended_path is not None or narrative.divergence_report is not None:
            return None
        return ("recommended_path and divergence_report are both null, so the synthesis "
                f"names no decision. Keep the rest and write {wanted}.")

    return lacks


def challenge_block(state: DebateState, compaction: int = 0) -> str:
    """What the synthesizer is told of deep mode's challenge (docs/protocols.md 1.7a):
    the devil's advocate's attacks and every agent's answer, who moved and why; empty
    when none ran. From level 2 the answers are cut to the verdicts and concessions."""
    view = council(state)
    case = challenge(state) if view.challenge_ran else None
    if case is None:
        return ""
    lines = [f"\nA devil's advocate then attacked the leading view, {case.target_verdict}:",
             attack_lines(case.attacks), "The panel's answers (final positions above are "
             "after them):"]
    last = view.completed_rounds
    for i in view.counted_agents(last):
        answer = view.challenge_answer(i)
        if answer is None:
            continue
        before, after = view.verdict(i, last), view.final_verdict(i)
        move = (f"moved {before} → {after}, conceding: {answer.concession or '(nothing)'}"
                if after != before else f"held {after}")
        said = "" if compaction >= 2 else " — " + " | ".join(answer.answers)
        lines.append(f"- {state.personas[i].name}: {move}{said}")
    lines.append("Say in weakest_evidence whether the leading view survived the challenge.")
    return "\n".join(lines) + "\n"


def challenge_record(state: DebateState) -> ChallengeRecord | None:
    """The result's account of the challenge: None outside deep mode; in deep mode,
    why it did not run (a split panel, the advocate's call failed) or the case and
    every counted agent's answer."""
    view = council(state)
    if not view.deep:
        return None
    t = translator(state.language)
    if not view.challenge_due:
        return ChallengeRecord(ran=False, skipped=t("challenge.skipped.split"))
    turn = state.turn(CouncilPhase.CHALLENGE)
    case = challenge(state)
    if case is None or turn is None:
        return ChallengeRecord(ran=False, skipped=t(
            "challenge.skipped.failed", error=turn.error if turn else "–"))
    last = view.completed_rounds
    responses = []
    for i in view.counted_agents(last):
        answer = view.challenge_answer(i)
        before, after = view.verdict(i, last), view.final_verdict(i)
        responses.append(ChallengeResponse(
            agent=state.personas[i].name, verdict_before=before, verdict_after=after,
            confidence_before=view.confidence(i, last),
            confidence_after=view.final_confidence(i),
            answers=list(answer.answers) if answer else [],
            concession=answer.concession if answer else None,
            moved=before == case.target_verdict and after != before,
            failed=answer is None))
    return ChallengeRecord(ran=True, target_verdict=case.target_verdict,
                           attacks=case.attacks, responses=responses, model=turn.model)


def _concession_lines(state: DebateState, finals: list[int], last: int, compaction: int) -> str:
    """What each final agent conceded: the last round's concessions in words, earlier
    rounds' as a count, since every final stance already answers to what its agent
    conceded before (and the disagreements still open are the tracked points). From
    level 1 the last round's are counted too."""
    lines = []
    for i in finals:
        earlier = 0
        latest: list[str] = []
        for r in range(1, last + 1):
            past = council(state).cross_exam(i, r)
            if past is None:
                continue
            if r < last or compaction >= 1:
                earlier += len(past.concessions)
            else:
                latest = past.concessions
        counted = (f"{earlier} concession(s) in earlier rounds" if compaction == 0
                   else f"{earlier} concession(s)") if earlier else ""
        said = [text for text in (*latest, counted) if text]
        if said:
            lines.append(f"- {state.personas[i].name}: {'; '.join(said)}")
    return "\n".join(lines) or "(none)"


def _open_point_lines(state: DebateState, finals: list[int], last: int,
                      per_agent: int | None) -> str:
    """The disagreements the final agents kept in the last round, as tracked points:
    one line per point with who holds it, so a point several agents restate is
    stated once."""
    holders: dict[str, list[str]] = {}
    for i in finals:
        for point_id in council(state).points.ids_of(i, last, DISAGREEMENT)[:per_agent]:
            holders.setdefault(point_id, []).append(state.personas[i].name)
    lines = []
    for point_id in sorted(holders, key=lambda p: int(p[1:])):
        point = council(state).points.get(point_id)
        assert point is not None
        lines.append(f"- [{point_id}] {point.text} (held by {', '.join(holders[point_id])})")
    return "\n".join(lines) or "(none)"


def _risk_lines(risks: list[ClusteredItem], compaction: int) -> str:
    shown = risks
    if compaction >= 2:
        # Risks several agents foresaw first; single-agent risks are counted, not listed.
        shown = [r for r in risks if r.severity is not Severity.LOW] or risks[:3]
    lines = [f"- [{r.id}] {r.text} (raised by {', '.join(r.raised_by)})" for r in shown]
    if len(shown) < len(risks):
        lines.append(f"- ({len(risks) - len(shown)} risks raised by one agent not listed)")
    return "\n".join(lines) or "(none)"


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


VERIFIER_CHARS_AT_LEVEL = (None, 8000, 4000, 2000)


def verifier_messages(
    state: DebateState, compaction: int = 0
) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """The verifier's prompt; ``compaction`` cuts the narrative it checks (recorded, so
    the result says that later claims were not checked)."""
    payload = state.ok_payload(Phase.SYNTHESIS, 0, -1)
    assert payload is not None
    text = narrative_text(SynthesisNarrative.model_validate(payload))
    cap = VERIFIER_CHARS_AT_LEVEL[min(compaction, len(VERIFIER_CHARS_AT_LEVEL) - 1)]
    if cap is not None and len(text) > cap:
        text = text[:cap].rsplit("\n", 1)[0]
    return prompts.messages(
        system=prompts.system_prompt(state.language),
        user=PROMPTS.render("verifier", text=text),
        schema=VerifierReport,
    ), {"text": text, "language": state.language}


# ---------------------------------------------------------------------- result


def _degraded_notes(state: DebateState) -> list[str]:
    t = translator(state.language)
    notes = []
    total = len(state.personas)
    counted = set(counted_agents(state))
    for i, persona in enumerate(state.personas):
        failed = council(state).failed_at(i)
        if failed is None:
            continue
        turn = state.turn(failed.phase, failed.round, i)
        assert turn is not None
        notes.append(t("note.failed" if i in counted else "note.failed_early",
                       name=persona.name, step=step_words(t, step_label(failed)), error=turn.error))
    wanted = council(state).target_agents
    if council(state).needs_compose and len(state.personas) < wanted:
        notes.append(t("note.composed", got=len(state.personas), wanted=wanted))
    if total and len(final_agents(state)) < total:
        notes.append(t("note.final_round", live=len(final_agents(state)), total=total))
    verify = state.turn(Phase.VERIFY)
    if verify is not None and verify.status is TurnStatus.FAILED:
        notes.append(t("note.verifier", error=verify.error))
    return notes + judge_note(state)


def _narrative(state: DebateState, reason: StopReason) -> SynthesisNarrative:
    payload = state.ok_payload(Phase.SYNTHESIS, 0, -1)
    assert payload is not None
    narrative = SynthesisNarrative.model_validate(payload)
    last = council(state).completed_rounds
    if reason is StopReason.GENUINE_DISAGREEMENT:
        # The rule found genuine disagreement: a recommendation would claim more
        # authority than the debate earned, whatever the synthesizer wrote.
        narrative.recommended_path = None
        if narrative.divergence_report is None:
            narrative.divergence_report = DivergenceReport(
                summary=translator(state.language)("fallback_divergence"),
                camps=[AgentView(agent=state.personas[i].name,
                                 view=council(state).stance(i, last) or "")
                       for i in counted_agents(state)],
            )
    elif narrative.recommended_path is not None:
        # The prompt asked for a recommendation and a null divergence report; a server
        # that fills every field (a small model under a grammar) writes both, and a
        # report with two conclusions has none.
        narrative.divergence_report = None
    return narrative


def build_result(state: DebateState, usage: Usage) -> DebateResult:
    stop = council(state).stop()
    assert stop is not None, "the debate has not stopped"
    reason, explanation = stop
    narrative = _narrative(state, reason)
    metrics = council(state).all_metrics()
    last = council(state).completed_rounds
    finals = final_agents(state)
    # The decision's split, before (round 0: the baseline answer) and after: counted
    # on verdicts, not on how alike stances read.
    before, after = council(state).verdict_split(0), council(state).final_split()
    leading = after.leading if after else None

    follow_up = {f.risk_id: f for f in narrative.risk_follow_up}
    risks = pre_positional_risks(state)
    for risk in risks:
        item = follow_up.get(risk.id) or RiskFollowUp(
            risk_id=risk.id, status=RiskStatus.OPEN,
            note=translator(state.language)("not_assessed")
        )
        risk.follow_up, risk.follow_up_note = item.status, item.note

    view = council(state)
    # Who answered each round (round 0: the positions), asked once, not per agent.
    answered = [view.ok_agents(Step(CouncilPhase.CROSS_EXAM, r) if r
                               else Step(CouncilPhase.POSITION)) for r in range(last + 1)]
    agents = []
    for i, persona in enumerate(state.personas):
        position = council(state).position(i)
        failed = council(state).failed_at(i)
        agents.append(
            AgentResult(
                index=i,
                persona=persona,
                model=agent_model(state, i),
                initial_stance=position.stance if position else None,
                initial_confidence=position.confidence if position else None,
                final_stance=council(state).stance(i, last) if i in finals else None,
                final_confidence=view.final_confidence(i) if i in finals else None,
                key_assumptions=position.key_assumptions if position else [],
                confidence_by_round=[view.confidence(i, r) if i in answered[r] else None
                                     for r in range(last + 1)],
                initial_verdict=council(state).verdict(i, 0) if position else None,
                final_verdict=view.final_verdict(i) if i in finals else None,
                verdict_by_round=[view.verdict(i, r) if i in answered[r] else None
                                  for r in range(last + 1)],
                in_final_majority=(
                    leading is not None and view.final_verdict(i) == leading
                )
                if i in finals
                else None,
                failed_in=step_label(failed) if failed else None,
            )
        )

    verify = state.turn(Phase.VERIFY)
    claims = (VerifierReport.model_validate(verify.payload).claims
              if verify is not None and verify.status is TurnStatus.OK and verify.payload
              else [])
    notes = _degraded_notes(state)
    synthesis_turn = state.turn(Phase.SYNTHESIS)
    decision = panel_decision(state)
    return with_quality(state, DebateResult(
        question=state.question,
        language=state.language,
        protocol=state.config.protocol,
        mode=state.config.mode,
        config=state.config,
        prompt_version=prompts.PROMPT_VERSION,
        simulated=uses_simulator(state.config),
        agents=agents,
        rounds_completed=last,
        stop_reason=reason,
        stop_explanation=explanation,
        metrics=metrics,
        diagnostic=council(state).diagnostic(metrics),
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
        compactions=compactions(state),
        evidence=evidence(state, narrative),
        decision_rule=decision.rule,
        decision_rule_source=decision.source,
        overturn_movers=overturn_movers(state),
        challenge=challenge_record(state),
    ))


def synthesis_claims(narrative: SynthesisNarrative) -> list[str]:
    """The synthesis's claims a reader may ask the evidence of: the consensus, each
    view on a disputed topic, the recommendation and what it rests on, the divergence."""
    claims = list(narrative.consensus_points)
    claims += [v.view for topic in narrative.disagreements for v in topic.views]
    if narrative.recommended_path is not None:
        p = narrative.recommended_path
        claims += [p.strongest_evidence, p.recommendation]
    if narrative.divergence_report is not None:
        claims.append(narrative.divergence_report.summary)
    return claims


def evidence(state: DebateState, narrative: SynthesisNarrative) -> EvidenceReport | None:
    """The sources' evidence: sides are the agents' final verdicts, and a passage cited
    in a remaining disagreement is contested (protocols/evidence.py)."""
    view = council(state)
    return evidence_report(state, EvidenceRules(
        step_label=step_label,
        side=lambda agent: view.final_verdict(agent) if agent >= 0 else None,
        disputed=frozenset({"remaining_disagreements"}),
        claims=synthesis_claims(narrative)))


def compactions(state: DebateState) -> list[Compaction]:
    """Every prompt that was shortened to fit, in the order the debate ran."""
    found = []
    for turn in state.turns.values():
        if turn.compaction:
            step = turn.phase.value if not turn.round else f"{turn.phase.value} {turn.round}"
            agent = state.personas[turn.agent].name if 0 <= turn.agent < len(
                state.personas) else None
            found.append(Compaction(step=step, agent=agent, level=turn.compaction))
    return found
