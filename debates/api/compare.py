"""Two runs side by side over the API, mounted at /api/debates/compare: the web
compare page's comparison (debates.web.compare), as JSON."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest
from ninja import Query, Router, Schema
from pydantic import Field

from accounts.api_auth import api_auth
from api_kit.errors import errors
from debates import selectors
from debates.access import debate_access
from debates.engine import get_protocol
from debates.models import Debate
from debates.web.compare import compare_results

router = Router(tags=["debates"], auth=api_auth)


class CompareQuery(Schema):
    a: uuid.UUID = Field(description="Code of the first run.")
    b: uuid.UUID = Field(description="Code of the second run (e.g. a re-run of a).")


class RunOut(Schema):
    code: uuid.UUID
    question: str
    status: str
    protocol: str
    stop_reason: str
    degraded: bool
    simulated: bool
    cost_usd: float
    has_result: bool


class CompareOut(Schema):
    a: RunOut
    b: RunOut
    comparison: Any = Field(description=(
        "What each run found that the other did not, as their protocol compares them "
        "(a council's: its items matched by near-duplicate similarity, the metrics "
        "round by round and how the verdicts moved); null unless both runs have a "
        "result of one protocol that compares item by item (see note)."))
    note: str = Field(description="Why there is no comparison, when there is none.")


def _run(debate: Debate, has_result: bool) -> dict[str, Any]:
    return {"code": debate.code, "question": debate.question, "status": debate.status,
            "protocol": debate.protocol, "stop_reason": debate.stop_reason,
            "degraded": debate.degraded, "simulated": debate.simulated,
            "cost_usd": debate.cost_usd, "has_result": has_result}


@router.get("/compare", response={200: CompareOut, **errors(404)}, url_name="debate_compare")
def compare(request: HttpRequest, query: Query[CompareQuery]) -> dict[str, Any]:
    """Compare two runs you can read (typically a debate and its re-run)."""
    a, _ = debate_access(user=request.user, code=query.a)
    b, _ = debate_access(user=request.user, code=query.b)
    result_a, result_b = (selectors.debate_result(debate=d) for d in (a, b))
    comparison, note = None, ""
    if result_a is None or result_b is None:
        note = "Both runs need a result; " + ", ".join(
            f"{name} is {d.status}" for name, d, r in (("a", a, result_a), ("b", b, result_b))
            if r is None) + "."
    elif (comparison := compare_results(result_a, result_b)) is None:
        labels = ", ".join(sorted({get_protocol(d.protocol).label for d in (a, b)}))
        note = f"Item-by-item comparison reads council results; these are {labels}."
    return {"a": _run(a, result_a is not None), "b": _run(b, result_b is not None),
            "comparison": comparison, "note": note}
