"""What a debate's answers rest on in its sources (docs/engine.md, "Sources").

Every citation in every answered turn is checked against its passage; the passages
cited with a quote found in them are the evidence used; those cited by agents on
different sides (different final verdicts, different roles), or cited in a
disagreement still held, are contested; the synthesis's claims that cite no passage
found are listed as resting on none. And the measure of the retrieval: of the
distinct (who cited, passage) pairs, how many had that passage been shown to them in
that step or an earlier one (``Turn.offered``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..i18n import PANEL_CITER
from ..quality.turns import leaves
from ..schemas import (
    PASSAGES_FIELD,
    CheckedCitation,
    EvidenceReport,
    EvidenceUse,
    PassageOffer,
    Phase,
    TurnStatus,
)
from ..sources.citations import (
    citations_in,
    copied_from,
    holding_passage,
    loose_quotes,
    quote_found,
    without_citations,
)
from ..sources.passages import Passage
from ..sources.retrieval import library
from ..state import DebateState, Step


@dataclass
class EvidenceRules:
    """What a protocol says about its own turns: how a step is named, which side an
    agent is on (None: no side), which fields hold disputed points, and the
    synthesis's claims."""

    step_label: Callable[[Step], str]
    side: Callable[[int], str | None] = lambda agent: None
    disputed: frozenset[str] = frozenset()
    claims: list[str] = field(default_factory=list)


_UNSOURCED = (Phase.VERIFY, Phase.JUDGE)
Way = Literal["cited", "listed", "quoted", "copied"]


def _who(state: DebateState, agent: int) -> str:
    return state.personas[agent].name if 0 <= agent < len(state.personas) else PANEL_CITER


def check_citations(state: DebateState, rules: EvidenceRules
                    ) -> tuple[list[CheckedCitation], set[str], list[PassageOffer]]:
    """Every citation of every answered turn but the verifier's and the judge's, in the
    order the debate ran; the passage ids cited inside disputed fields; what each of
    those turns was shown. A turn's citations in the prompts' form come first, then
    the ids of its passages field, the quotes without an id found in a passage, and
    the figures and phrases copied from one passage alone (``turn_citations``)."""
    books = library(state.sources).by_id
    texts = [(p.id, p.text) for p in library(state.sources).passages]
    common = f"{state.question}\n{state.context}"
    turns = sorted((t for t in state.turns.values()
                    if t.status is TurnStatus.OK and t.payload
                    and t.phase not in _UNSOURCED),
                   key=lambda t: (Step(t.phase, t.round).order, t.agent))
    shown: dict[int, set[str]] = {}
    checked: list[CheckedCitation] = []
    disputed: set[str] = set()
    offers: list[PassageOffer] = []
    for turn in turns:
        seen = shown.setdefault(turn.agent, set())
        seen.update(turn.offered)
        where = rules.step_label(Step(turn.phase, turn.round))
        if turn.agent >= 0:
            where += f" · {_who(state, turn.agent)}"
        if turn.offered:
            offers.append(PassageOffer(where=where, agent=turn.agent,
                                       passages=list(turn.offered)))
        for way, passage_id, quote, found, path in turn_citations(
                turn.payload or {}, books, texts, common):
            checked.append(CheckedCitation(
                passage=passage_id, quote=quote, where=where, agent=turn.agent,
                known=passage_id in books, found=found, offered=passage_id in seen,
                way=way))
            if set(path) & rules.disputed and found:
                disputed.add(passage_id)
    return checked, disputed, offers


_PASSAGE_ID = re.compile(r"S[1-9][0-9]*\.[1-9][0-9]*", re.IGNORECASE)


def listed_ids(payload: dict[str, Any]) -> list[str]:
    """The passage ids a turn gives in its passages field, as the prompts write them
    ("[S1.2]", "s1.2" and "S1.2" alike); what names no id is left out."""
    value = payload.get(PASSAGES_FIELD)
    items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    return list(dict.fromkeys(m.group(0).upper() for item in items
                              if (m := _PASSAGE_ID.search(str(item)))))


def turn_citations(payload: dict[str, Any], books: Mapping[str, Passage],
                   texts: Sequence[tuple[str, str]], common: str
                   ) -> list[tuple[Way, str, str, bool, tuple[str, ...]]]:
    """One turn's citations as (way, passage id, quote, found, field path): each
    ``[S1.2] "quote"``; each id of the passages field not cited so; each quote without
    an id that a passage holds; each passage a figure or five words were copied from
    alone (docs/engine.md, "Sources"). A passage credited once in a turn is not
    credited again by a weaker way."""
    prose = [(path, text) for path, text in leaves(payload)
             if PASSAGES_FIELD not in path[:1]]
    found: list[tuple[Way, str, str, bool, tuple[str, ...]]] = [
        ("cited", cite.passage, cite.quote, cite.passage in books
         and quote_found(cite.quote, books[cite.passage].text), path)
        for path, text in prose for cite in citations_in(text)]
    credited = {f[1] for f in found}
    for passage_id in listed_ids(payload):
        if passage_id not in credited:
            credited.add(passage_id)
            found.append(("listed", passage_id, "", passage_id in books,
                          (PASSAGES_FIELD,)))
    return found + unmarked_citations(prose, texts, common, credited)


def unmarked_citations(prose: Sequence[tuple[tuple[str, ...], str]],
                       texts: Sequence[tuple[str, str]], common: str, credited: set[str]
                       ) -> list[tuple[Way, str, str, bool, tuple[str, ...]]]:
    """The quotes without an id found in a passage, then the passages a figure or five
    words were copied from alone (one each, those already ``credited`` left out)."""
    found: list[tuple[Way, str, str, bool, tuple[str, ...]]] = []
    for path, text in prose:
        for quote in loose_quotes(text):
            holder = holding_passage(quote, texts)
            if holder is not None:
                credited.add(holder)
                found.append(("quoted", holder, quote, True, path))
    for path, text in prose:
        for passage_id, copied in copied_from(text, texts, common):
            if passage_id not in credited:
                credited.add(passage_id)
                found.append(("copied", passage_id, copied, True, path))
    return found


def _uses(state: DebateState, citations: Iterable[CheckedCitation]) -> dict[str, EvidenceUse]:
    names = {d.id: d.title for d in state.sources}
    uses: dict[str, EvidenceUse] = {}
    for c in citations:
        if not (c.known and c.found):
            continue
        use = uses.setdefault(c.passage, EvidenceUse(
            passage=c.passage, source=names.get(c.passage.split(".")[0], "")))
        if c.quote and c.quote not in use.quotes:  # a listed id quotes nothing
            use.quotes.append(c.quote)
        who = _who(state, c.agent)
        if who not in use.cited_by:
            use.cited_by.append(who)
    return uses


def evidence_report(state: DebateState, rules: EvidenceRules) -> EvidenceReport | None:
    """The evidence of a debate with sources; None without any."""
    if not state.sources:
        return None
    citations, disputed, offers = check_citations(state, rules)
    uses = _uses(state, citations)
    sides: dict[str, set[str]] = {}
    for c in citations:
        side = rules.side(c.agent)
        if c.known and c.found and side is not None:
            sides.setdefault(c.passage, set()).add(side)
    contested = [use for pid, use in uses.items()
                 if len(sides.get(pid, ())) >= 2 or pid in disputed]
    pairs = {(c.agent, c.passage): c.offered for c in citations}
    books = library(state.sources)
    by_id = books.by_id

    texts = [(p.id, p.text) for p in books.passages]
    common = f"{state.question}\n{state.context}"

    def rests_on_some(claim: str) -> bool:
        return any(found for _, _, _, found, _ in turn_citations(
            {"claim": claim}, by_id, texts, common))

    unsupported = [without_citations(claim) for claim in rules.claims
                   if not rests_on_some(claim)]
    order = {p.id: n for n, p in enumerate(books.passages)}
    return EvidenceReport(
        sources=[f"{d.id}: {d.title}" for d in state.sources],
        passages=len(books.passages),
        citations=citations,
        used=sorted(uses.values(), key=lambda u: order.get(u.passage, 0)),
        contested=sorted(contested, key=lambda u: order.get(u.passage, 0)),
        unsupported_claims=[c for c in unsupported if c],
        cited_pairs=len(pairs),
        offered_pairs=sum(1 for offered in pairs.values() if offered),
        offers=offers,
    )
