"""Markdown report of a debate result (docs/protocols.md 1.9)."""

from __future__ import annotations

from collections.abc import Callable

from ...i18n import option_label, step_words
from ...markdown import cell, inline
from ..report_parts import evidence_section, not_advice, quality_lines
from .labels import labels as translator
from .schemas import ChallengeRecord, DebateResult, VerdictSplit
from .verdicts import describe


def _names(names: list[str], fmt: Callable[[object], str] = inline) -> str:
    return ", ".join(fmt(n) for n in names)


def _num(value: float | None, fmt: str = ".2f") -> str:
    return "–" if value is None else format(value, fmt)


def _tokens(n: int) -> str:
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


def _decision(t: Callable[..., str], round_number: int, decision: str) -> str:
    if round_number == 0:
        return "–"
    key = decision if decision == "continue" else f"reason.{decision}"
    try:
        return t(key)
    except KeyError:  # e.g. "continue (more rounds requested)"
        return decision


def verdicts_line(result: DebateResult, t: Callable[..., str]) -> str | None:
    """"before the debate 2 of 3 for, 1 against · after the debate 3 of 3 for", or None
    for a result stored before verdicts existed."""
    def words(split: VerdictSplit | None) -> str:
        return describe(split, t) if split else "–"

    if result.verdicts_before is None and result.verdicts_after is None:
        return None
    return t("verdicts_line", before=words(result.verdicts_before),
             after=words(result.verdicts_after))


def overturn_section(result: DebateResult, t: Callable[..., str]) -> list[str]:
    """When the debate overturned the independent vote: a flag for review, with the
    agents who moved and what each conceded (their reasons)."""
    first, final = result.independent_vote, result.final_vote
    if not result.overturned or first is None or final is None:
        return []
    assert first.plurality is not None
    final_words = (option_label(final.plurality, t) if final.plurality is not None
                   else t("overturn.tie"))
    out = [f"## {t('overturn.title')}", "",
           t("overturn.line", first=inline(option_label(first.plurality, t)),
             final=inline(final_words)), ""]
    for mover in result.overturn_movers:
        to = option_label(mover.to_verdict, t) if mover.to_verdict else "–"
        out.append("- **" + t("overturn.mover", agent=inline(mover.agent),
                              from_=inline(option_label(mover.from_verdict, t)),
                              to=inline(to)) + "**")
        out += [f"  - {inline(c)}" for c in mover.concessions] \
            or [f"  - {t('overturn.no_concession')}"]
    return [*out, ""]


def challenge_outcome(challenge: ChallengeRecord, t: Callable[..., str]) -> str:
    """In a line: why no challenge ran, or whether the leading view survived it."""
    if not challenge.ran:
        return challenge.skipped
    target = option_label(challenge.target_verdict or "–", t)
    movers = challenge.movers
    if not movers:
        return t("challenge.survived", target=target)
    return t("challenge.moved", target=target, n=len(movers), of=len(challenge.responses))


def challenge_section(result: DebateResult, t: Callable[..., str]) -> list[str]:
    """Deep mode's challenge (docs/protocols.md 1.7a): the devil's advocate's attacks,
    each agent's answer and who moved, with the concession that moved it."""
    challenge = result.challenge
    if challenge is None:
        return []
    out = [f"## {t('challenge.title')}", "", inline(challenge_outcome(challenge, t)), ""]
    if not challenge.ran:
        return out
    out += [f"**{t('challenge.attacks')}:**", ""]
    out += [f"{n}. {inline(a.claim)} — *{t('challenge.if_true')}:* "
            f"{inline(a.would_have_to_be_true)}" for n, a in enumerate(challenge.attacks, 1)]
    out += ["", f"**{t('challenge.answers')}:**", ""]
    for r in challenge.responses:
        before = option_label(r.verdict_before, t) if r.verdict_before else "–"
        after = option_label(r.verdict_after, t) if r.verdict_after else "–"
        if r.failed:
            move = t("challenge.failed", verdict=before)
        elif r.verdict_after != r.verdict_before:
            move = t("overturn.mover", agent=inline(r.agent), from_=inline(before),
                     to=inline(after))
        else:
            move = t("challenge.held", agent=inline(r.agent), verdict=inline(after))
        confidence = f" ({_num(r.confidence_before)} → {_num(r.confidence_after)})" \
            if not r.failed else ""
        out.append(f"- **{move}**{confidence}")
        out += [f"  - {inline(a)}" for a in r.answers]
        if r.verdict_after != r.verdict_before and not r.failed:
            out.append(f"  - *{t('challenge.concession')}:* "
                       + inline(r.concession or t("overturn.no_concession")))
    return [*out, ""]


def render_markdown(result: DebateResult) -> str:
    t = translator(result.language)
    cfg = result.config
    out: list[str] = [f"# {t('title')}", *quality_lines(result)]
    if result.simulated:
        out += [t("simulated"), ""]
    out += [
        f"**{t('question')}:** {cell(result.question)}  ",
        f"**{t('protocol')}:** " + t(
            "protocol_line", protocol=t(f"protocol_name.{result.protocol}"),
            mode=t(f"mode.{result.mode.value}"),
            agents=len(result.agents), threshold=cfg.convergence_threshold,
            rounds=cfg.round_cap, model=inline(cfg.model),
        ) + "  ",
    ]
    verdicts = verdicts_line(result, t)
    if verdicts is not None:
        # The decision first: how the panel split before and after debating, then
        # whether cross-examination moved the answer from the positions' vote.
        out.append(f"**{t('verdicts')}:** {cell(verdicts)}  ")
        if (change := result.debate_change) is not None:
            out.append(f"**{t('change.title')}:** {cell(change.words)}  ")
        out.append(f"**{t('options')}:** " + " · ".join(
            cell(option_label(o, t)) for o in result.options) + "  ")
    # Which vote the recommendation follows (docs/protocols.md 1.9, "The decision rule"),
    # worded in the report's language.
    out.append(f"**{t('decision.title')}:** {cell(result.decision.words)}  ")
    out += [
        f"**{t('stopped')}:** " + t(
            "stopped_line", reason=t(f"reason.{result.stop_reason.value}"),
            rounds=result.rounds_completed, explanation=inline(result.stop_explanation),
        ) + "  ",
    ]
    d = result.diagnostic
    out.append(f"**{t('diagnostic')}:** " + t(
        "diagnostic_line", label=t(f"label.{d.label.value}"),
        mean_trend=t(f"trend.{d.mean_trend}"), mean_before=d.mean_before,
        mean_after=d.mean_after, disp_trend=t(f"trend.{d.dispersion_trend}"),
        disp_before=d.dispersion_before, disp_after=d.dispersion_after,
    ) + "  ")
    if result.degraded:
        out.append(f"**{t('degraded')}:** " + " ".join(map(inline, result.degraded_notes)))
    out.append("")
    out += overturn_section(result, t)
    out += challenge_section(result, t)

    if result.recommended_path is not None:
        p = result.recommended_path
        out += [f"## {t('recommended_path')}", "", *not_advice(result),
                # Which vote it follows, where the recommendation is read.
                f"*{t('decision.title')}: {inline(result.decision.words)}*", "",
                inline(p.recommendation), "",
                f"- **{t('stakes')}:** {inline(p.stakes)}",
                f"- **{t('strongest')}:** {inline(p.strongest_evidence)}",
                f"- **{t('weakest')}:** {inline(p.weakest_evidence)}"]
        if p.path_dependencies:
            out.append(f"- **{t('depends')}:**")
            out += [f"  - {inline(item)}" for item in p.path_dependencies]
        if p.risks:
            out.append(f"- **{t('path_risks')}:**")
            out += [f"  - {inline(item)}" for item in p.risks]
        out.append("")
    if result.divergence_report is not None:
        r = result.divergence_report
        out += [f"## {t('divergence_report')}", "", inline(r.summary), ""]
        out += [f"- **{inline(v.agent)}:** {inline(v.view)}" for v in r.camps]
        if r.what_would_resolve_it:
            out += ["", f"**{t('what_resolves')}:**"]
            out += [f"- {inline(item)}" for item in r.what_would_resolve_it]
        out.append("")

    out += [f"## {t('convergence')}", "", t("metrics_header"), "|---|---|---|---|---|---|---|"]
    for m in result.metrics:
        label = t("positions_round") if m.round == 0 else str(m.round)
        out.append(
            f"| {label} | {m.mean_confidence:.2f} | {m.dispersion:.3f} | "
            f"{_num(m.agreement)} | "
            f"{'–' if m.new_arguments is None else m.new_arguments} | "
            f"{'–' if m.concessions is None else m.concessions} | "
            f"{_decision(t, m.round, m.decision)} |"
        )
    for m in result.metrics:
        if m.counted_agents is not None and m.active_agents < m.counted_agents:
            out += ["", t("not_live", round=m.round, live=m.active_agents,
                          agents=m.counted_agents)]
    out.append("")

    out += [f"## {t('agents')}", ""]
    for a in result.agents:
        trail = " → ".join(_num(c) for c in a.confidence_by_round) or "–"
        failed = f" · {t('failed_in', step=step_words(t, a.failed_in))}" if a.failed_in else ""
        verdict = a.final_verdict or a.initial_verdict
        verdict = f" · [{inline(option_label(verdict, t))}]" if verdict else ""
        model = f" `{inline(a.persona.model)}`" if a.persona.model else ""
        out.append(f"- **{inline(a.persona.name)}** ({inline(a.persona.expertise)}){model} · "
                   f"{trail}{failed}{verdict}: "
                   f"{inline(a.final_stance or a.initial_stance or '–')}")
    out.append("")

    out += [f"## {t('risks')}", ""]
    if result.pre_positional_risks:
        out += [t("risks_header"), "|---|---|---|---|"]
        for risk in result.pre_positional_risks:
            follow = t(f"follow.{risk.follow_up.value}") if risk.follow_up else "–"
            note = f": {cell(risk.follow_up_note)}" if risk.follow_up_note else ""
            out.append(f"| **{cell(risk.id)}** {cell(risk.text)} | "
                       f"{_names(risk.raised_by, cell)} | "
                       f"{t(f'severity.{risk.severity.value}') if risk.severity else '–'} | "
                       f"{follow}{note} |")
    else:
        out.append(t("none"))
    out.append("")

    out += [f"## {t('concerns')}", ""]
    out += [f"- **{inline(c.id)}** {inline(c.text)} ({_names(c.raised_by)})"
            for c in result.post_positional_concerns] \
        or [t("none")]
    out.append("")

    out += [f"## {t('disagreements')}", ""]
    for topic in result.disagreements:
        views = " · ".join(f"{inline(v.agent)}: {inline(v.view)}" for v in topic.views)
        out.append(f"**{inline(topic.topic)}** — {views}")
        out.append("")
    if not result.disagreements:
        out += [t("none"), ""]

    out += [f"## {t('consensus')}", ""]
    out += [f"- {inline(c)}" for c in result.consensus_points] or [t("none")]
    out.append("")

    out += [f"## {t('assumptions')}", ""]
    for a in result.agents:
        if a.key_assumptions:
            out.append(f"- {inline(a.persona.name)}:")
            out += [f"  - {inline(item)}" for item in a.key_assumptions]
    out.append("")

    out += evidence_section(result)
    out += [f"## {t('claims')}", ""]
    if not result.verifier_ok:
        out.append(t("verifier_failed"))
    elif result.unverified_claims:
        # V1, V2 ...: the ids the team's comments, checks and actions refer to.
        out += [f"- **V{n}** \"{inline(c.quote)}\" ({t(f'claim.{c.type.value}')}; "
                f"{inline(c.why)})" for n, c in enumerate(result.unverified_claims, 1)]
    else:
        out.append(t("no_claims"))
    out.append("")

    u = result.usage
    cost = (t("free_simulated") if result.simulated
            else f"${u.cost_usd:.3f}" if u.cost_known else t("cost_unknown"))
    out += ["---", t("footer", cost=cost, calls=u.calls, prompt=_tokens(u.prompt_tokens),
                     completion=_tokens(u.completion_tokens), wall=u.wall_time_s,
                     version=result.prompt_version)]
    return "\n".join(out) + "\n"
