"""What the site's pages need to know about the adversarial protocol, behind its
protocol's page methods (docs/engine.md, "Protocols"): the parts of its result that
comments point at, and its round status line in words."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from ..base import TOP_RISKS, AnswerFact, PageAnswer, ResultPart
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


def page_answer(result: BaseModel, words: Callable[..., str]) -> PageAnswer:
    """The final solution, what became of the critic's objections and the risks it
    still accepts."""
    assert isinstance(result, AdversarialResult)
    still_open = sum(1 for i in result.issues if i.open)
    facts = [AnswerFact("issues", words("answer.adv_issues"),
                        words("answer.adv_issues_text", raised=len(result.issues),
                              resolved=len(result.issues) - still_open, open=still_open),
                        why=result.stop_explanation)]
    return PageAnswer(title=words("adv.final_solution"), text=result.final_solution,
                      facts=facts, risks_title=words("answer.remaining_risks"),
                      risks=result.remaining_risks[:TOP_RISKS])
