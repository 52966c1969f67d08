"""The adversarial critic's issues, tracked by id across rounds, on the shared point
ledger (debates/engine/points.py): an issue is a point of kind ``I`` (I1, I2, ...)
with a severity and a resolution per round.

The orchestrator's rule (docs/protocols.md 2) counts the issues *open* after a round,
from this ledger, never from the critic's own counts:

- a new issue (no id) gets the next id, I1, I2, ...;
- an issue the critic lists again with an earlier id is still open, at the severity
  it gives now (it judges the current version);
- an earlier issue stays open until the critic marks it resolved; one it forgets to
  mention, or marks unresolved, still counts;
- a "new" issue that restates an earlier one (word similarity over title, or title
  and detail) reopens that issue, at the higher of the two severities: a red that
  reappears is still red. Unlike the council's points, this fallback applies even to
  a critic that cites ids, and one critique's issues are never merged with each other
  (the ledger's ``fallback_for_all``, ``merge_within_round`` and ``severity_rank``).

``IssueLedger`` keeps the shapes the protocol, its pages and reports read
(``TrackedIssue``, ``RoundTally``), derived from the point ledger after each round.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field

from ...points import Ledger, LedgerItem, format_item
from ...schemas import NonEmpty, Strict


class IssueSeverity(StrEnum):
    RED = "red"  # blocking
    YELLOW = "yellow"  # should fix
    GREEN = "green"  # minor


# Lowest first: an uncited restatement never lowers an issue's severity.
_RANK = [IssueSeverity.GREEN, IssueSeverity.YELLOW, IssueSeverity.RED]


class Issue(Strict):
    # The id of one of your earlier issues when this is the same issue, still present;
    # null for a new issue.
    id: str | None = None
    severity: IssueSeverity
    title: NonEmpty
    detail: NonEmpty
    suggested_fix: NonEmpty


class Resolution(Strict):
    id: NonEmpty
    resolved: bool
    note: str = ""


class SeverityCounts(BaseModel):
    red: int = 0
    yellow: int = 0
    green: int = 0


class TrackedIssue(BaseModel):
    id: str
    severity: IssueSeverity
    title: str
    detail: str
    suggested_fix: str
    raised_in: int
    open: bool = True
    resolved_in: int | None = None
    # Per round from the one it was raised in: "raised", "open", "resolved", "reopened".
    history: dict[int, str] = Field(default_factory=dict)


class RoundTally(BaseModel):
    round: int
    counts: SeverityCounts  # open issues after this round, by the ledger
    claimed: SeverityCounts | None = None  # what the critic said, for comparison
    # The ledger id of each issue of the critique, in its order (what the proposer sees).
    issue_ids: list[str] = Field(default_factory=list)
    new_ids: list[str] = Field(default_factory=list)
    resolved_ids: list[str] = Field(default_factory=list)
    reopened_ids: list[str] = Field(default_factory=list)
    unknown_ids: list[str] = Field(default_factory=list)  # cited ids the ledger never issued


ISSUE_KIND = "I"
_CRITIC = 1  # the agent index the critic's items carry in the point ledger


class IssueLedger:
    """Issues by id; fed one critique (its issues and resolutions) per round."""

    def __init__(self, similarity_threshold: float = 0.5) -> None:
        self.threshold = similarity_threshold
        self.points = Ledger(similarity_threshold, fallback_for_all=True,
                             merge_within_round=False,
                             severity_rank=[s.value for s in _RANK])
        self.issues: dict[str, TrackedIssue] = {}
        self.tallies: list[RoundTally] = []
        self._raised: dict[str, Issue] = {}  # the issue as first raised: detail and fix

    def _open(self, point_id: str, round_number: int) -> bool:
        point = self.points.get(point_id)
        return point is not None and point.open_after(round_number)

    def apply(self, round_number: int, issues: list[Issue], resolutions: list[Resolution],
              claimed: SeverityCounts | None = None) -> RoundTally:
        tally = RoundTally(round=round_number, counts=SeverityCounts(), claimed=claimed)
        before = round_number - 1
        earlier = set(self.points.points)
        for resolution in resolutions:
            if resolution.id not in earlier:
                tally.unknown_ids.append(resolution.id)
            elif resolution.resolved and self._open(resolution.id, before):
                self.points.set_status(resolution.id, round_number, resolved=True)
        tally.unknown_ids += [i.id for i in issues if i.id and i.id not in earlier]
        placed = self.points.add_round(round_number, [
            LedgerItem(agent=_CRITIC, kind=ISSUE_KIND,
                       text=format_item(issue.title, [issue.id] if issue.id else []),
                       severity=issue.severity.value,
                       resolved=False,  # listed: present in the version it judged
                       match=(f"{issue.title}. {issue.detail}",))
            for issue in issues])
        for issue, ids in zip(issues, placed, strict=True):
            point_id = ids[0]
            tally.issue_ids.append(point_id)
            self._raised.setdefault(point_id, issue)
            if point_id not in earlier:
                tally.new_ids.append(point_id)
            elif not self._open(point_id, before) and point_id not in tally.reopened_ids:
                tally.reopened_ids.append(point_id)
        tally.resolved_ids = [r.id for r in resolutions if r.resolved and r.id in earlier
                              and self._open(r.id, before)
                              and not self._open(r.id, round_number)]
        tally.resolved_ids = list(dict.fromkeys(tally.resolved_ids))
        for point in self.points.points.values():
            if point.open_after(round_number):
                severity = point.severity_at(round_number) or IssueSeverity.GREEN.value
                setattr(tally.counts, severity, getattr(tally.counts, severity) + 1)
        self.tallies.append(tally)
        self._refresh(round_number)
        return tally

    def _refresh(self, round_number: int) -> None:
        """The TrackedIssue view of every point after ``round_number``."""
        for point in self.points.points.values():
            raised = self._raised[point.id]
            issue = self.issues.get(point.id) or TrackedIssue(
                id=point.id, severity=raised.severity, title=point.text,
                detail=raised.detail, suggested_fix=raised.suggested_fix,
                raised_in=point.round)
            was_open = point.round < round_number and point.open_after(round_number - 1)
            issue.open = point.open_after(round_number)
            issue.severity = IssueSeverity(point.severity_at(round_number)
                                           or raised.severity.value)
            if point.round == round_number:
                issue.history[round_number] = "raised"
            elif issue.open:
                issue.history[round_number] = "open" if was_open else "reopened"
                issue.resolved_in = None
            elif was_open:
                issue.history[round_number] = "resolved"
                issue.resolved_in = round_number
            self.issues[point.id] = issue

    def open_issues(self) -> list[TrackedIssue]:
        return [i for i in self.issues.values() if i.open]

    @classmethod
    def replay(cls, rounds: list[tuple[int, list[Issue], list[Resolution], SeverityCounts | None]],
               similarity_threshold: float = 0.5) -> IssueLedger:
        """The ledger after these critiques, in round order: rebuilt from stored turns
        every time, so every worker reaches the same counts."""
        ledger = cls(similarity_threshold)
        for round_number, issues, resolutions, claimed in sorted(rounds, key=lambda r: r[0]):
            ledger.apply(round_number, issues, resolutions, claimed)
        return ledger
