"""The adversarial protocol's Markdown report: the final solution, its key decisions,
the issues by id with their history, and every round in full."""

from __future__ import annotations

from collections.abc import Callable

from ...i18n import translator
from ...markdown import block, cell, inline
from ..report_parts import (
    claims_section,
    evidence_section,
    not_advice,
    quality_lines,
    usage_line,
)
from .domains import localized
from .issues import RoundTally
from .labels import labels
from .schemas import AdversarialResult, Critique, Proposal
from .stopping import status_line_in


def adversarial_markdown(result: AdversarialResult) -> str:
    t, shared = labels(result.language), translator(result.language)
    detected = localized(result.domain, result.language)
    d = detected.domain
    out = [f"# {t('adv.title')}", *quality_lines(result)]
    if result.simulated:
        out += [shared("simulated"), ""]
    out += [
        f"**{t('common.question')}:** {inline(result.question)}  ",
        f"**{t('adv.domain')}:** {inline(d.name)} ({inline(detected.reason)})  ",
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
        line = status_line_in(result.language, r.round, result.max_rounds, r.tally.counts,
                              r.decision)
        claimed = r.tally.claimed
        if claimed is not None and claimed != r.tally.counts:
            line += "   (" + t("adv.claimed", red=claimed.red, yellow=claimed.yellow,
                                green=claimed.green) + ")"
        out.append(line)
    out += ["```", "", f"## {t('adv.final_solution')}", "", *not_advice(result),
            block(result.final_solution), ""]
    out += [f"## {t('adv.key_decisions')}", "", t("adv.decisions_header"), "|---|---|---|"]
    out += [f"| {cell(k.issue)} | {cell(k.decision)} | {cell(k.rationale)} |"
            for k in result.key_decisions]
    out += ["", f"## {t('adv.remaining_risks')}", ""]
    out += [f"- {inline(risk)}" for risk in result.remaining_risks] or [f"- {t('common.none')}"]
    out += ["", f"## {t('adv.issues')}", "", t("adv.issues_header"), "|---|---|---|---|---|"]
    for issue in result.issues:
        status = t("adv.open") if issue.open else t("adv.resolved_in", round=issue.resolved_in)
        out.append(f"| {cell(issue.id)} | {t(f'page.sev.{issue.severity.value}')} | "
                   f"{cell(issue.title)} | "
                   f"{issue.raised_in} | {status} |")
    out.append("")
    out += evidence_section(result)
    out += claims_section(t, result.unverified_claims, result.verifier_ok, result.language)
    out.append(usage_line(result))
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
