"""Area "sidebyside": Agent Council (the reference) and Council in the same run.

Both run as whole processes against one bench stub (``model_stub``, 500 ms a call):
Council's ``council`` entry point (``python -m debates.engine``, no Django) and Agent
Council's CLI in its medium mode, on the CLI figure's question and 5 given personas, 4
rounds at most (the stub's answers vary per persona and round for both, so both run all
4). From each run come its timings (``cli._timed_process``) and the request bodies the
stub kept; prompt tokens and sizes are counted from the bodies as the ``prompts`` area
counts them (``prompts.sizes_of``).

Which of Agent Council's requests is which: a cross-examination's system message says
"You have read every other agent's position"; its round is one more than the rounds it
recalls ("Round N — your reflection" lines: round 1 recalls none). The synthesis is the
request whose system message begins "You are a senior decision analyst" (its narrative;
the rest of its synthesis is computed without the model). Council's are told apart by
``prompts.council_prompt_kind``.

Both run at each of the stub's answer lengths (``model_stub.ANSWER_LENGTHS``: short
answers, and one full sentence per text field), a table for each: a prompt that repeats
earlier answers grows with them.

Prompt tokens per output mode (issue 39): Council's debate runs in this process in each
mode the engine can use (``prompts.OUTPUT_MODES``), with the given panel and with the
panel it composes, beside Agent Council's given-panel run above and a run where it
composes its own panel (no persona file: one more call), on the same stub at the same
answer length. Agent Council has one mode (pydantic-ai's tool output). Each cell is
prompt tokens and the cacheable share (``prompts.sizes_of``).

Agent Council is not a dependency: it is installed into a virtualenv outside the
project, and ``COUNCIL_BENCH_AC_PYTHON`` names that Python. Without it the area is
skipped with a note saying how to install it (docs/performance.md).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.cli import AC_PYTHON_ENV, ENTRY_POINTS, ROUNDS, run_ac, run_cli
from bench.failure import AreaSkipped
from bench.figures import Figure, Table
from bench.model_stub import ANSWER_LENGTHS, AnswerLength, ModelStub
from bench.prompts import (
    CROSS_EXAM,
    OUTPUT_MODES,
    SYNTHESIS,
    PromptKind,
    PromptSizes,
    measure_debate,
    sizes_of,
)

AREA = "sidebyside"
COUNCIL_ENTRY = ENTRY_POINTS["council (python -m debates.engine)"]
# Sequential steps besides the rounds, for both: premortem, position, synthesis, verifier.
STEPS_BESIDES_ROUNDS = 4
_AC_RECALLED_ROUND = re.compile(r"^Round \d+ — your reflection", re.M)
NOT_INSTALLED = (f"Agent Council is not installed: {AC_PYTHON_ENV} does not name a Python "
                 "that has it (install it into a virtualenv outside the project, as "
                 "docs/performance.md, 'The CLI without Django', shows)")


def ac_prompt_kind(body: dict[str, Any]) -> PromptKind:
    system = "\n".join(m.get("content") or "" for m in body.get("messages") or []
                       if m.get("role") == "system")
    if "You have read every other agent's position" in system:
        return CROSS_EXAM, 1 + len(_AC_RECALLED_ROUND.findall(system))
    if system.startswith("You are a senior decision analyst"):
        return SYNTHESIS, 0
    return None


@dataclass(frozen=True)
class SideRun:
    """One process's run: what it sent (``sizes``) and its timings (``_timed_process``)."""

    sizes: PromptSizes
    timings: dict[str, float | str]
    latency_s: float

    @property
    def rounds(self) -> int:
        return len(self.sizes.cross_exam_chars)

    @property
    def critical_path_s(self) -> float:
        return (STEPS_BESIDES_ROUNDS + self.rounds) * self.latency_s

    def seconds(self, key: str) -> float:
        return float(self.timings[key])


def _ratio(run: SideRun, seconds: float) -> str:
    return f"{seconds / run.critical_path_s:.2f}× (of {run.critical_path_s:g} s)"


def table_rows(ac: SideRun, council: SideRun) -> list[tuple[str, str, str]]:
    """The side-by-side rows: (what, Agent Council, Council)."""
    def cross_exam(run: SideRun) -> str:
        return " → ".join(f"{run.sizes.mean_cross_exam(r) / 1000:.1f}k"
                          for r in sorted(run.sizes.cross_exam_chars))

    def calls_span(run: SideRun) -> float:
        return run.seconds("wall_s") - run.seconds("overhead_s")

    rows: list[tuple[str, Callable[[SideRun], str]]] = [
        ("prompt tokens per debate", lambda run: f"{run.sizes.tokens / 1000:.1f}k "
                                                 f"({run.sizes.calls} calls)"),
        (f"cross-examination prompt, rounds 1 → {ROUNDS} (chars)", cross_exam),
        ("synthesis prompt (chars)", lambda run: f"{run.sizes.synthesis_chars / 1000:.1f}k"),
        ("first call → last reply / critical path", lambda run: _ratio(run, calls_span(run))),
        ("whole process / critical path", lambda run: _ratio(run, run.seconds("wall_s"))),
        ("start → first call, last reply → exit",
         lambda run: f"{run.seconds('to_first_call_s'):.2f} s, "
                     f"{run.seconds('after_last_reply_s'):.2f} s"),
    ]
    return [(what, show(ac), show(council)) for what, show in rows]


def side_by_side_table(ac: SideRun, council: SideRun, detail: str) -> Table:
    return Table(title=f"Agent Council and Council, same run ({detail}):", markdown=(
        "| same run | AC | Council |", "|---|---|---|",
        *(f"| {what} | {left} | {right} |" for what, left, right in table_rows(ac, council))))


def _cell(sizes: PromptSizes) -> str:
    return f"{sizes.tokens / 1000:.1f}k, {100 * sizes.cacheable_share:.0f} %"


def modes_table(answers: AnswerLength, ac_given: PromptSizes, python: str) -> Table:
    """Prompt tokens and cacheable share per output mode, given and composed panel."""
    with ModelStub(0.0, answers) as stub:
        run_ac(stub, python, composed=True)
        ac_composed = sizes_of(stub.bodies, ac_prompt_kind)
    rows = []
    for label, composed, ac in (("given panel", False, ac_given),
                                ("panel composed by each", True, ac_composed)):
        council = [measure_debate(answers, mode, composed) for mode in OUTPUT_MODES]
        worst = max(sizes.tokens for sizes in council)
        rows.append(f"| {label} ({ac.calls} / {council[0].calls} calls) | {_cell(ac)} | "
                    + " | ".join(_cell(sizes) for sizes in council)
                    + f" | {worst / ac.tokens:.2f}× |")
    return Table(
        title=f"Prompt tokens and cacheable share per output mode ({answers} answers; "
              "cacheable: in a prefix of ≥ 1,024 tokens shared with an earlier call):",
        markdown=("| debate | AC | Council " + " | Council ".join(OUTPUT_MODES)
                  + " | Council's most / AC |",
                  "|---|---|" + "---|" * len(OUTPUT_MODES) + "---|", *rows))


def _ac_python() -> str:
    python = os.environ.get(AC_PYTHON_ENV, "")
    if not python or not Path(python).is_file():
        raise AreaSkipped(NOT_INSTALLED)
    return python


def measure(latency_ms: int = 500) -> list[Figure | Table]:
    python = _ac_python()
    latency = latency_ms / 1000
    measured: list[Figure | Table] = []
    for answers in ANSWER_LENGTHS:
        with ModelStub(latency, answers) as stub:
            council_timings = run_cli(stub, COUNCIL_ENTRY)
            council = SideRun(sizes_of(stub.bodies), council_timings, latency)
            ac_timings = run_ac(stub, python)
            ac = SideRun(sizes_of(stub.bodies, ac_prompt_kind), ac_timings, latency)
        for label, run in (("Council", council), ("Agent Council", ac)):
            if run.rounds != ROUNDS:
                raise RuntimeError(f"{label} ran {run.rounds} rounds, not {ROUNDS}")
        detail = (f"{answers} answers; 5 given personas, {ROUNDS} rounds, OpenAI-compatible "
                  f"stub at {latency_ms} ms; tokens: messages and sent schema, cl100k_base; "
                  "chars: system + user, mean per agent")
        measured += [
            Figure(AREA, f"prompt tokens per debate, Council / Agent Council ({answers} "
                   "answers)", council.sizes.tokens / ac.sizes.tokens, "×", detail=detail),
            side_by_side_table(ac, council, detail),
            modes_table(answers, ac.sizes, python),
        ]
    return measured
