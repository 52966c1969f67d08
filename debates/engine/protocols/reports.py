"""Markdown reports of the adversarial and workflow results (headings from
``labels``, shared wording such as stop reasons from ``i18n``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..i18n import translator
from ..markdown import block, cell, inline
from ..schemas import UnverifiedClaim

if TYPE_CHECKING:
    from .adversarial import AdversarialResult, Critique, Proposal
    from .issues import RoundTally
    from .workflow import WorkflowResult


def _claims(t: Callable[..., str], claims: list[UnverifiedClaim], ok: bool) -> list[str]:
    out = [f"## {t('common.unverified')}", ""]
    if not ok:
        out.append(t("common.verifier_failed"))
    out += [f"- \"{inline(c.quote)}\" ({c.type.value}): {inline(c.why)}" for c in claims]
    if ok and not claims:
        out.append(f"- {t('common.none')}")
    return [*out, ""]


def _usage_line(result: AdversarialResult | WorkflowResult) -> str:
    u = result.usage
    cost = f"${u.cost_usd:.4f}" if u.cost_known else "cost unknown"
    return (f"*{u.calls} calls ({u.failed_calls} failed), {u.prompt_tokens} + "
            f"{u.completion_tokens} tokens, {cost}, {u.wall_time_s:.1f} s · prompts "
            f"{result.prompt_version} · synthesis model {inline(result.synthesis_model)}*")


def adversarial_markdown(result: AdversarialResult) -> str:
    from .labels import labels

    t, shared = labels(result.language), translator(result.language)
    d = result.domain.domain
    out = [f"# {t('adv.title')}"]
    if result.simulated:
        out += [shared("simulated"), ""]
    out += [
        f"**{t('common.question')}:** {inline(result.question)}  ",
        f"**{t('adv.domain')}:** {inline(d.name)} ({inline(result.domain.reason)})  ",
        f"**{t('adv.roles')}:** "
        + t("adv.roles_line", proposer=inline(d.proposer_role),
            critic=inline(d.critic_role)) + "  ",
        f"**{t('adv.focus')}:** {', '.join(map(inline, d.focus_areas))}  ",
        f"**{t('adv.stopped')}:** {shared(f'reason.{result.stop_reason.value}')} — "
        f"{inline(result.stop_explanation)}  ",
        f"**{t('common.model')}:** {inline(result.config.model)}  ",
    ]
    if result.degraded:
        out.append(f"**{t('common.degraded')}:** " + " ".join(map(inline, result.degraded_notes)))
    out += ["", f"## {t('adv.rounds')}", "", "```"]
    for r in result.rounds:
        line = r.status_line
        claimed = r.tally.claimed
        if claimed is not None and claimed != r.tally.counts:
            line += "   (" + t("adv.claimed", red=claimed.red, yellow=claimed.yellow,
                                green=claimed.green) + ")"
        out.append(line)
    out += ["```", "", f"## {t('adv.final_solution')}", "", block(result.final_solution), ""]
    out += [f"## {t('adv.key_decisions')}", "", t("adv.decisions_header"), "|---|---|---|"]
    out += [f"| {cell(k.issue)} | {cell(k.decision)} | {cell(k.rationale)} |"
            for k in result.key_decisions]
    out += ["", f"## {t('adv.remaining_risks')}", ""]
    out += [f"- {inline(risk)}" for risk in result.remaining_risks] or [f"- {t('common.none')}"]
    out += ["", f"## {t('adv.issues')}", "", t("adv.issues_header"), "|---|---|---|---|---|"]
    for issue in result.issues:
        status = t("adv.open") if issue.open else t("adv.resolved_in", round=issue.resolved_in)
        out.append(f"| {cell(issue.id)} | {issue.severity.value} | {cell(issue.title)} | "
                   f"{issue.raised_in} | {status} |")
    out.append("")
    out += _claims(t, result.unverified_claims, result.verifier_ok)
    out.append(_usage_line(result))
    return "\n".join(out) + "\n"


def adversarial_rounds(t: Callable[..., str],
                       rounds: list[tuple[RoundTally, Proposal, Critique]]) -> str:
    """Every round's proposal and critique in full (``--verbose``)."""
    out = ["", f"# {t('adv.history')}", ""]
    for tally, proposal, critique in rounds:
        out += [f"## {t('adv.rounds')} {tally.round}", "", f"### {t('adv.proposal')}", "",
                f"*{inline(proposal.summary)}*", ""]
        if proposal.replies:
            out += [f"**{t('adv.replies')}:**", ""]
            out += [f"- \\[{inline(r.issue_id)}\\] {inline(r.reply)}" for r in proposal.replies]
            out.append("")
        out += [block(proposal.proposal), "", f"### {t('adv.critique')}", "",
                block(critique.assessment), ""]
        for resolution in critique.resolutions:
            mark = "resolved" if resolution.resolved else "unresolved"
            note = f": {inline(resolution.note)}" if resolution.note else ""
            out.append(f"- \\[{inline(resolution.id)}\\] {mark}{note}")
        for issue, issue_id in zip(critique.issues, tally.issue_ids, strict=True):
            out.append(f"- **\\[{inline(issue_id)}\\] {issue.severity.value}** "
                       f"{inline(issue.title)}: {inline(issue.detail)} → "
                       f"{inline(issue.suggested_fix)}")
        out.append("")
    return "\n".join(out) + "\n"


def workflow_markdown(result: WorkflowResult) -> str:
    from .labels import labels

    t, shared = labels(result.language), translator(result.language)
    c = result.convergence
    out = [f"# {t('wf.title')}"]
    if result.simulated:
        out += [shared("simulated"), ""]
    out += [
        f"**{t('common.question')}:** {inline(result.question)}  ",
        f"**{t('wf.mode')}:** {'deep' if result.deep else 'standard'} · "
        f"{t('common.model')} {inline(result.config.model)} · "
        f"synthesis {inline(result.synthesis_model)}  ",
    ]
    if result.degraded:
        out.append(f"**{t('common.degraded')}:** " + " ".join(map(inline, result.degraded_notes)))
    out += ["", f"## {t('wf.perspectives')}", ""]
    for p in result.perspectives:
        out += [f"### {inline(p.label)}", "", f"*{inline(p.focus)}*", ""]
        if p.failed:
            out += [f"*failed: {inline(p.failed)}*", ""]
            continue
        analysis = p.analysis or {}
        out += [block(analysis.get("summary", "")), ""]
        for key, value in analysis.items():
            if key == "summary" or not isinstance(value, list):
                continue
            out.append(f"- **{inline(key.replace('_', ' '))}:**")
            for item in value:
                text = ("; ".join(f"{k}: {v}" for k, v in item.items() if v)
                        if isinstance(item, dict) else str(item))
                out.append(f"  - {inline(text)}")
        out.append("")
    out += [f"## {t('wf.discussion')}", ""]
    for e in result.discussion:
        heading = inline(e.label) if e.round == 1 else f"{inline(e.label)} — {t('wf.phase2b')}"
        out += [f"### {heading}", ""]
        if e.failed:
            out += [f"*failed: {inline(e.failed)}*", ""]
            continue
        if e.discussion is not None:
            dsc = e.discussion
            out += [block(dsc.response), "", f"- **{t('wf.citations')}:**"]
            out += [f"  - \\[{inline(ct.source_role)}\\] \"{inline(ct.claim)}\" — "
                    f"{inline(ct.response)}"
                    for ct in dsc.citations]
            out.append(f"- **{t('wf.acknowledged')}:** "
                       + ("; ".join(map(inline, dsc.acknowledged_missed)) or t("common.none")))
            out.append(f"- **{t('wf.key_recommendation')}:** "
                       f"{inline(dsc.key_recommendation) or t('common.none')}")
            if e.contract is not None:
                verdict = (t("wf.contract_ok") if e.contract.passed else
                           t("wf.contract_failed",
                             problems="; ".join(map(inline, e.contract.problems))))
                out.append(f"- **{t('wf.contract')}:** {verdict}")
        if e.rebuttal is not None:
            rb = e.rebuttal
            out += [f"**{inline(rb.stance)}:** {inline(rb.argument)}", "",
                    f"- path forward: {inline(rb.path_forward)}",
                    f"- **{t('wf.key_recommendation')}:** {inline(rb.key_recommendation)}"]
        out.append("")
    out += [f"## {t('wf.convergence')}", "",
            f"- **{t('adv.rounds')}:** {c.rounds}",
            f"- **{t('wf.status')}:** {t('wf.status.' + c.status)}",
            f"- **{t('wf.key_agreement')}:** {inline(c.key_agreement) or t('common.none')}",
            f"- **{t('wf.remaining_tension')}:** "
            f"{inline(c.remaining_tension) or t('common.none')}", ""]
    s = result.synthesis
    out += [f"## {t('wf.final_synthesis')}", "", block(s.summary), "",
            f"### {t('wf.consensus')}", ""]
    out += [f"- {inline(x)}" for x in s.consensus] or [f"- {t('common.none')}"]
    out += ["", f"### {t('wf.tensions')}", ""]
    out += [f"- {inline(x)}" for x in s.tensions] or [f"- {t('common.none')}"]
    out += ["", f"### {t('wf.framework')}", ""]
    out += [f"- **{inline(x.criterion)}:** {inline(x.favours)}" for x in s.decision_framework]
    out += ["", f"## {t('wf.next_steps')}", ""]
    out += [f"{n}. {inline(x)}" for n, x in enumerate(s.next_steps, 1)]
    out.append("")
    out += _claims(t, result.unverified_claims, result.verifier_ok)
    out.append(_usage_line(result))
    return "\n".join(out) + "\n"
