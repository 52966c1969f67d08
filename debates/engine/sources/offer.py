"""What each call is shown of the sources, within its budget (docs/engine.md, "Sources").

Every source whole when all of them fit the call's budget; else two parts. The shared
part, chosen for the question alone, opens every prompt of the debate identically (a
provider's prompt cache serves it after the first call). The focused part, chosen for
the points under discussion (this round's open disagreements, open issues, the
disagreement left), comes after it, leaving out what the shared part already holds.

The budget is the smaller of half the model's context and ``BUDGET_TOKENS``: every
call pays for what it is shown (a cached prefix at a tenth of the price, but still on
every call), so a long document is read through the passages that matter to the
debate, not whole in every prompt. A prompt shortened to fit its context
(``compaction``) halves it at each level.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..llm.capabilities import capabilities
from ..schemas import DebateConfig
from .documents import SourceDocument
from .passages import Passage
from .retrieval import library, passage_tokens

BUDGET_TOKENS = 4_000
CONTEXT_SHARE = 0.5
# Of the budget, what the focused part may take when the sources do not fit whole.
FOCUS_SHARE = 0.25


@dataclass(frozen=True)
class Offer:
    """The passages one call is shown: ``shared`` in the prompt's shared prefix,
    ``focused`` after it. ``whole``: every passage of every source is in ``shared``."""

    shared: tuple[Passage, ...] = ()
    focused: tuple[Passage, ...] = ()
    whole: bool = False

    @property
    def ids(self) -> list[str]:
        return [p.id for p in (*self.shared, *self.focused)]

    def __bool__(self) -> bool:
        return bool(self.shared or self.focused)


def budget(config: DebateConfig, model: str, compaction: int = 0) -> int:
    """Tokens of sources a call to ``model`` may carry."""
    limit = config.context_limit_tokens or capabilities(model).context_limit
    return min(int(limit * CONTEXT_SHARE), BUDGET_TOKENS) >> compaction


def offer(sources: list[SourceDocument], config: DebateConfig, model: str, *,
          question: str, focus: str = "", compaction: int = 0) -> Offer:
    """What a call to ``model`` about ``question`` is shown, ``focus`` being the points
    under discussion (empty: none)."""
    if not sources:
        return Offer()
    books = library(sources)
    allowed = budget(config, model, compaction)
    if sum(passage_tokens(p) for p in books.passages) <= allowed:
        return Offer(shared=tuple(books.passages), whole=True)
    # Reserved whether or not this call has a focus: the shared part must be the same
    # for every call, with or without points under discussion.
    focus_budget = int(allowed * FOCUS_SHARE)
    # The question's matches first, then the documents' openings (where a summary
    # usually is) until the shared budget is spent.
    ranked = books.ranked(question)
    seen = {p.id for p in ranked}
    shared = books.within([*ranked, *(p for p in books.passages if p.id not in seen)],
                          allowed - focus_budget)
    focused = books.within(books.ranked(focus), focus_budget, exclude=shared)
    return Offer(shared=tuple(shared), focused=tuple(focused))


def titles(sources: list[SourceDocument]) -> dict[str, str]:
    return {d.id: d.title for d in sources}


def render_passages(passages: tuple[Passage, ...], sources: list[SourceDocument]) -> str:
    """Passages under their sources' titles, each opened by its id: ``[S2.14] text``."""
    names = titles(sources)
    lines: list[str] = []
    current = None
    for passage in passages:
        if passage.source_id != current:
            current = passage.source_id
            lines.append(f"## {current}: {names.get(current, current)}")
        lines.append(f"[{passage.id}] {passage.text}")
    return "\n\n".join(lines)


def hint(offer_: Offer) -> list[dict[str, str]]:
    """The offered passages as the simulated model reads them from its call's hints
    (it cites what it was shown: docs/simulator.md)."""
    return [{"id": p.id, "text": p.text} for p in (*offer_.shared, *offer_.focused)]
