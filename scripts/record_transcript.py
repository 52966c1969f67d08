"""Run one debate exactly as the ``council`` command line does and record its transcript.

    scripts/record_transcript.py --out FILE.json [--model-label L] [--server-label S]
        [the debate command's own arguments: "QUESTION" --protocol ... --mode ...]

Not product code: a tool for docs/models.md's real-model runs (scripts/real_model_run.sh
calls it when RECORD is set). The command line's JSON carries the result only; this
adds what the content checks of docs/engine.md are tuned on: every stored turn, the
panel and the resolved configuration. Everything else is the command line's own code
(debates/engine/cli.py: its options, its defaults, its run and its output on stdout),
so a recording is the debate the CLI would have run.

Writes FILE.json:
``{"recorded": {model, server, date, protocol, question}, "config", "personas",
"sources", "turns", "result", "failure", "calls"}``: ``sources`` are the debate's
documents (id, title, text), so a replay checks its citations against them; ``result``
is null and ``failure`` says why when the debate failed (exit 1, as the CLI): the turns
up to the failure are kept.
"""

from __future__ import annotations

import json
import os
import sys
from argparse import ArgumentParser
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# Run as a file (python scripts/record_transcript.py), its folder is on the path, not
# the checkout: the engine is imported from the checkout this script belongs to.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from debates.engine import (
    DebateState,  # noqa: E402
    cli,  # noqa: E402
    load_model_settings,  # noqa: E402
)


def recording(state: DebateState, labels: dict[str, str], result: Any,
              failure: str | None, calls: list[Any]) -> dict[str, Any]:
    """The JSON document: what was asked, with which settings, every turn, the outcome."""
    return {
        "recorded": {
            "model": labels["model"], "server": labels["server"],
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "protocol": state.config.protocol, "question": state.question,
        },
        "config": state.config.model_dump(mode="json"),
        "personas": [p.model_dump(mode="json") for p in state.personas],
        "sources": [s.model_dump(mode="json") for s in state.sources],
        "turns": [t.model_dump(mode="json") for t in state.turns.values()],
        "result": result.model_dump(mode="json") if result is not None else None,
        "failure": failure,
        "calls": [c.model_dump(mode="json") for c in calls],
    }


def main(argv: list[str]) -> int:
    own = ArgumentParser(add_help=False, allow_abbrev=False)
    own.add_argument("--out", required=True, type=Path)
    own.add_argument("--model-label", default="")
    own.add_argument("--server-label", default="")
    mine, debate_argv = own.parse_known_args(argv)
    opts = vars(cli.build_parser("record_transcript").parse_args(debate_argv))
    labels = {"model": mine.model_label, "server": mine.server_label}
    try:
        if opts["save"]:
            raise cli.CliError(cli.SAVE_ELSEWHERE, cli.EXIT_BAD_INPUT)
        try:
            load_model_settings()
        except ValueError as exc:
            raise cli.CliError(str(exc), cli.EXIT_BAD_INPUT) from None
        # The command line's defaults (cli.main's): COUNCIL_MODEL, COUNCIL_FALLBACK_MODEL.
        state = cli.build_state(
            opts, default_model=os.environ.get("COUNCIL_MODEL") or cli.DEFAULT_MODEL,
            default_fallback=os.environ.get("COUNCIL_FALLBACK_MODEL") or None)
    except cli.CliError as exc:
        sys.stderr.write(f"record_transcript: error: {exc}\n")
        return exc.exit_code
    progress = cli.start_progress(state, sys.stderr)
    result, failure, code = None, None, 0
    try:
        result = cli.run_here(state, progress)
    except cli.CliError as exc:
        failure, code = str(exc), exc.exit_code
        sys.stderr.write(f"record_transcript: error: {exc}\n")
    mine.out.parent.mkdir(parents=True, exist_ok=True)
    document = recording(state, labels, result, failure, progress.calls)
    # Written whole, then renamed: whoever watches the folder never reads half a file.
    partial = mine.out.with_name(mine.out.name + ".partial")
    partial.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    partial.replace(mine.out)
    if result is not None:
        cli.write_result(result, state, opts, sys.stdout)
        code = cli.report_quality(result, opts, sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
