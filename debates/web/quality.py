"""Which of a result's quality reasons the pages show where (docs/web.md, "Quality").

The engine's content checks fill ``quality`` and ``quality_reasons`` on every result
(docs/engine.md); the partials (templates/debates/_quality_*.html) word them with the
engine tables' ``quality_page.*`` keys through ``{% tr %}``, like every page string.
"""

from __future__ import annotations

from collections.abc import Iterable

from debates.engine import QualityReason


def reasons_on_turn(reasons: Iterable[QualityReason], phase: str, round_: int,
                    agent: int) -> list[QualityReason]:
    """The reasons that name this turn: its phase, and its round and agent unless the
    reason leaves them open. Debate-wide reasons (no phase) belong to the banner."""
    return [q for q in reasons if q.phase == phase
            and q.round in (None, round_) and q.agent in (None, agent)]
