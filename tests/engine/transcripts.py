"""Recorded debates replayed through the content checks: a transcript file holds the
config, the personas, the sources it argued from (recordings since issue 42), the stored
turns and the result as recorded (tests/fixtures/real_transcripts/ from real servers,
tests/fixtures/sound_transcripts/ written by hand); the result is rebuilt from the turns,
so it is judged by the checks as they are now."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from debates.engine.protocols import get_protocol
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.schemas import ComposedPanel
from debates.engine.schemas import DebateConfig, Persona, ProtocolResult, Turn, Usage
from debates.engine.sources.documents import SourceDocument
from debates.engine.state import DebateState

FIXTURES = Path(__file__).parents[1] / "fixtures"


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def state_of(recorded: dict[str, Any]) -> DebateState:
    config = DebateConfig.model_validate(recorded["config"])
    turns = [Turn.model_validate(t) for t in recorded["turns"]]
    personas = [Persona.model_validate(p) for p in recorded.get("personas") or []]
    composed: set[str] = set()
    for turn in turns:
        if turn.phase is CouncilPhase.COMPOSE and turn.payload:
            composed = {p.name for p in ComposedPanel.model_validate(turn.payload).personas}
    given = [p for p in personas if p.name not in composed] if composed else personas
    result = recorded.get("result") or {}
    question = result.get("question") or recorded["recorded"]["question"]
    state = DebateState(question=question,
                        context=recorded.get("context", ""), config=config,
                        given_personas=given if config.protocol == "council" else [],
                        sources=[SourceDocument.model_validate(s)
                                 for s in recorded.get("sources") or []])
    for turn in turns:
        state.add(turn)
    get_protocol(config.protocol).prepare(state)
    return state


def replay(recorded: dict[str, Any]) -> ProtocolResult:
    state = state_of(recorded)
    result = get_protocol(state.config.protocol).build_result(state, Usage())
    assert isinstance(result, ProtocolResult)
    return result


def replay_turns(recorded: dict[str, Any]) -> tuple[str, list[str]]:
    """A debate that failed before its result: the text rules over the turns it has
    (the quality its result would have started from, and the rules that fired)."""
    from importlib import import_module

    from debates.engine.protocols.content import read_turns
    from debates.engine.quality import panel
    from debates.engine.quality.assess import assess

    state = state_of(recorded)
    protocol = get_protocol(state.config.protocol)
    content = import_module(f"debates.engine.protocols.{protocol.name}.content")
    label = protocol.step_label
    composed = [p.name for p in state.personas[len(state.given_personas):]]
    quality, reasons = assess(read_turns(state, label), content.text_policy(state),
                              panel.names(composed))
    return quality.value, [r.rule for r in reasons]
