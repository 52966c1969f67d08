"""The adversarial critic's issues, tracked by id across rounds.

The orchestrator's rule (protocols.md 2) counts the issues *open* after a round,
from this ledger, never from the critic's own counts:

- a new issue (no id) gets the next id, I1, I2, ...;
- an issue the critic lists again with an earlier id is still open, at the severity
  it gives now (it judges the current version);
- an earlier issue stays open until the critic marks it resolved; one it forgets to
  mention, or marks unresolved, still counts;
- a "new" issue that restates an earlier one (word similarity over title and detail,
  the fallback for a critic that ignores ids) reopens that issue, at the higher of
  the two severities: a red that reappears is still red.

The interface the protocol uses is ``IssueLedger.replay`` and the ``TrackedIssue`` /
``RoundTally`` shapes; switching to the shared point ledger (debates/engine/points.py)
means reimplementing ``replay`` on top of it and nothing else (docs/engine.md).
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field

from .. import novelty
from ..schemas import NonEmpty, Strict


class IssueSeverity(StrEnum):
    RED = "red"  # blocking
    YELLOW = "yellow"  # should fix
    GREEN = "green"  # minor


_RANK = {IssueSeverity.GREEN: 0, IssueSeverity.YELLOW: 1, IssueSeverity.RED: 2}


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


class IssueLedger:
    """Issues by id; fed one critique (its issues and resolutions) per round."""

    def __init__(self, similarity_threshold: float = 0.5) -> None:
        self.threshold = similarity_threshold
        self.issues: dict[str, TrackedIssue] = {}
        self.tallies: list[RoundTally] = []

    def _match(self, issue: Issue) -> TrackedIssue | None:
        text = f"{issue.title}. {issue.detail}"
        best, score = None, 0.0
        for tracked in self.issues.values():
            value = max(novelty.similarity(issue.title, tracked.title),
                        novelty.similarity(text, f"{tracked.title}. {tracked.detail}"))
            if value >= self.threshold and value > score:
                best, score = tracked, value
        return best

    def apply(self, round_number: int, issues: list[Issue], resolutions: list[Resolution],
              claimed: SeverityCounts | None = None) -> RoundTally:
        tally = RoundTally(round=round_number, counts=SeverityCounts(), claimed=claimed)
        earlier = set(self.issues)
        for resolution in resolutions:
            tracked = self.issues.get(resolution.id)
            if tracked is None:
                tally.unknown_ids.append(resolution.id)
            elif resolution.resolved and tracked.open:
                tracked.open, tracked.resolved_in = False, round_number
                tracked.history[round_number] = "resolved"
                tally.resolved_ids.append(tracked.id)
        for issue in issues:
            cited = self.issues.get(issue.id) if issue.id and issue.id in earlier else None
            if issue.id and cited is None:
                tally.unknown_ids.append(issue.id)
            if cited is not None:
                # Listed again by id: still present, whatever a resolution above said.
                cited.severity = issue.severity
                self._keep_open(cited, round_number, tally)
                tally.issue_ids.append(cited.id)
                continue
            match = self._match(issue)
            if match is not None and match.id in earlier:
                if _RANK[issue.severity] > _RANK[match.severity]:
                    match.severity = issue.severity
                self._keep_open(match, round_number, tally)
                tally.issue_ids.append(match.id)
                continue
            new_id = f"I{len(self.issues) + 1}"
            self.issues[new_id] = TrackedIssue(
                id=new_id, severity=issue.severity, title=issue.title, detail=issue.detail,
                suggested_fix=issue.suggested_fix, raised_in=round_number,
                history={round_number: "raised"})
            tally.new_ids.append(new_id)
            tally.issue_ids.append(new_id)
        for tracked in self.issues.values():
            if tracked.open:
                tracked.history.setdefault(round_number, "open")
                setattr(tally.counts, tracked.severity.value,
                        getattr(tally.counts, tracked.severity.value) + 1)
        self.tallies.append(tally)
        return tally

    @staticmethod
    def _keep_open(tracked: TrackedIssue, round_number: int, tally: RoundTally) -> None:
        if not tracked.open:
            tracked.open, tracked.resolved_in = True, None
            tally.reopened_ids.append(tracked.id)
            if tracked.id in tally.resolved_ids:
                tally.resolved_ids.remove(tracked.id)
            tracked.history[round_number] = "reopened"
        else:
            tracked.history.setdefault(round_number, "open")

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
