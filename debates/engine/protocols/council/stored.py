"""What the site asks of a stored council debate without naming the council
(``DebateProtocol``'s "stored debate" methods): which turn composes the panel, the
model an agent's card names, the rounds run and their measures, one more round."""

from __future__ import annotations

from typing import Any

from ...schemas import DebateConfig, Persona, Turn, TurnStatus
from ...state import DebateState, Step
from .phases import CouncilPhase
from .schemas import DebateResult
from .state import council


def sets_panel(turn: Turn) -> bool:
    return turn.phase is CouncilPhase.COMPOSE and turn.status is TurnStatus.OK


def agent_model(config: DebateConfig, persona: Persona) -> str:
    # An agent's own calls are its premortem, position and rounds: the rounds' model.
    return config.model_for(CouncilPhase.CROSS_EXAM.value, persona)


def rounds_run(state: DebateState) -> int:
    return council(state).completed_rounds


def round_measures(state: DebateState) -> list[dict[str, Any]]:
    """Every finished round's metrics (round 0 once every position is in), derived
    from the turns as the debate page's table is."""
    view = council(state)
    if not view.step_complete(Step(CouncilPhase.POSITION)):
        return []
    return [m.model_dump(mode="json") for m in view.all_metrics()]


def more_round_agents(state: DebateState) -> list[int]:
    view = council(state)
    return view.active_agents(Step(CouncilPhase.CROSS_EXAM, view.completed_rounds + 1))


def request_more_round(state: DebateState) -> None:
    council(state).request_more_round()


def change(result: DebateResult) -> dict[str, Any] | None:
    """What the debate changed (``DebateChange``), as plain JSON; None without verdicts."""
    derived = result.debate_change
    return derived.model_dump(mode="json") if derived is not None else None
