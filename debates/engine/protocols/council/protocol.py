"""The council protocol (docs/protocols.md 1) on the registry: a thin adapter that calls
the existing council modules (steps.py, state.py, synthesis.py, report.py), so
they keep their shape and owners while the registry treats every protocol alike."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ...convergence import diagnostic_meaning
from ...hooks import EngineHooks, make_gateway
from ...i18n import translator
from ...llm.gateway import LLMGateway
from ...schemas import (
    ComposedPanel,
    CrossExamination,
    DebateResult,
    Diagnostic,
    Phase,
    Position,
    Premortem,
    RoundMetrics,
    SynthesisNarrative,
    TurnStatus,
    Usage,
    VerifierReport,
)
from ...state import DebateState, Step
from ..base import (
    PANEL,
    AgentForecast,
    Ask,
    DebateForecasts,
    DebateProtocol,
    PageStep,
    Participant,
    Request,
    run_asks,
)
from ..judge import judge_ask, judge_request, judge_step
from . import report, steps, synthesis, transcript

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
    # The rounds on the debate page; the council's result is the synthesis page's own
    # body (templates/debates/synthesis.html), so it declares no "result" partial.
    more_rounds = True
    composes_panel = True
    partials = {"head": "debates/protocols/_council_head.html",
                "chart": "debates/_chart_panel.html", "live": "debates/_rounds.html"}

    def check_options(self, options: dict[str, Any]) -> None:
        if options:
            raise ValueError("the council protocol takes no protocol_options")

    def next_step(self, state: DebateState) -> Step | None:
        step = state.next_step()
        if step is None and state.failure() is None:
            return judge_step(state)
        return step

    def failure(self, state: DebateState) -> str | None:
        return state.failure()

    def step_label(self, step: Step) -> str:
        return step.label

    def summary_line(self, state: DebateState) -> str:
        cfg = state.config
        return (f"Council · {cfg.mode.value} · {state.target_agents} agents · "
                f"model {cfg.model}")

    def asks(self, state: DebateState, step: Step) -> list[Ask]:
        if step.phase is Phase.JUDGE:
            return [judge_ask()]
        if step.phase in _PANEL_STEPS:
            schema, prompt, fallback = _PANEL_STEPS[step.phase]
            return [Ask(PANEL, "panel", schema, prompt, step.phase.value, fallback)]
        schema, prompt = _AGENT_STEPS[step.phase]
        return [Ask(i, state.personas[i].name, schema, prompt, step.phase.value)
                for i in state.active_agents(step)]

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
        rounds = state.planned_rounds
        if running.startswith("round ") and running[6:].isdigit():
            rounds = max(rounds, int(running[6:]))
        steps = []
        if state.needs_compose or state.turn(Phase.COMPOSE) is not None:
            compose = state.turn(Phase.COMPOSE)
            steps.append(PageStep("compose", "compose",
                                  compose is not None and compose.status is TurnStatus.OK))
        agent_steps = [Step(Phase.PREMORTEM), Step(Phase.POSITION)]
        agent_steps += [Step(Phase.CROSS_EXAM, r) for r in range(1, rounds + 1)]
        for step in agent_steps:
            if not state.personas:
                done = False
            elif step.phase is Phase.CROSS_EXAM:
                done = step.round <= state.completed_rounds
            else:
                done = state.step_complete(step)
            steps.append(PageStep(step.label.replace(" ", "-"), step.label, done))
        # Synthesis and its verifier are one step on the page.
        steps.append(PageStep("synthesis", "synthesis", state.turn(Phase.VERIFY) is not None))
        return steps

    def describe(self, state: DebateState, card: Participant) -> None:
        """Confidence from the first position to now, and the latest stance and verdict."""
        last = state.last_round_started
        for r in range(last + 1):
            phase, rnd = (Phase.POSITION, 0) if r == 0 else (Phase.CROSS_EXAM, r)
            ok = state.ok_payload(phase, rnd, card.index) is not None
            card.trail.append(state.confidence(card.index, r) if ok else None)
        stance_round = max((r for r in range(last + 1)
                            if state.ok_payload(Phase.POSITION if r == 0 else Phase.CROSS_EXAM,
                                                r, card.index) is not None), default=None)
        if stance_round is not None:
            card.latest = state.stance(card.index, stance_round)
            card.verdict = state.verdict(card.index, stance_round)

    def page_metrics(self, state: DebateState) -> list[RoundMetrics]:
        """Every round whose step has finished (round 0 once every position is in),
        derived from the state as the stored cache is."""
        metrics = state.all_metrics()
        if metrics and not state.step_complete(Step(Phase.POSITION)):
            return []
        return metrics

    def panel_steps(self, state: DebateState, rounds: int) -> list[Step]:
        return [Step(Phase.PREMORTEM), Step(Phase.POSITION),
                *(Step(Phase.CROSS_EXAM, r) for r in range(1, rounds + 1))]

    def page_diagnostic(self, state: DebateState, result: BaseModel | None,
                        metrics: list[RoundMetrics]) -> tuple[Diagnostic | None, str]:
        """The result's diagnostic, or (while running) one from the first and last
        round, with its meaning in the debate's language (the report's words)."""
        diagnostic = result.diagnostic if isinstance(result, DebateResult) else None
        if diagnostic is None and len(metrics) >= 2:
            diagnostic = state.diagnostic(metrics)
        if diagnostic is None:
            return None, ""
        return diagnostic, diagnostic_meaning(diagnostic, translator(state.language))

    # ------------------------------------------------------------------ result

    def build_result(self, state: DebateState, usage: Usage) -> DebateResult:
        return synthesis.build_result(state, usage)

    def forecasts(self, result: BaseModel) -> DebateForecasts:
        assert isinstance(result, DebateResult)
        before, after = result.verdicts_before, result.verdicts_after
        return DebateForecasts(
            options=list(result.options),
            initial_majority=before.leading if before else None,
            final_majority=after.leading if after else None,
            agents=[AgentForecast(agent=a.index, name=a.persona.name,
                                  final_verdict=a.final_verdict,
                                  final_confidence=a.final_confidence,
                                  initial_verdict=a.initial_verdict,
                                  initial_confidence=a.initial_confidence)
                    for a in result.agents])

    def render_markdown(self, result: BaseModel) -> str:
        assert isinstance(result, DebateResult)
        return report.render_markdown(result)

    def render_transcript(self, state: DebateState) -> str:
        return transcript.render_transcript(state)
