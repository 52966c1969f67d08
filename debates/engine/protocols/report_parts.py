"""The parts the adversarial and workflow reports share: the unverified claims and
the usage line. Untrusted text goes through ``markdown`` like every report's."""

from __future__ import annotations

from collections.abc import Callable

from ..i18n import citer_words, translator, where_words
from ..markdown import inline
from ..schemas import EvidenceReport, EvidenceUse, ProtocolResult, Quality, UnverifiedClaim
from ..sources.citations import PassageCitation, mark_citations, normalised


def claims_section(t: Callable[..., str], claims: list[UnverifiedClaim], ok: bool,
                   language: str = "en") -> list[str]:
    # English keeps the claim type's value as ever ("product_behaviour"); the other
    # languages name it from the shared table.
    kind = ((lambda c: c.type.value) if language == "en"
            else (lambda c: translator(language)(f"claim.{c.type.value}")))
    out = [f"## {t('common.unverified')}", ""]
    if not ok:
        out.append(t("common.verifier_failed"))
    out += [f"- \"{inline(c.quote)}\" ({kind(c)}): {inline(c.why)}" for c in claims]
    if ok and not claims:
        out.append(f"- {t('common.none')}")
    return [*out, ""]


def usage_line(result: ProtocolResult) -> str:
    """Calls, tokens, cost and time in the result's language (the same words as ever in
    English)."""
    u, t = result.usage, translator(result.language)
    cost = f"${u.cost_usd:.4f}" if u.cost_known else t("common.cost_unknown")
    return "*" + t("common.usage_line", calls=u.calls, failed=u.failed_calls,
                   prompt=u.prompt_tokens, completion=u.completion_tokens, cost=cost,
                   wall=f"{u.wall_time_s:.1f}", version=result.prompt_version,
                   model=inline(result.synthesis_model)) + "*"


def quality_lines(result: ProtocolResult) -> list[str]:
    """The content checks' verdict, for the top of a report: nothing when sound (as a
    result stored before the checks reads), else the verdict and the rules that fired;
    and every content repair the debate made (docs/engine.md, "Content checks")."""
    t = translator(result.language)
    repairs = [t("repair.taken" if r.taken else "repair.kept", step=inline(r.step))
               for r in result.repairs]
    repaired = [*repairs, ""] if repairs else []
    if result.quality is Quality.SOUND:
        return repaired
    rules = list(dict.fromkeys(r.rule for r in result.quality_reasons))
    shown = ", ".join(rules[:4]) + (", …" if len(rules) > 4 else "")
    # Each reason with its place and evidence: a reader (or an export) sees what fired
    # without opening the JSON.
    reasons = [f"- `{r.rule}` · {inline(r.where)}: {inline(r.evidence)}"
               for r in result.quality_reasons]
    return [f"**{t('quality')}:** " + t(f"quality.{result.quality.value}",
                                        reasons=inline(shown)), "", *reasons,
            *([""] if reasons else []), *repaired]


def not_advice(result: ProtocolResult) -> list[str]:
    """Under the decision's heading of an unusable result: not to be acted on."""
    if result.quality is not Quality.UNUSABLE:
        return []
    return [translator(result.language)("quality.not_advice"), ""]


def evidence_section(result: ProtocolResult) -> list[str]:
    """The sources' evidence (docs/engine.md, "Sources"): the passages used, those
    contested, the synthesis's claims that rest on none, the citations that do not
    check out, and how many cited passages had been shown to whoever cited them.
    Nothing for a debate without sources."""
    evidence = result.evidence
    if evidence is None:
        return []
    t = translator(result.language)
    out = [f"## {t('evidence.title')}", "",
           t("evidence.sources", sources="; ".join(map(inline, evidence.sources)),
             passages=evidence.passages)]
    share = evidence.offered_share
    if share is not None:
        out.append(t("evidence.offered", cited=evidence.cited_pairs,
                     offered=evidence.offered_pairs, share=f"{share:.0%}"))
    out.append("")

    def cited_by(use: EvidenceUse) -> str:
        return t("evidence.cited_by",
                 names=", ".join(inline(citer_words(t, n)) for n in use.cited_by))

    def uses(title: str, items: list[EvidenceUse]) -> list[str]:
        lines = [f"### {t(title)}", ""]
        lines += [f"- **[{inline(u.passage)}]** ({inline(u.source)}) "
                  + " · ".join(f"\"{inline(q)}\"" for q in u.quotes) + f" — {cited_by(u)}"
                  for u in items] or [f"- {t('evidence.none')}"]
        return [*lines, ""]

    out += uses("evidence.used", evidence.used)
    out += uses("evidence.contested", evidence.contested)
    out += [f"### {t('evidence.unsupported')}", ""]
    out += [f"- {inline(c)}" for c in evidence.unsupported_claims] \
        or [f"- {t('evidence.none')}"]
    out.append("")
    if evidence.not_found:
        out += [f"### {t('evidence.not_found')}", ""]
        out += [f"- [{inline(c.passage)}] "
                + (f"\"{inline(c.quote)}\" " if c.quote else "")
                + f"({inline(where_words(t, c.where))}: "
                f"{t('evidence.wrong_quote' if c.known else 'evidence.unknown')})"
                for c in evidence.not_found]
        out.append("")
    return out


def mark_unfound(markdown: str, result: ProtocolResult) -> str:
    """A rendered report with every citation that does not check out marked where it
    stands ("[S1.2] "…" *(not found in S1)*"), so no report quotes an unfound quote as
    if the source held it (docs/engine.md, "Sources"). A citation without a quote of a
    passage that exists claims no words and is left as written."""
    evidence = result.evidence
    if evidence is None or not evidence.not_found:
        return markdown
    return mark_unfound_citations(markdown, evidence, result.language)


def mark_unfound_citations(markdown: str, evidence: EvidenceReport, language: str) -> str:
    """``markdown`` (a report, or one answer's text as a page shows it) with the
    citations of ``evidence`` that do not check out marked where they stand, in
    ``language`` (``mark_unfound``)."""
    if not evidence.not_found:
        return markdown
    t = translator(language)
    bad = {(c.passage, normalised(c.quote)): c.known for c in evidence.not_found}
    unknown = {c.passage for c in evidence.not_found if not c.known}

    def marker(cite: PassageCitation) -> str | None:
        if cite.passage in unknown:
            return f"*({t('evidence.mark_unknown', passage=cite.passage)})*"
        if cite.quote and bad.get((cite.passage, normalised(cite.quote))) is True:
            source = cite.passage.split(".")[0]
            return f"*({t('evidence.mark_not_found', source=source)})*"
        return None

    return mark_citations(markdown, marker)
