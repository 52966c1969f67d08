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

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..i18n import PANEL_CITER
from ..quality.turns import leaves
from ..schemas import (
    CheckedCitation,
    EvidenceReport,
    EvidenceUse,
    PassageOffer,
    Phase,
    TurnStatus,
)
from ..sources.citations import citations_in, quote_found, without_citations
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


def _who(state: DebateState, agent: int) -> str:
    return state.personas[agent].name if 0 <= agent < len(state.personas) else PANEL_CITER


def check_citations(state: DebateState, rules: EvidenceRules
                    ) -> tuple[list[CheckedCitation], set[str], list[PassageOffer]]:
    """Every citation of every answered turn but the verifier's and the judge's, in the
    order the debate ran; the passage ids cited inside disputed fields; what each of
    those turns was shown."""
    books = library(state.sources).by_id
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
        for path, text in leaves(turn.payload):
            for cite in citations_in(text):
                passage = books.get(cite.passage)
                checked.append(CheckedCitation(
                    passage=cite.passage, quote=cite.quote, where=where, agent=turn.agent,
                    known=passage is not None,
                    found=passage is not None and quote_found(cite.quote, passage.text),
                    offered=cite.passage in seen))
                if set(path) & rules.disputed:
                    disputed.add(cite.passage)
    return checked, disputed, offers


def _uses(state: DebateState, citations: Iterable[CheckedCitation]) -> dict[str, EvidenceUse]:
    names = {d.id: d.title for d in state.sources}
    uses: dict[str, EvidenceUse] = {}
    for c in citations:
        if not (c.known and c.found):
            continue
        use = uses.setdefault(c.passage, EvidenceUse(
            passage=c.passage, source=names.get(c.passage.split(".")[0], "")))
        if c.quote not in use.quotes:
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

    def rests_on_some(claim: str) -> bool:
        return any(c.passage in by_id and quote_found(c.quote, by_id[c.passage].text)
                   for c in citations_in(claim))

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
