"""An evaluation on a slow real model, one stored question at a time (docs/engine.md,
"Measured on SmolLM2-135M"): each question's outcome is appended to OUT as a JSON line
the moment it is known, a second run skips the questions OUT already holds, and the
report covers what is stored. `manage.py evaluate` runs the same questions in one go;
this is for a model that takes minutes a question, where a stop must not lose the hour.
A second run with REVERSE=1 on the same OUT (another server) takes the questions from the
end: the two share the work.

    EVAL_MODEL=openai/smollm2-135m-instruct COUNCIL_MODELS='{...api_base...}' \\
        .venv/bin/python scripts/evaluate_resumable.py compare 50 out.jsonl

EVAL_ARMS=single,vote,confidence,council picks the arms (the harness's default without).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "council_site.settings")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import django  # noqa: E402

django.setup()  # the model settings (COUNCIL_MODELS) are read as the site reads them

from debates.engine import (  # noqa: E402
    EvaluationSpec,
    QuestionOutcome,
    evaluate_question,
    questions_for,
    report_from_outcomes,
    report_json,
    report_markdown,
)


def stored_outcomes(out: Path) -> dict[str, QuestionOutcome]:
    """The outcomes OUT holds, by question (a question answered twice: the last)."""
    stored = {}
    if out.exists():
        for line in out.read_text().splitlines():
            outcome = QuestionOutcome.from_json(json.loads(line))
            stored[outcome.question_id] = outcome
    return stored


def main(set_name: str, n: int, out: Path) -> None:
    # EVAL_ARMS=single,vote,confidence,council: the arms to run (the harness's default
    # otherwise); vote, confidence and council read one debate.
    arms = tuple(a for a in os.environ.get("EVAL_ARMS", "").split(",") if a)
    spec = EvaluationSpec(set_name, n=n, seed=7, agents=3, model=os.environ["EVAL_MODEL"],
                          **({"arms": arms} if arms else {}))
    labelled = questions_for(spec)
    order = labelled.questions[::-1] if os.environ.get("REVERSE") else labelled.questions
    for question in order:
        # Read again before each question: a second run on the same file (REVERSE=1,
        # on a second server) stores answers too, and the two meet in the middle.
        if question.id in stored_outcomes(out):
            continue
        started = time.monotonic()
        outcome = asyncio.run(evaluate_question(question, spec))
        # Each row records its prompt version (a run that spans sessions may span
        # versions; the report says so).
        with out.open("a") as file:
            file.write(json.dumps(outcome.to_json()) + "\n")
        answers = {arm: answer.answer for arm, answer in outcome.arms.items()}
        print(question.id, answers, "right:", question.answer,
              f"{time.monotonic() - started:.0f} s", outcome.note[:120], flush=True)
    report = report_from_outcomes(labelled, spec, list(stored_outcomes(out).values()))
    print(report_markdown(report))
    Path(f"{out}.report.json").write_text(json.dumps(report_json(report), indent=1))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]))
