"""The round-0 rerun of docs/engine.md, "Measured on Qwen2.5-Coder-0.5B": each `compare`
question's premortems and independent positions only (no cross-examination, no
synthesis), each question on its own seed (`question_seed`), appended to OUT as a JSON
line. Kept beside its data (qwen05-round0.jsonl) so the figures can be reproduced; not
part of the product. REVERSE=1 on a second server takes the questions from the end.

    EVAL_MODEL=openai/qwen2.5-coder-0.5b-instruct OPENAI_API_KEY=sk-local \\
        COUNCIL_MODELS='{"openai/qwen2.5-coder-0.5b-instruct": {"api_base": ...}}' \\
        .venv/bin/python docs/data/qwen05_round0.py docs/data/qwen05-round0.jsonl
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

# The resumable evaluation's script sets Django up as the site does (COUNCIL_MODELS);
# importing it runs nothing else.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import evaluate_resumable  # noqa: E402, F401

from debates.engine import EngineHooks, EvaluationSpec, questions_for  # noqa: E402
from debates.engine.configure import resolve_config  # noqa: E402
from debates.engine.evaluation.arms import (  # noqa: E402
    debate_question,
    panel,
    question_seed,
    read_reply,
)
from debates.engine.evaluation.sets import Question  # noqa: E402
from debates.engine.protocols import get_protocol  # noqa: E402
from debates.engine.protocols.base import make_gateway  # noqa: E402
from debates.engine.schemas import Mode  # noqa: E402
from debates.engine.state import DebateState  # noqa: E402

ROUND_ZERO = ("premortem", "position")


async def round_zero(question: Question, spec: EvaluationSpec) -> dict:
    config = resolve_config(protocol="council", mode=Mode.QUICK, model=spec.model,
                            agents=spec.agents, options=list(question.options),
                            seed=question_seed(spec.seed, question))
    state = DebateState(question=debate_question(question), config=config,
                        given_personas=panel(spec.agents))
    protocol = get_protocol("council")
    protocol.prepare(state)
    hooks = EngineHooks()
    gateway = make_gateway(state, hooks)
    while (step := protocol.next_step(state)) is not None and str(step.phase) in ROUND_ZERO:
        await protocol.run_step(state, step, hooks, gateway)
    first = protocol.panel_reading(state).first
    return {"question_id": question.id, "answer": question.answer, "seed": config.seed,
            "first": [None if a is None else read_reply(question, a.verdict) for a in first],
            "confidence": [None if a is None else a.confidence for a in first]}


def main(out: Path) -> None:
    spec = EvaluationSpec("compare", n=50, seed=7, agents=3, model=os.environ["EVAL_MODEL"])
    questions = questions_for(spec).questions
    for question in questions[::-1] if os.environ.get("REVERSE") else questions:
        done = {json.loads(line)["question_id"] for line in out.read_text().splitlines()} \
            if out.exists() else set()
        if question.id in done:
            continue
        started = time.monotonic()
        row = asyncio.run(round_zero(question, spec))
        row["seconds"] = round(time.monotonic() - started)
        with out.open("a") as file:
            file.write(json.dumps(row) + "\n")
        print(row, flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
