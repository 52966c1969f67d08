"""An evaluation's exports: the report as JSON (report_json, with the run's own
fields), and CSV with one row per arm or per question."""

from __future__ import annotations

import csv
import io
from typing import Any

from api_kit.timestamps import rfc3339
from debates.engine import printable
from evaluations.models import Evaluation
from evaluations.selectors import evaluation_report, question_rows

ARM_COLUMNS = ("arm", "accuracy", "ci_low", "ci_high", "n", "right", "prompt_tokens",
               "completion_tokens", "cost_usd", "cost_per_right_usd", "seconds", "brier",
               "finding", "caveat", "simulated", "models")


def evaluation_json(evaluation: Evaluation) -> dict[str, Any]:
    return {
        "code": str(evaluation.code),
        "status": evaluation.status,
        "set_kind": evaluation.set_kind,
        "set": evaluation.set_label,
        "spec": evaluation.spec,
        "simulated": evaluation.simulated,
        "done": evaluation.done,
        "total": evaluation.total,
        "failed_questions": evaluation.failed_questions,
        "cost_usd": (None if evaluation.known_cost_usd is None
                     else round(evaluation.known_cost_usd, 6)),
        "error": evaluation.error,
        "created_at": rfc3339(evaluation.created_at),
        "finished_at": rfc3339(evaluation.finished_at) if evaluation.finished_at else None,
        "report": evaluation_report(evaluation),
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """Uploaded text that a spreadsheet would run as a formula ("=HYPERLINK(...)") is
    quoted with a leading apostrophe; numbers (an answer of -5) stay numbers. Text
    stored before uploads were checked may hold a lone surrogate: printed as U+FFFD, so
    the export encodes (docs/engine.md, "Uploaded text")."""
    if isinstance(value, str):
        value = printable(value)
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        try:
            float(value)
        except ValueError:
            return "'" + value
    return value


def _csv(rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows([[_cell(v) for v in row] for row in rows])
    return out.getvalue()


def arms_csv(evaluation: Evaluation) -> str:
    report = evaluation_report(evaluation) or {"arms": {}}
    rows: list[list[Any]] = [list(ARM_COLUMNS)]
    for name, arm in report["arms"].items():
        rows.append([name, arm["accuracy"], arm["ci"][0], arm["ci"][1], arm["n"],
                     arm["right"], arm["prompt_tokens"], arm["completion_tokens"],
                     arm["cost_usd"], arm["cost_per_right_usd"], arm["seconds"],
                     arm["brier"], arm["finding"], arm["caveat"] or "",
                     evaluation.simulated, "|".join(arm.get("models", []))])
    return _csv(rows)


def questions_csv(evaluation: Evaluation) -> str:
    """A row per question; with the mixed arms, each debate's seats' models too
    (``|``-separated, seat by seat)."""
    arms = evaluation.arms
    mixed = bool(evaluation.spec.get("panel_models"))
    rows: list[list[Any]] = [["position", "question_id", "question", "options", "answer",
                              *(f"{a}_answer" for a in arms), *(f"{a}_right" for a in arms),
                              "note", "error", "prompt_version",
                              *(("seat_models", "mixed_seat_models") if mixed else ())]]
    for r in question_rows(evaluation):
        rows.append([r.position, r.question_id, r.text,
                     "|".join(r.options) if r.options else "", r.answer,
                     *(r.answers[a] if r.answers[a] is not None else "" for a in arms),
                     *(r.right[a] for a in arms), r.note, r.error, r.prompt_version,
                     *(("|".join(r.seat_models), "|".join(r.mixed_seat_models))
                       if mixed else ())])
    return _csv(rows)
