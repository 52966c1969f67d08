"""What each event says: its team, its key (one event per happening) and its ``data``,
read from the database when the worker builds it (docs/integrations.md, "Events").

Every builder takes the primary key its signal named and returns None when the object
is gone (deleted before the worker ran): nothing is sent about it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.urls import reverse

from accounts.models import Team
from api_kit.timestamps import rfc3339 as moment_text
from debates.models import Debate, Synthesis
from decisions.models import Decision, Outcome
from evaluations.models import Evaluation
from notifications.services import site_link
from sources.models import SourceStatus, SourceVersion
from webhooks.models import EventType

LINE = 300  # characters of a one-line text (a question, a decision)


@dataclass(frozen=True)
class Happening:
    team: Team
    type: str
    key: str
    data: dict[str, Any]


def rfc3339(moment: datetime | None) -> str | None:
    """The API's one timestamp spelling (``api_kit.timestamps``), None for no moment."""
    return None if moment is None else moment_text(moment)


def _day(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _line(text: str | None) -> str | None:
    if not text:
        return None
    flat = " ".join(text.split())
    return flat if len(flat) <= LINE else flat[:LINE - 1] + "…"


def _debate_line(debate: Debate) -> tuple[str | None, str | None, bool | None]:
    """(decision in a line, quality, degraded) from the stored result's summary."""
    try:
        stored = debate.synthesis.result
    except Synthesis.DoesNotExist:
        return None, None, None
    summary = stored.get("summary") or {} if isinstance(stored, dict) else {}
    line = summary.get("decision") or summary.get("divergence")
    quality = summary.get("quality") or stored.get("quality") or "sound"
    return _line(line), str(quality), bool(summary.get("degraded", debate.degraded))


def debate_finished(pk: int) -> Happening | None:
    debate = Debate.objects.select_related("team", "synthesis").filter(pk=pk).first()
    if debate is None or debate.status not in ("succeeded", "failed", "cancelled"):
        return None
    decision, quality, degraded = _debate_line(debate)
    finished = rfc3339(debate.finished_at)
    return Happening(debate.team, EventType.DEBATE_FINISHED,
                     f"debate:{debate.code}:{debate.status}:{finished}", {
        "debate": str(debate.code), "status": debate.status,
        "question": _line(debate.question), "protocol": debate.protocol, "mode": debate.mode,
        "quality": quality, "simulated": debate.simulated,
        "degraded": debate.degraded if degraded is None else degraded,
        "decision": decision, "stop_reason": debate.stop_reason or None,
        "error": _line(debate.error), "finished_at": finished,
        "url": site_link(reverse("debates:detail", args=[debate.code])),
    })


def _decision_data(decision: Decision) -> dict[str, Any]:
    debate = decision.debate
    return {
        "decision": str(decision.code), "debate": str(debate.code),
        "question": _line(debate.question), "version": decision.version,
        "option": decision.option or None, "choice": decision.choice or None,
        "rationale": _line(decision.rationale), "result_quality": decision.result_quality,
        "simulated": debate.simulated,
        "decided_by": decision.decided_by.get_username() if decision.decided_by else None,
        "decided_at": rfc3339(decision.decided_at), "review_on": _day(decision.review_on),
        "url": site_link(reverse("debates:detail", args=[debate.code]) + "#decision"),
    }


def _decision(pk: int) -> Decision | None:
    return (Decision.objects.select_related("debate__team", "decided_by")
            .filter(pk=pk).first())


def decision_recorded(pk: int) -> Happening | None:
    decision = _decision(pk)
    if decision is None:
        return None
    return Happening(decision.debate.team, EventType.DECISION_RECORDED,
                     f"decision:{decision.code}:v{decision.version}", _decision_data(decision))


def decision_review_due(pk: int) -> Happening | None:
    decision = _decision(pk)
    if decision is None or decision.review_on is None or decision.reviewed_at is not None:
        return None
    return Happening(decision.debate.team, EventType.DECISION_REVIEW_DUE,
                     f"review:{decision.code}:{decision.review_on:%Y-%m-%d}",
                     _decision_data(decision))


def outcome_recorded(pk: int) -> Happening | None:
    outcome = (Outcome.objects.select_related("decision__debate__team", "recorded_by")
               .filter(pk=pk).first())
    if outcome is None:
        return None
    decision = outcome.decision
    return Happening(decision.debate.team, EventType.OUTCOME_RECORDED, f"outcome:{outcome.code}", {
        **_decision_data(decision), "outcome": str(outcome.code),
        "right_option": outcome.right_option or None, "result": outcome.result or None,
        "notes": _line(outcome.notes), "review_again_on": _day(outcome.review_again_on),
        "recorded_by": outcome.recorded_by.get_username() if outcome.recorded_by else None,
        "recorded_at": rfc3339(outcome.recorded_at),
        "url": site_link(reverse("decisions:review", args=[decision.debate.code])),
    })


def evaluation_finished(pk: int) -> Happening | None:
    evaluation = Evaluation.objects.select_related("team").filter(pk=pk).first()
    if evaluation is None or evaluation.status not in ("done", "failed", "cancelled"):
        return None
    return Happening(evaluation.team, EventType.EVALUATION_FINISHED,
                     f"evaluation:{evaluation.code}:{evaluation.status}", {
        "evaluation": str(evaluation.code), "status": evaluation.status,
        "set": evaluation.set_label, "questions": evaluation.total, "done": evaluation.done,
        "failed_questions": evaluation.failed_questions, "cost_usd": evaluation.cost_usd,
        "error": _line(evaluation.error), "finished_at": rfc3339(evaluation.finished_at),
        "url": site_link(reverse("evaluations:detail", args=[evaluation.code])),
    })


def source_settled(pk: int) -> Happening | None:
    version = SourceVersion.objects.select_related("source__team").filter(pk=pk).first()
    if version is None or version.status not in (SourceStatus.READY, SourceStatus.REFUSED):
        return None
    source = version.source
    kind = (EventType.SOURCE_READY if version.status == SourceStatus.READY
            else EventType.SOURCE_REFUSED)
    return Happening(source.team, kind, f"source:{version.code}:{version.status}", {
        "source": str(source.code), "version": version.number, "title": _line(source.title),
        "filename": version.filename, "size": version.size, "status": version.status,
        "error": _line(version.error), "extracted_at": rfc3339(version.extracted_at),
        "url": site_link(reverse("sources:detail", args=[source.code])),
    })


BUILDERS: dict[str, Callable[[int], Happening | None]] = {
    "debate": debate_finished, "decision": decision_recorded,
    "review": decision_review_due, "outcome": outcome_recorded,
    "evaluation": evaluation_finished, "source": source_settled,
}
