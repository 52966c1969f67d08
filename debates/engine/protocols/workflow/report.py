"""The workflow protocol's Markdown report: each role's perspective, the discussion
with its contract checks, the convergence status and the final synthesis."""

from __future__ import annotations

from collections.abc import Callable

from ...i18n import translator
from ...markdown import block, inline
from ..report_parts import (
    claims_section,
    evidence_section,
    not_advice,
    quality_lines,
    usage_line,
)
from .labels import labels
from .schemas import WorkflowResult


def workflow_markdown(result: WorkflowResult) -> str:
    t, shared = labels(result.language), translator(result.language)
    name = _field_names(result.language)
    # Inside a list item English shows the payload's own key, as it always has.
    inner = name if shared.has_translation else str
    c = result.convergence
    out = [f"# {t('wf.title')}", *quality_lines(result)]
    if result.simulated:
        out += [shared("simulated"), ""]
    out += [
        f"**{t('common.question')}:** {inline(result.question)}  ",
        f"**{t('wf.mode')}:** "
        f"{t('page.wf_mode.deep') if result.deep else t('page.wf_mode.standard')} · "
        f"{t('common.model')} {inline(result.config.model)} · "
        f"{t('page.synthesis_model')} {inline(result.synthesis_model)}  ",
    ]
    if result.degraded:
        out.append(f"**{t('common.degraded')}:** " + " ".join(map(inline, result.degraded_notes)))
    out += ["", f"## {t('wf.perspectives')}", ""]
    for p in result.perspectives:
        out += [f"### {inline(p.label)}", "", f"*{inline(t(f'page.focus.{p.role}'))}*", ""]
        if p.failed:
            out += [f"*{t('page.failed_with', error=inline(p.failed))}*", ""]
            continue
        analysis = p.analysis or {}
        out += [block(analysis.get("summary", "")), ""]
        for key, value in analysis.items():
            if key == "summary" or not isinstance(value, list):
                continue
            out.append(f"- **{inline(name(key))}:**")
            for item in value:
                text = ("; ".join(f"{inner(k)}: {v}" for k, v in item.items() if v)
                        if isinstance(item, dict) else str(item))
                out.append(f"  - {inline(text)}")
        out.append("")
    out += [f"## {t('wf.discussion')}", ""]
    for e in result.discussion:
        heading = inline(e.label) if e.round == 1 else f"{inline(e.label)} — {t('wf.phase2b')}"
        out += [f"### {heading}", ""]
        if e.failed:
            out += [f"*{t('page.failed_with', error=inline(e.failed))}*", ""]
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
                    f"- {name('path_forward')}: {inline(rb.path_forward)}",
                    f"- **{t('wf.key_recommendation')}:** {inline(rb.key_recommendation)}"]
        out.append("")
    out += [f"## {t('wf.convergence')}", "",
            f"- **{t('adv.rounds')}:** {c.rounds}",
            f"- **{t('wf.status')}:** {t('wf.status.' + c.status)}",
            f"- **{t('wf.key_agreement')}:** {inline(c.key_agreement) or t('common.none')}",
            f"- **{t('wf.remaining_tension')}:** "
            f"{inline(c.remaining_tension) or t('common.none')}", ""]
    s = result.synthesis
    out += [f"## {t('wf.final_synthesis')}", "", *not_advice(result), block(s.summary), "",
            f"### {t('wf.consensus')}", ""]
    out += [f"- {inline(x)}" for x in s.consensus] or [f"- {t('common.none')}"]
    out += ["", f"### {t('wf.tensions')}", ""]
    out += [f"- {inline(x)}" for x in s.tensions] or [f"- {t('common.none')}"]
    out += ["", f"### {t('wf.framework')}", ""]
    out += [f"- **{inline(x.criterion)}:** {inline(x.favours)}" for x in s.decision_framework]
    out += ["", f"## {t('wf.next_steps')}", ""]
    out += [f"{n}. {inline(x)}" for n, x in enumerate(s.next_steps, 1)]
    out.append("")
    out += evidence_section(result)
    out += claims_section(t, result.unverified_claims, result.verifier_ok, result.language)
    out.append(usage_line(result))
    return "\n".join(out) + "\n"


def _field_names(language: str) -> Callable[[str], str]:
    """A payload field's name: its words in English (and in a language without a
    catalogue), the catalogue's otherwise."""
    t = translator(language)
    if not t.has_translation:
        return lambda key: key.replace("_", " ")
    return lambda key: t(f"field.{key}") if f"field.{key}" in t \
        else key.replace("_", " ")
