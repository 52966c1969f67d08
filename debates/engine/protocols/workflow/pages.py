"""What the site's pages need to know about the workflow protocol, behind its
protocol's page methods (docs/engine.md, "Protocols"): the parts of its result that
comments point at."""

from __future__ import annotations

from pydantic import BaseModel

from ..base import ResultPart
from .schemas import WorkflowResult


def result_parts(result: BaseModel) -> list[ResultPart]:
    """The final synthesis's summary (the protocol's recommendation,
    "recommendation"), its tensions (T1 ...) and its next steps (N1 ...), in the order
    the result page shows them."""
    assert isinstance(result, WorkflowResult)
    s = result.synthesis
    return [ResultPart("recommendation", "recommendation", s.summary),
            *(ResultPart("tension", f"T{n}", text) for n, text in enumerate(s.tensions, 1)),
            *(ResultPart("next_step", f"N{n}", text)
              for n, text in enumerate(s.next_steps, 1))]
