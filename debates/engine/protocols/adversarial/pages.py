"""What the site's pages need to know about the adversarial protocol, behind its
protocol's page methods (docs/engine.md, "Protocols"): the parts of its result that
comments point at, and its round status line in words."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from ..base import ResultPart
from .issues import SeverityCounts
from .schemas import AdversarialResult
from .stopping import status_line_in


def result_parts(result: BaseModel) -> list[ResultPart]:
    """The final solution (the protocol's recommendation, "recommendation") and every
    issue the critic raised (I1 ..., its title), in the order the result page shows
    them."""
    assert isinstance(result, AdversarialResult)
    return [ResultPart("recommendation", "recommendation", result.final_solution),
            *(ResultPart("issue", i.id, i.title) for i in result.issues)]


def page_words(language: str) -> dict[str, Callable[..., str]]:
    """A round's status line ("Round 2/5  red×1 yellow×0 green×2 → continue") in
    ``language``; in English the CLI's own line."""

    def status_line(round_number: int, cap: int, counts: object, decision: str) -> str:
        return status_line_in(language, round_number, cap,
                              SeverityCounts.model_validate(counts), decision)

    return {"status_line": status_line}
