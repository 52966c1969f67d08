"""The toy protocol: one oracle, one ``oracle_says`` step, a one-line result."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict

from debates.engine import (
    Ask,
    CallContext,
    DebateConfig,
    DebateProtocol,
    DebateState,
    PageStep,
    Phase,
    PlannedCall,
    ProtocolResult,
    QualityRule,
    Request,
    ResultPart,
    ResultSummary,
    RuleFinding,
    Step,
    TurnStatus,
    Usage,
    check_content,
    role_persona,
    uses_simulator,
)

ORACLE_SAYS = Phase.register("oracle_says")
ORACLE = 0


class ToyAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    answer: str


class ToyResult(ProtocolResult):
    answer: str

    def summarize(self) -> ResultSummary:
        return ResultSummary(protocol="toy", stop_reason="converged",
                             stop_explanation="the oracle has spoken", decision=self.answer,
                             divergence=None, degraded=self.degraded, simulated=self.simulated)


def simulated_answer(ctx: CallContext) -> dict[str, Any]:
    return {"answer": f"the oracle says yes to {ctx.question.strip()}"}


def shout(text: object) -> str:
    return str(text).upper()


def unhedged(state: DebateState, result: ToyResult) -> Iterator[RuleFinding]:
    if " yes " in f" {result.answer} ":
        yield RuleFinding(where="the oracle's answer", evidence=result.answer,
                          phase=ORACLE_SAYS.value, round=0, agent=ORACLE)


# A content rule of the plugin's own, run on every toy result (docs/engine.md, "Plugins").
UNHEDGED = QualityRule(
    "toy.unhedged", "doubtful", "the oracle says yes without a doubt",
    "an oracle that never hedges has not weighed anything", check=unhedged,
    protocols=("toy",))


class ToyProtocol(DebateProtocol):
    name = "toy"
    label = "Toy"
    description = "one oracle answers in one step"
    result_model = ToyResult
    partials = {"live": "toy/_oracle.html", "result": "toy/_result.html"}
    participants_title = "Oracle"
    fixed_panel = "one oracle"

    def prepare(self, state: DebateState) -> None:
        if not state.given_personas:
            state.given_personas = [role_persona("Oracle", "oracle", "one-line answers")]
            state.changed()

    def next_step(self, state: DebateState) -> Step | None:
        return None if state.turn(ORACLE_SAYS, 0, ORACLE) else Step(ORACLE_SAYS)

    def failure(self, state: DebateState) -> str | None:
        turn = state.turn(ORACLE_SAYS, 0, ORACLE)
        failed = turn is not None and turn.status is TurnStatus.FAILED
        return f"the oracle failed: {turn.error}" if failed and turn else None

    def asks(self, state: DebateState, step: Step) -> list[Ask]:
        return [Ask(ORACLE, "oracle", ToyAnswer, "oracle", "oracle")]

    def request(self, state: DebateState, step: Step, ask: Ask) -> Request:
        user = self.prompts().render(ask.prompt, question=state.question)
        return Request(messages=[{"role": "system", "content": "Answer in one line."},
                                 {"role": "user", "content": user}],
                       hints={"question": state.question})

    def planned_calls(self, config: DebateConfig, *, agents_given: int,
                      question_tokens: int) -> list[PlannedCall]:
        return [PlannedCall(ORACLE_SAYS, prompt_tokens=question_tokens + 30,
                            completion_tokens=20, agent=ORACLE)]

    def page_steps(self, state: DebateState, running: str = "") -> list[PageStep]:
        return [PageStep("oracle-says", ORACLE_SAYS.value,
                         state.turn(ORACLE_SAYS, 0, ORACLE) is not None)]

    def live_view(self, state: DebateState) -> dict[str, Any]:
        return {"answer": (state.ok_payload(ORACLE_SAYS, 0, ORACLE) or {}).get("answer", "")}

    def page_filters(self) -> dict[str, Callable[..., Any]]:
        return {"shout": shout}

    def build_result(self, state: DebateState, usage: Usage) -> ToyResult:
        payload = state.ok_payload(ORACLE_SAYS, 0, ORACLE) or {}
        result = ToyResult(
            question=state.question, language=state.language, protocol=self.name,
            config=state.config, prompt_version="toy", simulated=uses_simulator(state.config),
            answer=str(payload.get("answer", "")), unverified_claims=[], verifier_ok=True,
            degraded=False, degraded_notes=[], synthesis_model=state.config.model,
            usage=usage)
        return check_content(state, result)

    def result_parts(self, result: BaseModel) -> list[ResultPart]:
        assert isinstance(result, ToyResult)
        return [ResultPart("answer", "oracle", result.answer)]

    def render_markdown(self, result: BaseModel) -> str:
        assert isinstance(result, ToyResult)
        return f"# Toy oracle\n\n{result.answer}\n"

    def render_transcript(self, state: DebateState) -> str:
        return ""
