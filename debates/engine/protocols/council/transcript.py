"""Every turn of a debate, by phase and round, as Markdown (``--verbose``)."""

from __future__ import annotations

from ...schemas import Phase, Turn, TurnStatus
from ...state import DebateState, Step
from .state import step_label, step_order


def _turn_lines(turn: Turn) -> list[str]:
    if turn.status is TurnStatus.FAILED:
        return [f"*failed: {turn.error}*"]
    lines = []
    for key, value in (turn.payload or {}).items():
        if isinstance(value, list):
            shown = "; ".join(str(v) for v in value) or "–"
        else:
            shown = "–" if value is None else str(value)
        lines.append(f"- **{key}:** {shown}")
    return lines


def turns_in_order(state: DebateState) -> list[tuple[Step, list[Turn]]]:
    groups: dict[tuple[str, int], list[Turn]] = {}
    for turn in state.turns.values():
        if turn.agent >= 0:
            groups.setdefault((turn.phase.value, turn.round), []).append(turn)
    steps = sorted((Step(Phase(p), r) for p, r in groups), key=step_order)
    return [
        (step, sorted(groups[(step.phase.value, step.round)], key=lambda t: t.agent))
        for step in steps
    ]


def render_transcript(state: DebateState) -> str:
    out = ["", "# Transcript", ""]
    for step, turns in turns_in_order(state):
        out += [f"## {step_label(step)}", ""]
        for turn in turns:
            out += [f"### {state.personas[turn.agent].name}", "", *_turn_lines(turn), ""]
    return "\n".join(out) + "\n"
