"""What the toy plugin does with the engine, printed as JSON for
tests/plugins/test_toy_protocol.py: run in a process of its own with the plugin on
PYTHONPATH (``python -m tests.plugins.toy_facts QUESTION``), through the engine's face
only. The first registry ask loads the plugin."""

from __future__ import annotations

import io
import json
import sys

from debates.engine import (
    DebateState,
    Phase,
    ProtocolResult,
    Step,
    get_protocol,
    known_protocols,
    plugins,
    resolve_config,
    run_here,
    start_progress,
    step_words,
)


def facts(question: str) -> dict[str, object]:
    # First of all, as a stored turn is read back: the plugin's phase, before any
    # registry was asked, loads the plugins.
    oracle_says = Step(Phase("oracle_says"))
    toy = get_protocol("toy")
    config = resolve_config(protocol="toy", model="sim/default")
    state = DebateState(question=question, config=config)
    progress = start_progress(state, io.StringIO())
    request = toy.request(state, oracle_says, toy.asks(state, oracle_says)[0])
    result = run_here(state, progress)
    assert isinstance(result, ProtocolResult)
    planned = toy.planned_calls(config, agents_given=0, question_tokens=10)
    return {
        "phase": oracle_says.phase.value,
        "labels": {lang: step_words(toy.labels(lang), "oracle_says") for lang in ("en", "fr")},
        "prompt_file": str(toy.prompts().path("oracle")),
        "request": request.messages,
        "quality": result.model_dump(mode="json")["quality"],
        "reasons": [(r.rule, r.severity, r.where) for r in result.quality_reasons],
        "parts": [(p.kind, p.ref, p.text) for p in toy.result_parts(result)],
        "planned": [(c.phase.value, c.agent) for c in planned],
        "made": [(c.phase, c.agent) for c in progress.calls if c.purpose == "call"],
        # What the entry point made known, asked last so that nothing above came first.
        "known": known_protocols(),
        "installed": [getattr(p, "__name__", repr(p)) for p in plugins.installed()],
    }


if __name__ == "__main__":
    json.dump(facts(sys.argv[1]), sys.stdout)
