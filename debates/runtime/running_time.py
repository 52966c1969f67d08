"""How long a debate has spent running: the sum of its steps' durations in the event
log. Not ``finished_at - started_at``: a debate given one more round hours after it
finished was idle in between, and a debate whose worker died was not running while it
waited to be resumed."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

STEP_STARTED = "step_started"
STEP_COMPLETED = "step_completed"
# Events after which a step that never logged its completion is no longer running: its
# worker gave it back or was replaced, or the debate ended in the middle of it.
STEP_INTERRUPTED = frozenset({"abandoned", "resumed", "debate_failed", "debate_cancelled",
                              "debate_finished"})
EVENT_KINDS = frozenset({STEP_STARTED, STEP_COMPLETED, *STEP_INTERRUPTED})


def running_seconds(events: Iterable[tuple[str, datetime]], *, now: datetime) -> float:
    """Seconds spent inside steps, from ``(kind, created_at)`` events in log order; a
    step still open at the end (running now, or failing as this is computed) counts up
    to ``now``."""
    total = 0.0
    step_began: datetime | None = None
    for kind, at in events:
        if step_began is not None and (kind in STEP_INTERRUPTED or kind in (
                STEP_STARTED, STEP_COMPLETED)):
            total += max(0.0, (at - step_began).total_seconds())
            step_began = None
        if kind == STEP_STARTED:
            step_began = at
    if step_began is not None:
        total += max(0.0, (now - step_began).total_seconds())
    return total
