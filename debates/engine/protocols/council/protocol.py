"""The council protocol (docs/protocols.md 1) on the registry: its steps and their
derivations (state.py), its calls (steps.py, synthesis.py: run by the shared step
runner, with its prompts shortened when one does not fit), its result and report."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from ...llm.gateway import CallFailed
from ...schemas import DebateConfig, Persona, Phase, Turn, TurnStatus, Usage
from ...state import DebateState, Step
from ..base import (
    PANEL,
    AgentForecast,
    Ask,
    DebateForecasts,
    DebateProtocol,
    PageAnswer,
    PagePanel,
    PageStep,
    Participant,
    PlannedCall,
    Request,
    ResultPart,
)
from ..judge import judge_ask, judge_request, judge_step
from ..reading import PanelReading
from ..report_parts import mark_unfound
from . import estimate, pages, reading, report, steps, stored, synthesis, transcript
from .convergence import diagnostic_meaning
from .phases import CouncilPhase
from .schemas import DebateResult, Diagnostic, RoundMetrics, SynthesisNarrative
from .state import CouncilState, council, step_label

# Each step's prompt template (and, for the panel's calls, whether the configured
# fallback model stands in for an outage: the synthesis and the verifier, which marks
# claims as checked, must not be lost to one).
_AGENT_STEPS: dict[Phase, str] = {
    CouncilPhase.PREMORTEM: "premortem",
    CouncilPhase.POSITION: "position",
    CouncilPhase.CROSS_EXAM: "cross_exam",
    CouncilPhase.CHALLENGE_ANSWER: "challenge_answer",
}
_PANEL_STEPS: dict[Phase, tuple[str, bool]] = {
    CouncilPhase.COMPOSE: ("compose", False), CouncilPhase.CHALLENGE: ("challenge", False),
    Phase.SYNTHESIS: ("synthesis", True),
    Phase.VERIFY: ("verifier", True)}


class CouncilProtocol(DebateProtocol):
    name = "council"
    label = "Council"
    description = ("compose → premortem → position → cross-examination → (deep: challenge) → "
                   "synthesis")
    result_model = DebateResult
    phases = (CouncilPhase.COMPOSE, CouncilPhase.PREMORTEM, CouncilPhase.POSITION,
              CouncilPhase.CROSS_EXAM, CouncilPhase.CHALLENGE, CouncilPhase.CHALLENGE_ANSWER,
              Phase.SYNTHESIS, Phase.VERIFY, Phase.JUDGE)
    state_view = CouncilState
    more_rounds = True
    votes = True
    composes_panel = True
    partials = {"head": "debates/protocols/_council_head.html",
                "chart": "debates/_chart_panel.html", "live": "debates/_rounds.html",
                "summary": "debates/protocols/_council_summary.html",
                "result": "debates/protocols/_council_result.html",
                "compare": "debates/protocols/_council_compare.html",
                "compare_side": "debates/protocols/_council_compare_side.html"}

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
            prompt, fallback = _PANEL_STEPS[step.phase]
            return [Ask(PANEL, "panel", steps.step_schema(state, step), prompt,
                        step.phase.value, fallback)]
        schema = steps.step_schema(state, step)
        return [Ask(i, state.personas[i].name, schema, _AGENT_STEPS[step.phase],
                    step.phase.value) for i in council(state).active_agents(step)]

    def request(self, state: DebateState, step: Step, ask: Ask) -> Request:
        if step.phase is Phase.JUDGE:
            payload = state.ok_payload(Phase.SYNTHESIS, 0, PANEL)
            assert payload is not None
            return judge_request(state, synthesis.narrative_text(
                SynthesisNarrative.model_validate(payload)))
        return self._request(state, step, ask, 0)

    def shorter_request(self, state: DebateState, step: Step, ask: Ask,
                        compaction: int) -> Request | None:
        # Older material goes first, the latest stances and confidences stay whole to
        # the end; the compose prompt holds only the question, nothing to shorten.
        if compaction > steps.MAX_COMPACTION or step.phase in (CouncilPhase.COMPOSE, Phase.JUDGE):
            return None
        return self._request(state, step, ask, compaction)

    def _request(self, state: DebateState, step: Step, ask: Ask, compaction: int) -> Request:
        if step.phase is CouncilPhase.COMPOSE:
            messages, hints = steps.compose_messages(state)
        elif step.phase is CouncilPhase.CHALLENGE:
            messages, hints = steps.challenge_messages(state, compaction)
        elif step.phase is Phase.SYNTHESIS:
            messages, hints = synthesis.synthesis_messages(state, compaction)
        elif step.phase is Phase.VERIFY:
            messages, hints = synthesis.verifier_messages(state, compaction)
        else:
            _, messages, hints = steps.agent_request(state, step, ask.agent, compaction)
        return Request(messages=messages, hints=hints)

    def answer_check(self, state: DebateState, step: Step, ask: Ask
                     ) -> Callable[[Any], str | None] | None:
        if step.phase is Phase.SYNTHESIS:
            return synthesis.decision_check(state)
        return None

    def call_error(self, step: Step, exc: CallFailed) -> str:
        # An agent's turn records its own model: its error does not repeat it.
        if step.phase in _AGENT_STEPS:
            return f"{exc.error_class}: {exc.message}"
        return super().call_error(step, exc)

    def reports_turns(self, step: Step) -> bool:
        # Compose, synthesis and verify are one call each: their step's event says it.
        return step.phase not in _PANEL_STEPS

    def step_data(self, state: DebateState, step: Step) -> dict[str, Any]:
        view = council(state)
        if step.phase in _PANEL_STEPS:
            return {"ok": None, "of": len(view.active_agents(step))}
        if step.phase in (CouncilPhase.POSITION, CouncilPhase.CROSS_EXAM) \
                and view.step_complete(step) \
                and view.ok_agents(step):
            return {"metrics": view.metrics(step.round).model_dump(mode="json")}
        return {}

    # ------------------------------------------------------------------ the debate page

    def page_steps(self, state: DebateState, running: str = "") -> list[PageStep]:
        # After Stop the state plans no further round, but a round a worker is still
        # running finishes and counts: it stays on the stepper meanwhile.
        rounds = council(state).planned_rounds
        if running.startswith("round ") and running[6:].isdigit():
            rounds = max(rounds, int(running[6:]))
        steps = []
        if council(state).needs_compose or state.turn(CouncilPhase.COMPOSE) is not None:
            compose = state.turn(CouncilPhase.COMPOSE)
            steps.append(PageStep("compose", "compose",
                                  compose is not None and compose.status is TurnStatus.OK))
        agent_steps = [Step(CouncilPhase.PREMORTEM), Step(CouncilPhase.POSITION)]
        agent_steps += [Step(CouncilPhase.CROSS_EXAM, r) for r in range(1, rounds + 1)]
        for step in agent_steps:
            if not state.personas:
                done = False
            elif step.phase is CouncilPhase.CROSS_EXAM:
                done = step.round <= council(state).completed_rounds
            else:
                done = council(state).step_complete(step)
            steps.append(PageStep(step_label(step).replace(" ", "-"), step_label(step), done))
        # Deep mode's challenge, the advocate's case and the panel's answers, shown once
        # debating has stopped with a leading view (docs/protocols.md 1.7a).
        view = council(state)
        if view.challenge_due or state.turn(CouncilPhase.CHALLENGE) is not None:
            steps.append(PageStep("challenge", "challenge",
                                  state.turn(CouncilPhase.CHALLENGE) is not None))
            steps.append(PageStep("challenge_answer", "challenge_answer", view.challenge_ran
                                  and view.step_complete(Step(CouncilPhase.CHALLENGE_ANSWER))))
        # Synthesis and its verifier are one step on the page.
        steps.append(PageStep("synthesis", "synthesis", state.turn(Phase.VERIFY) is not None))
        return steps

    def describe(self, state: DebateState, card: Participant) -> None:
        """Confidence from the first position to now, and the latest stance and verdict."""
        last = council(state).last_round_started
        for r in range(last + 1):
            phase, rnd = (CouncilPhase.POSITION, 0) if r == 0 else (CouncilPhase.CROSS_EXAM, r)
            ok = state.ok_payload(phase, rnd, card.index) is not None
            card.trail.append(council(state).confidence(card.index, r) if ok else None)
        stance_round = max((r for r in range(last + 1)
                            if state.ok_payload(
                                CouncilPhase.POSITION if r == 0 else CouncilPhase.CROSS_EXAM,
                                                r, card.index) is not None), default=None)
        if stance_round is not None:
            card.latest = council(state).stance(card.index, stance_round)
            card.verdict = council(state).verdict(card.index, stance_round)

    def page_metrics(self, state: DebateState) -> list[RoundMetrics]:
        """Every round whose step has finished (round 0 once every position is in),
        derived from the state as the stored cache is."""
        metrics = council(state).all_metrics()
        if metrics and not council(state).step_complete(Step(CouncilPhase.POSITION)):
            return []
        return metrics

    def panel_steps(self, state: DebateState, rounds: int) -> list[Step]:
        answers = [Step(CouncilPhase.CHALLENGE_ANSWER)] if council(state).challenge_ran else []
        return [Step(CouncilPhase.PREMORTEM), Step(CouncilPhase.POSITION),
                *(Step(CouncilPhase.CROSS_EXAM, r) for r in range(1, rounds + 1)), *answers]

    def page_diagnostic(self, state: DebateState, result: BaseModel | None,
                        metrics: list[RoundMetrics]) -> tuple[Diagnostic | None, str]:
        """The result's diagnostic, or (while running) one from the first and last
        round, with its meaning in the debate's language (the report's words)."""
        diagnostic = result.diagnostic if isinstance(result, DebateResult) else None
        if diagnostic is None and len(metrics) >= 2:
            diagnostic = council(state).diagnostic(metrics)
        if diagnostic is None:
            return None, ""
        return diagnostic, diagnostic_meaning(diagnostic, self.labels(state.language))

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
                    for a in result.agents],
            change=stored.change(result))

    def render_markdown(self, result: BaseModel) -> str:
        assert isinstance(result, DebateResult)
        # Citations that do not check out marked where they stand (docs/engine.md,
        # "Sources").
        return mark_unfound(report.render_markdown(result), result)

    def render_transcript(self, state: DebateState) -> str:
        return transcript.render_transcript(state)

    def panel_reading(self, state: DebateState) -> PanelReading:
        return reading.panel_reading(state)

    # ------------------------------------------------------------------ estimate

    def planned_calls(self, config: DebateConfig, *, agents_given: int,
                      question_tokens: int) -> list[PlannedCall]:
        return estimate.planned_calls(config, agents_given=agents_given,
                                      question_tokens=question_tokens)

    def more_round_calls(self, config: DebateConfig, *, rounds_run: int,
                         question_tokens: int) -> list[PlannedCall]:
        return estimate.more_round_calls(config, rounds_run=rounds_run,
                                         question_tokens=question_tokens)

    # ------------------------------------------------------------------ the stored debate

    def sets_panel(self, turn: Turn) -> bool:
        return stored.sets_panel(turn)

    def agent_model(self, config: DebateConfig, agent: int, persona: Persona) -> str:
        return stored.agent_model(config, persona)

    def rounds_run(self, state: DebateState) -> int:
        return stored.rounds_run(state)

    def round_measures(self, state: DebateState) -> list[dict[str, Any]]:
        return stored.round_measures(state)

    def more_round_agents(self, state: DebateState) -> list[int]:
        return stored.more_round_agents(state)

    def request_more_round(self, state: DebateState) -> None:
        stored.request_more_round(state)

    # ------------------------------------------------------------------ page methods
    # (pages.py: what the site's pages and comments read of the council)

    def result_parts(self, result: BaseModel) -> list[ResultPart]:
        return pages.result_parts(result)

    def page_answer(self, result: BaseModel, words: Callable[..., str]) -> PageAnswer:
        return pages.page_answer(result, words)

    def quote_passages(self, result: BaseModel) -> list[tuple[object, str]]:
        return pages.quote_passages(result)

    def page_panel(self, state: DebateState, step: Step) -> PagePanel:
        return pages.page_panel(state, step)

    def page_words(self, language: str, words: Callable[..., str]
                   ) -> dict[str, Callable[..., str]]:
        return pages.page_words(words)

    def turn_field_labels(self, phase: str) -> list[tuple[str, str]]:
        return pages.TURN_FIELDS.get(phase, [])

    def turn_missing_word(self, phase: str) -> str:
        # A cross-examination without an updated confidence kept the one it had.
        return "unchanged" if phase == CouncilPhase.CROSS_EXAM.value else "none"

    def turn_summary(self, phase: str, payload: dict[str, Any],
                     words: Callable[..., str]) -> str:
        return pages.turn_summary(phase, payload)

    def payload_item_text(self, value: dict[str, Any],
                          words: Callable[..., str]) -> str | None:
        return pages.payload_item_text(value, words)

    def composed_personas(self, phase: str, payload: dict[str, Any]) -> list[dict[str, Any]]:
        return pages.composed_personas(phase, payload)

    def transcript_title(self, step: Step) -> str:
        return pages.transcript_title(step)

    def page_comparison(self, a: BaseModel, b: BaseModel,
                        words_in: Callable[[str], Callable[..., str]]) -> Any:
        return pages.compare_results(a, b, words_in)
