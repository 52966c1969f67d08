"""Every turn of a debate, by phase and round, as Markdown (``--verbose``)."""

from __future__ import annotations

from ...schemas import Phase, Turn, TurnStatus
from ...state import DebateState, Step
from .phases import CouncilPhase
from .state import step_label, step_order

ADVOCATE = "Devil's advocate"  # the challenge's one call, from outside the panel


def _turn_lines(turn: Turn) -> list[str]:
    if turn.status is TurnStatus.FAILED:
        return [f"*failed: {turn.error}*"]
    lines = []
    for key, value in (turn.payload or {}).items():
        if isinstance(value, list):
            # The advocate's attacks are objects: their claim, then its condition.
            shown = "; ".join(" — ".join(map(str, v.values())) if isinstance(v, dict)
                              else str(v) for v in value) or "–"
        else:
            shown = "–" if value is None else str(value)
        lines.append(f"- **{key}:** {shown}")
    return lines


def turns_in_order(state: DebateState) -> list[tuple[Step, list[Turn]]]:
    groups: dict[tuple[str, int], list[Turn]] = {}
    for turn in state.turns.values():
        # Panel calls are the result's; the devil's advocate is a turn of the debate.
        if turn.agent >= 0 or turn.phase is CouncilPhase.CHALLENGE:
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
            name = state.personas[turn.agent].name if turn.agent >= 0 else ADVOCATE
            out += [f"### {name}", "", *_turn_lines(turn), ""]
    return "\n".join(out) + "\n"
