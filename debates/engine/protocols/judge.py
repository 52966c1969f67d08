"""The optional judge (docs/engine.md, "Content checks"): when ``judge_model`` is set,
one call after the verifier grades the synthesis; a "poor" grade becomes a
``judge.poor`` reason. Off by default: no extra call. Its turn is phase ``judge`` (its
own ledger line); a judge that fails leaves the result as the checks found it, with a
note."""

from __future__ import annotations

from .. import prompts
from ..quality.panel import reason
from ..schemas import JudgeGrade, Phase, QualityReason, TurnStatus
from ..state import DebateState, Step
from .base import PANEL, Ask, Request

JUDGE_STEP = Step(Phase.JUDGE)


def judge_step(state: DebateState) -> Step | None:
    """The judge's step once everything else is done, when a judge is configured."""
    if state.config.judge_model and state.turn(Phase.JUDGE) is None:
        return JUDGE_STEP
    return None


def judge_ask() -> Ask:
    return Ask(PANEL, "judge", JudgeGrade, "judge", Phase.JUDGE.value)


def judge_request(state: DebateState, text: str) -> Request:
    user = prompts.render("judge", question=state.question, text=text)
    return Request(prompts.messages(system=prompts.system_prompt(state.language), user=user,
                                    schema=JudgeGrade),
                   {"text": text, "language": state.language})


def judge_reasons(state: DebateState) -> list[QualityReason]:
    turn = state.turn(Phase.JUDGE)
    if turn is None or turn.status is not TurnStatus.OK or not turn.payload:
        return []
    grade = JudgeGrade.model_validate(turn.payload)
    if grade.grade != "poor":
        return []
    return [reason("judge.poor", f"judge ({turn.model or state.config.judge_model})",
                   grade.reason, Phase.JUDGE.value, 0)]


def judge_note(state: DebateState) -> list[str]:
    """A degraded note when the configured judge could not grade."""
    turn = state.turn(Phase.JUDGE)
    if turn is None or turn.status is TurnStatus.OK:
        return []
    return [f"the judge failed (the synthesis is ungraded): {turn.error}"]
