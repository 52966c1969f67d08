"""The point ledger: every point raised in a debate, with an id (docs/protocols.md 1.6).

Word similarity alone errs both ways on rewordings ("The rollback plan is untested" /
"Nobody has ever tried rolling back" are one point; "migration cost is underestimated"
/ "migration timeline is underestimated" are two). So every point raised gets an id
(``D1``… for remaining disagreements, ``E1``… for evidence needed), agents are shown
the points with their ids, and an item that restates one begins with its id:
``"[D3] nobody has tried a rollback"``. Items stay plain strings, so stored turns,
pages and exports need no change; ``normalise_items`` also accepts
``{"text": ..., "cites": "D3"}`` objects and turns them into that form.

Judging one item of round r, in order (agents by index, then disagreements before
evidence, then item order):

1. It cites an id of a point raised before round r: a restatement, not new. Citations
   are trusted; that is the point of the protocol.
2. A citation of an unknown id (made up, or of a point of the same round, which the
   agent could not have seen) is ignored: the item is judged like an uncited one, so a
   made-up id can neither hide a new point nor make an old one look new.
3. Uncited, and its words repeat an earlier point almost verbatim (similarity >=
   ``REPEAT_THRESHOLD``): not new, whoever wrote it (a model that forgot the id on a
   copy).
4. Uncited, from an agent that has never cited a valid id (a model that ignores ids):
   the fallback, word similarity >= the debate's novelty threshold against every
   earlier text of every point.
5. Uncited, from an agent that cites ids: it said this point is none of those shown,
   so it is new, unless (6).
6. Near-duplicate (>= threshold) of a point first raised earlier in the same round:
   agents of one round run in parallel and cannot cite each other, so the duplicate
   merges into that point.

Ids are assigned in that same order, from the stored turns alone (no state of its
own), so every process that rebuilds the ledger gets the same ids.

The ledger is generic: a ``Point`` also carries a per-round severity and an explicit
per-round resolution, which the adversarial critic's issues (red/yellow/green, resolved
or not; protocols/adversarial/issues.py) use; the council has neither and treats a point as open
while someone still raises it. Three settings serve the critic, whose stakes differ
(a blocking issue must not vanish by rewording):

- ``fallback_for_all``: step 4's word similarity applies to citing agents too, so a
  critic that cites some ids cannot re-raise a resolved issue in new words as new;
- ``merge_within_round=False``: step 6 is off; one critic's list is deliberate, its
  items are distinct issues even when they read alike;
- ``severity_rank``: an uncited restatement (matched or merged) never lowers a point's
  severity: a red that reappears as "yellow" is still red. A citation sets it as given
  (the critic judges the current version).

An item may also be matched by more than one text (``LedgerItem.match``, e.g. an
issue's title and its title with detail): texts are compared pairwise, best wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from . import novelty

# Field of CrossExamination -> id prefix of the points it raises.
KINDS: dict[str, str] = {"remaining_disagreements": "D", "new_evidence_needed": "E"}
DISAGREEMENT = KINDS["remaining_disagreements"]

# Similarity at which an uncited item counts as a copy of an earlier point even from an
# agent that cites ids: well above the novelty threshold (0.5), so "migration cost is
# underestimated" / "migration timeline is underestimated" (0.67) stay two points.
REPEAT_THRESHOLD = 0.85

_ID = r"[A-Za-z]{1,2}\d{1,4}"
# A leading "[D3]", "[d3, E1]" or "(D3)", optionally followed by ":" or a dash.
_CITATION = re.compile(
    rf"^\s*[\[(]\s*({_ID}(?:\s*[,;/&]\s*{_ID})*)\s*[\])]\s*[:\-–—]?\s*"
)
_SPLIT = re.compile(r"\s*[,;/&]\s*")

How = Literal["raised", "cited", "matched", "merged"]


# ---------------------------------------------------------------------- item text


def parse_item(item: str) -> tuple[list[str], str]:
    """``"[D3, e1] text"`` -> (``["D3", "E1"]``, ``"text"``); no citation -> ([], item)."""
    match = _CITATION.match(item)
    if match is None:
        return [], item.strip()
    cites = [c.upper() for c in _SPLIT.split(match.group(1))]
    return list(dict.fromkeys(cites)), item[match.end():].strip()


def format_item(text: str, cites: Iterable[str] = ()) -> str:
    ids = ", ".join(dict.fromkeys(c.strip().upper() for c in cites if c and c.strip()))
    text = text.strip()
    return f"[{ids}] {text}".strip() if ids else text


def normalise_item(value: Any) -> Any:
    """One list item as a model may write it -> the canonical string form.

    Accepts a string (a leading citation is re-spelt ``"[D3] ..."``) or an object
    ``{"text": ..., "cites": "D3" | ["D3", "E1"] | null}`` (``cite``/``id``/``ids`` and
    ``point``/``item`` are read too). Anything else is returned for the schema to
    reject.
    """
    if isinstance(value, dict):
        text = next((value[k] for k in ("text", "point", "item") if isinstance(
            value.get(k), str)), None)
        if text is None:
            return value
        raw = next((value[k] for k in ("cites", "cite", "id", "ids") if value.get(k)), None)
        if isinstance(raw, str):
            cites = _SPLIT.split(raw.strip().strip("[]()"))
        elif isinstance(raw, list):
            cites = [str(c).strip().strip("[]()") for c in raw]
        else:
            cites = []
        inner, body = parse_item(text)
        return format_item(body, [*[c for c in cites if re.fullmatch(_ID, c)], *inner])
    if isinstance(value, str):
        cites, body = parse_item(value)
        return format_item(body, cites) if cites and body else value
    return value


def normalise_items(value: Any) -> Any:
    """``normalise_item`` over a list (the schema's before-validator)."""
    if isinstance(value, list):
        return [normalise_item(v) for v in value]
    return value


# ---------------------------------------------------------------------- the ledger


@dataclass(frozen=True)
class Mention:
    """One item that raised, restated or repeated a point."""

    round: int
    agent: int
    text: str
    how: How
    # Token sets the mention is matched by: its text's, then those of LedgerItem.match.
    keys: tuple[frozenset[str], ...] = field(repr=False, compare=False, default=())


@dataclass
class Point:
    id: str
    kind: str
    text: str
    raised_by: int
    round: int
    mentions: list[Mention] = field(default_factory=list)
    # For a critic's issues: severity ("red" / "yellow" / "green") and resolution, per
    # round in which they were assessed. The council sets neither.
    severity: dict[int, str] = field(default_factory=dict)
    resolved: dict[int, bool] = field(default_factory=dict)

    @property
    def rounds(self) -> list[int]:
        """Rounds in which the point was raised or restated."""
        return sorted({m.round for m in self.mentions})

    @property
    def cited_in(self) -> list[int]:
        """Rounds in which an agent cited the point's id."""
        return sorted({m.round for m in self.mentions if m.how == "cited"})

    @property
    def agents(self) -> list[int]:
        """Distinct agents who raised or restated it, first-seen order."""
        return list(dict.fromkeys(m.agent for m in self.mentions))

    @property
    def last_round(self) -> int:
        return max(m.round for m in self.mentions)

    def open_after(self, round_number: int) -> bool:
        """Still open once ``round_number`` is over. An explicit resolution (a critic's)
        decides when there is one; otherwise a point is open while it was raised or
        restated in that round: nobody disputing it any more closes it."""
        if self.round > round_number:
            return False
        assessed = [r for r in self.resolved if r <= round_number]
        if assessed:
            return not self.resolved[max(assessed)]
        return round_number in self.rounds

    def severity_at(self, round_number: int) -> str | None:
        assessed = [r for r in self.severity if r <= round_number]
        return self.severity[max(assessed)] if assessed else None


@dataclass(frozen=True)
class LedgerItem:
    """One item of one agent's turn: ``kind`` is the id prefix of a new point."""

    agent: int
    kind: str
    text: str
    severity: str | None = None
    resolved: bool | None = None
    match: tuple[str, ...] = ()  # further texts it is matched by, pairwise (see above)


class Ledger:
    """Points of a debate, built round by round (rounds must be added in order)."""

    def __init__(self, threshold: float = novelty.DEFAULT_THRESHOLD, *,
                 fallback_for_all: bool = False, merge_within_round: bool = True,
                 severity_rank: Sequence[str] = ()) -> None:
        self.threshold = threshold
        self.fallback_for_all = fallback_for_all
        self.merge_within_round = merge_within_round
        self.severity_rank = {s: i for i, s in enumerate(severity_rank)}
        self.points: dict[str, Point] = {}
        self._new: dict[int, int] = {}
        self._counters: dict[str, int] = {}
        # Agents that have cited a valid id: their uncited items are taken as new.
        self._citing: set[int] = set()

    # .................................................................. building

    def add_round(self, round_number: int, items: Sequence[LedgerItem]) -> list[list[str]]:
        """Judges the items of one round; returns, per item, the ids of the points it
        raised or restated."""
        assert not self._new or round_number > max(self._new), "rounds out of order"
        parsed = [(item, *parse_item(item.text)) for item in items]
        for item, cites, _ in parsed:
            if self._valid(cites, round_number):
                self._citing.add(item.agent)
        earlier = [
            (point, m.keys) for point in self.points.values() for m in point.mentions
        ]
        new = 0
        placed: list[list[str]] = []
        for item, cites, body in parsed:
            keys = (novelty.tokens(body), *(novelty.tokens(t) for t in item.match))
            valid = self._valid(cites, round_number)
            if valid:
                for point_id in valid:
                    self._mention(self.points[point_id], item, body, keys, round_number, "cited")
                placed.append(valid)
                continue
            point, score = _best(keys, earlier)
            fallback = self.fallback_for_all or item.agent not in self._citing
            if point is not None and (score >= REPEAT_THRESHOLD or (
                    fallback and score >= self.threshold)):
                self._mention(point, item, body, keys, round_number, "matched")
                placed.append([point.id])
                continue
            fresh = [(p, p.mentions[0].keys) for p in self.points.values()
                     if p.round == round_number] if self.merge_within_round else []
            point, score = _best(keys, fresh)
            if point is not None and score >= self.threshold:
                self._mention(point, item, body, keys, round_number, "merged")
                placed.append([point.id])
                continue
            placed.append([self._raise(item, body, keys, round_number).id])
            new += 1
        self._new[round_number] = new
        return placed

    def _valid(self, cites: list[str], round_number: int) -> list[str]:
        return [c for c in cites if c in self.points and self.points[c].round < round_number]

    def _mention(self, point: Point, item: LedgerItem, body: str,
                 keys: tuple[frozenset[str], ...], round_number: int, how: How) -> None:
        point.mentions.append(Mention(round_number, item.agent, body, how, keys))
        severity = item.severity
        if how != "cited" and severity is not None and self.severity_rank:
            before = point.severity_at(round_number)
            if before is not None and (self.severity_rank.get(before, -1)
                                       > self.severity_rank.get(severity, -1)):
                severity = before  # an uncited restatement cannot downgrade it
        self._assess(point, severity, item.resolved, round_number)

    def _raise(self, item: LedgerItem, body: str, keys: tuple[frozenset[str], ...],
               round_number: int) -> Point:
        n = self._counters.get(item.kind, 0) + 1
        self._counters[item.kind] = n
        point = Point(id=f"{item.kind}{n}", kind=item.kind, text=body,
                      raised_by=item.agent, round=round_number)
        point.mentions.append(Mention(round_number, item.agent, body, "raised", keys))
        self._assess(point, item.severity, item.resolved, round_number)
        self.points[point.id] = point
        return point

    @staticmethod
    def _assess(point: Point, severity: str | None, resolved: bool | None,
                round_number: int) -> None:
        if severity is not None:
            point.severity[round_number] = severity
        if resolved is not None:
            point.resolved[round_number] = resolved

    def set_status(self, point_id: str, round_number: int, *, severity: str | None = None,
                   resolved: bool | None = None) -> None:
        """Records an assessment of a point without a new item (e.g. a critic marking
        an issue resolved)."""
        point = self.points[point_id]
        if severity is not None:
            point.severity[round_number] = severity
        if resolved is not None:
            point.resolved[round_number] = resolved

    # .................................................................. reading

    def new_in_round(self, round_number: int) -> int:
        """Points first raised in ``round_number`` (``new_arguments``)."""
        return self._new.get(round_number, 0)

    def get(self, point_id: str) -> Point | None:
        return self.points.get(point_id)

    def raised_before(self, round_number: int) -> list[Point]:
        """Points an agent of ``round_number`` can see (and cite), in id order."""
        return [p for p in self.points.values() if p.round < round_number]

    def open_after(self, round_number: int) -> list[Point]:
        return [p for p in self.points.values() if p.open_after(round_number)]

    def ids_of(self, agent: int, round_number: int, kind: str) -> list[str]:
        """The ids of the ``kind`` points ``agent`` raised or restated in ``round_number``."""
        return [p.id for p in self.points.values() if p.kind == kind and any(
            m.agent == agent and m.round == round_number for m in p.mentions)]

    def text_ids(self, before_round: int) -> dict[str, str]:
        """Every text written for a point before ``before_round`` -> its id (the
        simulator finds the id of a claim it restates by its own earlier words)."""
        ids: dict[str, str] = {}
        for point in self.raised_before(before_round):
            for mention in point.mentions:
                if mention.round < before_round:
                    ids.setdefault(mention.text, point.id)
        return ids


def _best(keys: tuple[frozenset[str], ...],
          candidates: list[tuple[Point, tuple[frozenset[str], ...]]]
          ) -> tuple[Point | None, float]:
    """The candidate most similar to ``keys`` (texts compared pairwise, best pair wins)."""
    best: Point | None = None
    score = 0.0
    for point, other in candidates:
        s = max((novelty.similarity(a, b) for a, b in zip(keys, other, strict=False)),
                default=0.0)
        if best is None or s > score:
            best, score = point, s
    return best, score
