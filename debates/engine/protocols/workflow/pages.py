"""What the site's pages need to know about the workflow protocol, behind its
protocol's page methods (docs/engine.md, "Protocols"): the parts of its result that
comments point at."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from ..base import TOP_RISKS, AnswerFact, PageAnswer, ResultPart
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


def page_answer(result: BaseModel, words: Callable[..., str]) -> PageAnswer:
    """The final synthesis (what divides the roles, when they diverged), how far the
    three roles agreed, and the tensions it leaves open (the workflow names no risks of
    its own)."""
    assert isinstance(result, WorkflowResult)
    c = result.convergence
    facts = [AnswerFact("agreement", words("answer.wf_agreement"),
                        c.key_agreement or words(f"page.wf_status.{c.status}"),
                        why=result.summary.stop_explanation)]
    divergent = c.status == "divergent"
    return PageAnswer(
        title=words("answer.no_decision" if divergent else "answer.decision"),
        text=result.synthesis.summary, facts=facts,
        risks_title=words("answer.tensions"), risks=result.synthesis.tensions[:TOP_RISKS])
