"""The council protocol (docs/protocols.md 1) on the registry: a thin adapter that calls
the existing council modules (steps.py, state.py, synthesis.py, report.py), so
they keep their shape and owners while the registry treats every protocol alike."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ...hooks import EngineHooks, make_gateway
from ...llm.gateway import LLMGateway
from ...schemas import Phase, TurnStatus, Usage, VerifierReport
from ...state import DebateState, Step
from ..base import PANEL, Ask, DebateProtocol, PageStep, Participant, Request, run_asks
from ..judge import judge_ask, judge_request, judge_step
from . import report, steps, synthesis, transcript
from .schemas import (
    ComposedPanel,
    CrossExamination,
    DebateResult,
    Position,
    Premortem,
    SynthesisNarrative,
)
from .state import CouncilState, council, step_label

_AGENT_STEPS: dict[Phase, tuple[type[BaseModel], str]] = {
    Phase.PREMORTEM: (Premortem, "premortem"),
    Phase.POSITION: (Position, "position"),
    Phase.CROSS_EXAM: (CrossExamination, "cross_exam"),
}
_PANEL_STEPS: dict[Phase, tuple[type[BaseModel], str, bool]] = {
    Phase.COMPOSE: (ComposedPanel, "compose", False),
    Phase.SYNTHESIS: (SynthesisNarrative, "synthesis", True),
    Phase.VERIFY: (VerifierReport, "verifier", True),
}


class CouncilProtocol(DebateProtocol):
    name = "council"
    label = "Council"
    description = "compose → premortem → position → cross-examination → synthesis"
    result_model = DebateResult
    state_view = CouncilState
    # The rounds on the debate page; the council's result is the synthesis page's own
    # body (templates/debates/synthesis.html), so it declares no "result" partial.
    more_rounds = True
    partials = {"head": "debates/protocols/_council_head.html",
                "chart": "debates/_chart_panel.html", "live": "debates/_rounds.html"}

    def check_options(self, options: dict[str, Any]) -> None:
        if options:
            raise ValueError("the council protocol takes no protocol_options")

    def next_step(self, state: DebateState) -> Step | None:
        step = council(state).next_step()
        if step is None and council(state).failure() is None:
            return judge_step(state)
        return step

    def failure(self, state: DebateState) -> str | None:
        return council(state).failure()

    def step_label(self, step: Step) -> str:
        return step_label(step)

    def summary_line(self, state: DebateState) -> str:
        cfg = state.config
        return (f"Council · {cfg.mode.value} · {council(state).target_agents} agents · "
                f"model {cfg.model}")

    def asks(self, state: DebateState, step: Step) -> list[Ask]:
        if step.phase is Phase.JUDGE:
            return [judge_ask()]
        if step.phase in _PANEL_STEPS:
            schema, prompt, fallback = _PANEL_STEPS[step.phase]
            return [Ask(PANEL, "panel", schema, prompt, step.phase.value, fallback)]
        schema, prompt = _AGENT_STEPS[step.phase]
        return [Ask(i, state.personas[i].name, schema, prompt, step.phase.value)
                for i in council(state).active_agents(step)]

    def request(self, state: DebateState, step: Step, ask: Ask) -> Request:
        if step.phase is Phase.JUDGE:
            payload = state.ok_payload(Phase.SYNTHESIS, 0, PANEL)
            assert payload is not None
            return judge_request(state, synthesis.narrative_text(
                SynthesisNarrative.model_validate(payload)))
        if step.phase is Phase.SYNTHESIS:
            messages, hints = synthesis.synthesis_messages(state)
        elif step.phase is Phase.VERIFY:
            messages, hints = synthesis.verifier_messages(state)
        elif step.phase is Phase.COMPOSE:
            raise NotImplementedError("compose messages are built inside steps.run_step")
        else:
            _, messages, hints = steps.agent_request(state, step, ask.agent, 0)
        return Request(messages=messages, hints=hints)

    async def run_step(self, state: DebateState, step: Step, hooks: EngineHooks,
                       gateway: LLMGateway | None = None) -> None:
        # The council's own runner: context compaction and its progress data; the
        # judge is one plain call, as in every protocol.
        if step.phase is Phase.JUDGE:
            await run_asks(self, state, step, hooks, gateway or make_gateway(state, hooks))
            return
        await steps.run_step(state, step, hooks, gateway)

    # ------------------------------------------------------------------ the debate page

    def page_steps(self, state: DebateState, running: str = "") -> list[PageStep]:
        # After Stop the state plans no further round, but a round a worker is still
        # running finishes and counts: it stays on the stepper meanwhile.
        rounds = council(state).planned_rounds
        if running.startswith("round ") and running[6:].isdigit():
            rounds = max(rounds, int(running[6:]))
        steps = []
        if council(state).needs_compose or state.turn(Phase.COMPOSE) is not None:
            compose = state.turn(Phase.COMPOSE)
            steps.append(PageStep("compose", "compose",
                                  compose is not None and compose.status is TurnStatus.OK))
        agent_steps = [Step(Phase.PREMORTEM), Step(Phase.POSITION)]
        agent_steps += [Step(Phase.CROSS_EXAM, r) for r in range(1, rounds + 1)]
        for step in agent_steps:
            if not state.personas:
                done = False
            elif step.phase is Phase.CROSS_EXAM:
                done = step.round <= council(state).completed_rounds
            else:
                done = council(state).step_complete(step)
            steps.append(PageStep(step_label(step).replace(" ", "-"), step_label(step), done))
        # Synthesis and its verifier are one step on the page.
        steps.append(PageStep("synthesis", "synthesis", state.turn(Phase.VERIFY) is not None))
        return steps

    def describe(self, state: DebateState, card: Participant) -> None:
        """Confidence from the first position to now, and the latest stance and verdict."""
        last = council(state).last_round_started
        for r in range(last + 1):
            phase, rnd = (Phase.POSITION, 0) if r == 0 else (Phase.CROSS_EXAM, r)
            ok = state.ok_payload(phase, rnd, card.index) is not None
            card.trail.append(council(state).confidence(card.index, r) if ok else None)
        stance_round = max((r for r in range(last + 1)
                            if state.ok_payload(Phase.POSITION if r == 0 else Phase.CROSS_EXAM,
                                                r, card.index) is not None), default=None)
        if stance_round is not None:
            card.latest = council(state).stance(card.index, stance_round)
            card.verdict = council(state).verdict(card.index, stance_round)

    # ------------------------------------------------------------------ result

    def build_result(self, state: DebateState, usage: Usage) -> DebateResult:
        return synthesis.build_result(state, usage)

    def render_markdown(self, result: BaseModel) -> str:
        assert isinstance(result, DebateResult)
        return report.render_markdown(result)

    def render_transcript(self, state: DebateState) -> str:
        return transcript.render_transcript(state)
