"""The rules across turns, on plain figures the protocols hand over: the panel's
names, confidences and stances, the quotes cited as evidence, a critic's counts, the
workflow's contracts (thresholds in ``rules.py``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import combinations

from ..novelty import similarity, tokens
from ..schemas import QualityReason
from .rules import (
    QUOTE_MIN_FOUND,
    STANCE_SIMILARITY,
    UNFOUND_CITATION_SHARE,
    reason_severity,
)
from .text import normalised, shorten, words

# Names a model writes when it fills the schema's slot without composing anyone.
PLACEHOLDER_NAMES = frozenset({
    "name", "names", "namen", "nom", "nombre", "agent", "persona", "personas", "expert",
    "member", "panelist", "person", "string", "example", "placeholder", "john doe",
    "jane doe", "your name", "full name", "名前", "名字", "姓名"})
_COPY_SUFFIX = re.compile(r"\s*\(\d+\)$")


def reason(rule: str, where: str, evidence: str, phase: str | None = None,
           round_number: int | None = None, agent: int | None = None) -> QualityReason:
    return QualityReason(rule=rule, severity=reason_severity(rule), where=where,
                         evidence=shorten(evidence), phase=phase, round=round_number,
                         agent=agent)


def names(composed: Sequence[str]) -> list[QualityReason]:
    """Placeholder or repeated persona names ("Namen", "Namen (2)")."""
    bases = [_COPY_SUFFIX.sub("", n).strip() for n in composed]
    placeholders = [n for n, b in zip(composed, bases, strict=True)
                    if normalised(b) in PLACEHOLDER_NAMES or not normalised(b)]
    repeated = sorted({b for b in bases if bases.count(b) > 1})
    found = []
    if placeholders:
        found.append(reason("agents.placeholder_name", "the panel's names",
                            ", ".join(placeholders), "compose"))
    elif repeated:
        found.append(reason("agents.placeholder_name", "the panel's names",
                            "repeated: " + ", ".join(composed), "compose"))
    return found


def confidences(trails: Sequence[Sequence[float]]) -> list[QualityReason]:
    """``trails``: each agent's confidence by round (position first)."""
    trails = [t for t in trails if t]
    if len(trails) < 2:
        return []
    values = [v for t in trails for v in t]
    shown = "; ".join("→".join(f"{v:.2f}" for v in t) for t in trails)
    if all(v in (0.0, 1.0) for v in values):
        return [reason("confidence.extreme", "every agent's confidence", shown)]
    if max(len(t) for t in trails) >= 2 and len(set(values)) == 1:
        return [reason("confidence.frozen", "every agent's confidence", shown)]
    return []


def stances(stated: Sequence[str], where: str, phase: str, round_number: int,
            options: dict[str, str] | None = None) -> list[QualityReason]:
    """Every agent's stance the same words: one agent's sentence copied by the rest.
    Stances that are each just an option's name (``options``: normalised name or label
    -> option) are a panel agreeing in the fewest words, not copying: the real Qwen
    1.5B panel wrote "against" three times (docs/engine.md, "Content checks")."""
    stated = [s for s in stated if s.strip()]
    if len(stated) < 2:
        return []
    if options and all(normalised(s) in options for s in stated):
        return []
    same = all(normalised(a) == normalised(b) or _alike(a, b)
               for a, b in combinations(stated, 2))
    return [reason("stances.identical", where, stated[0], phase, round_number)] if same else []


def _alike(a: str, b: str) -> bool:
    """Word similarity, only between stances that have content words: two made of stop
    words alone ("Against", "For") have no tokens to compare and are not alike."""
    ta, tb = tokens(a), tokens(b)
    return bool(ta and tb) and similarity(ta, tb) >= STANCE_SIMILARITY


_OPENING = re.compile(r"^\s*(?P<head>[^:;,.\-–—]+?)\s*(?:[:;,.\-–—]|$)")


def named_option(stance: str, names: dict[str, str]) -> str | None:
    """The option ``stance`` is, or opens with ("Against", "against: the cost..."),
    from ``names`` (normalised name or label -> option); None otherwise."""
    whole = normalised(stance)
    if whole in names:
        return names[whole]
    match = _OPENING.match(stance)
    return names.get(normalised(match.group("head"))) if match else None


def stance_verdicts(stated: Iterable[tuple[str, str | None, str | None, str, int, int]],
                    names: dict[str, str]) -> list[QualityReason]:
    """Each (where, stance, verdict, phase, round, agent): a stance that names an option
    other than its own verdict."""
    found = []
    for where, stance, verdict, phase, round_number, agent in stated:
        said = named_option(stance or "", names)
        if said is not None and verdict is not None and said != verdict:
            found.append(reason("stances.contradict_verdict", where,
                                f"stance {stance!r}, verdict {verdict!r}", phase,
                                round_number, agent))
    return found


# What a synthesis may credit a view to besides an agent: the panel as a whole.
COLLECTIVE = frozenset({"all", "everyone", "panel", "the panel", "all agents", "agents",
                        "majority", "the majority", "minority", "the minority", "others",
                        "全員", "所有人", "全体", "tous", "le panel"})
_JOINERS = re.compile(r"\s*(?:,|、|，|;|/|&|\band\b|\bet\b|和|と)\s*")


def credited(credit: str, agents: Sequence[str]) -> bool:
    """Whether ``credit`` (one name, or several joined: "Ann, Bo") names agents of the
    panel; a name may come with a title or a role around it ("Dr. Ann Lee (CFO)")."""
    known = [set(words(a)) for a in agents]
    for part in _JOINERS.split(credit):
        flat = normalised(part)
        if not flat or flat in COLLECTIVE:
            continue
        said = set(words(part))
        if not any(name and (name <= said or said <= name) for name in known):
            return False
    return True


def unknown_credits(credits: Iterable[tuple[str, str]], agents: Sequence[str],
                    phase: str) -> list[QualityReason]:
    """Each (where, credited name): one reason naming every credit to nobody."""
    unknown = [(where, name) for where, name in credits if not credited(name, agents)]
    if not unknown:
        return []
    names = ", ".join(dict.fromkeys(name for _, name in unknown))
    return [reason("agents.unknown_credit", unknown[0][0] + (
        f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""), names, phase)]


def unfound_citations(cited: Sequence[tuple[str, str, str, bool, bool, int]]
                      ) -> list[QualityReason]:
    """Each citation of a source as (where, passage, quote, known, found, agent): when
    at least ``UNFOUND_CITATION_SHARE`` of them do not check out, one reason for each
    that does not, where it was made. A passage that exists cited without any quote
    counts neither way, unless it was credited (found: its id given in the turn's
    passages field, docs/engine.md, "Sources")."""
    # A passage that exists cited without a quote claims no words: neither found nor
    # invented, so it does not count; one listed in the passages field is a citation.
    cited = [c for c in cited if c[2] or not c[3] or c[4]]
    bad = [c for c in cited if not (c[3] and c[4])]
    if not bad or len(bad) / len(cited) < UNFOUND_CITATION_SHARE:
        return []
    found = []
    for where, passage, quote, known, _, agent in bad:
        # Not in the citation form: the report marks citations, not its own reasons.
        what = f"{passage} does not hold \"{quote}\"" if known else f"no passage {passage}"
        found.append(reason("evidence.unfound_citation", where,
                            f"{len(bad)} of {len(cited)} citations do not check out; {what}",
                            agent=agent if agent >= 0 else None))
    return found


def quotes(cited: Iterable[tuple[str, str, str | None, int | None, int | None]],
           corpus: str) -> list[QualityReason]:
    """Quotes, each (where, quote, phase, round, agent), of which under a third of the
    words appear in ``corpus`` (the debate's turns, its question and its sources)."""
    cited = list(cited)
    if not cited:
        return []
    known = tokens(corpus)
    found = []
    for where, quote, phase, round_number, agent in cited:
        words = tokens(quote)
        share = (sum(1 for w in words if w in known) / len(words)) if words else 0.0
        if share < QUOTE_MIN_FOUND:
            found.append(reason("evidence.unfound_quote", where, f"{share:.0%} found: {quote}",
                                phase, round_number, agent))
    return found
