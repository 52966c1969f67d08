"""The council's panel, read for the evaluation harness (``DebateProtocol.panel_reading``):
each agent's round-0 position (premortem and position: the independent vote) and its
answer after the last completed cross-examination round, and the synthesis's
recommendation (docs/engine.md, "Evaluation harness")."""

from __future__ import annotations

from ...schemas import Phase, StopReason
from ...state import DebateState, Step
from ..reading import AgentAnswer, PanelReading
from .phases import CouncilPhase
from .schemas import SynthesisNarrative
from .state import CouncilState, council

INDEPENDENT_PHASES = frozenset({CouncilPhase.PREMORTEM.value, CouncilPhase.POSITION.value})


def _answers(view: CouncilState, round_number: int) -> list[AgentAnswer | None]:
    """Each agent's answer up to ``round_number``; None for one that took no position."""
    positioned = set(view.ok_agents(Step(CouncilPhase.POSITION)))
    return [AgentAnswer(view.verdict(i, round_number), view.stance(i, round_number),
                        view.confidence(i, round_number)) if i in positioned else None
            for i in range(len(view.personas))]


def _recommendation(state: DebateState, view: CouncilState) -> tuple[str | None, str]:
    """The synthesis's recommendation, and why there is none when there is none."""
    payload = state.ok_payload(Phase.SYNTHESIS, 0, -1)
    if payload is None:
        return None, "no synthesis"
    stop = view.stop()
    if stop is not None and stop[0] is StopReason.GENUINE_DISAGREEMENT:
        # The result withholds a recommendation on genuine disagreement (synthesis.py).
        return None, "the synthesis reported a divergence, no recommendation"
    path = SynthesisNarrative.model_validate(payload).recommended_path
    text = path.recommendation if path else None
    return text, "" if text else "the recommendation names no single answer"


def panel_reading(state: DebateState) -> PanelReading:
    view = council(state)
    last = view.completed_rounds
    stop = view.stop() if last >= 1 else None
    recommendation, note = _recommendation(state, view)
    return PanelReading(
        first=_answers(view, 0), final=_answers(view, last) if last >= 1 else [],
        rounds=last, stop_reason=stop[0].value if stop else None,
        independent_phases=INDEPENDENT_PHASES,
        recommendation=recommendation, recommendation_note=note)
