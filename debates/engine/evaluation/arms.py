"""The arms, read from debates the engine runs (docs/engine.md, "Evaluation harness").

One council debate per question, on a fixed panel of neutral solvers (no compose call:
the panel is the same for every question, so the arms differ only in what they read):

- ``single``: agent 0's round-0 position (its premortem and position calls);
- ``vote``: the plurality of the round-0 positions (every premortem and position call);
- ``council``: the plurality of the final verdicts, after cross-examination (every
  call of the debate);
- ``synthesis``: the answer the synthesis's recommendation names (the same calls).

A question with options gives them to the debate as its options, and an agent's answer
is its verdict; a free-number question asks for the number, read as the last number of
the agent's stance (``Question.canonical``). ``adversarial``: one adversarial debate
per free-number question, the question as the problem, its final solution's last
number.

With a simulated population, the debate runs on the simulated model and a simulator
script makes agent i answer ``first[i]`` in round 0 and ``final[i]`` after
cross-examination, stating its seat's accuracy as its confidence.

The mixed arms read a second council debate whose seats take the panel's models
round-robin (``DebateConfig.panel_models``); each debate's detail names every seat's
model.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..configure import resolve_config
from ..hooks import EngineHooks
from ..llm.usage import usage_from_calls
from ..protocols import get_protocol, run_protocol
from ..protocols.reading import AgentAnswer, PanelReading
from ..schemas import (
    MAX_ROUNDS,
    MIN_ROUNDS,
    CallRecord,
    DebateConfig,
    Mode,
    Persona,
    SimulatorOptions,
)
from ..state import DebateState
from ..votes import confidence_vote
from .population import SimulatedDebate, SimulatedPopulation, plurality
from .sets import Question, canonical_number, last_number

if TYPE_CHECKING:
    from .runs import EvaluationSpec

SIM_MODEL = "sim/default"
# What a free-number question adds: the answer is read as the text's last number.
NUMBER_INSTRUCTION = ("Work it out, then end your {what} with the resulting number "
                      "(the last number you write is read as the answer).")


@dataclass
class Costs:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0  # None: a call's model has no price (not $0)
    seconds: float = 0.0  # the calls' own time, summed (concurrent calls overlap)


def costs_of(records: Sequence[CallRecord]) -> Costs:
    usage = usage_from_calls(list(records))  # a debate's own rule for an unknown price
    return Costs(
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost_usd=usage.cost_usd if usage.cost_known else None,
        seconds=sum(r.latency_ms for r in records) / 1000)


class _Recorder(EngineHooks):
    def __init__(self) -> None:
        self.calls: list[CallRecord] = []

    async def on_call(self, record: CallRecord) -> None:
        self.calls.append(record)


@dataclass
class Read:
    """One arm's answer as read from a debate, before it becomes an ``ArmAnswer``."""

    answer: str | None
    confidence: float | None
    costs: Costs
    note: str = ""


@dataclass
class CouncilReading:
    arms: dict[str, Read]  # each arm's own note says why it has no answer
    notes: list[str] = field(default_factory=list)  # the debate's: why it failed
    detail: dict[str, Any] = field(default_factory=dict)


def panel(agents: int) -> list[Persona]:
    """Neutral solvers: the evaluation measures the protocol, not a panel's make-up."""
    return [Persona(name=f"Solver {i + 1}", background="a careful problem solver",
                    expertise="exact reasoning and arithmetic",
                    approach="works every step out and checks the result",
                    bias="none declared") for i in range(agents)]


def debate_question(question: Question, what: str = "stance") -> str:
    """The question as the debate asks it: a free number asks for the number last."""
    if question.options:
        return question.text
    return f"{question.text}\n{NUMBER_INSTRUCTION.format(what=what)}"


def read_reply(question: Question, text: str | None) -> str | None:
    """An agent's answer in the question's spelling: one of the options, or a number;
    None when the text gives neither."""
    if text is None:
        return None
    if question.options is None:
        return canonical_number(text) or last_number(text)
    answer = question.canonical(text)
    return answer if answer in question.options else None


def read_recommendation(question: Question, text: str | None) -> str | None:
    """The option a recommendation names (only one of them, as a word), or its number."""
    if not text:
        return None
    if question.options is None:
        return canonical_number(text) or last_number(text)
    named = [o for o in question.options
             if re.search(rf"(?<!\w){re.escape(o)}(?!\w)", text, re.IGNORECASE)]
    return named[0] if len(named) == 1 else None


def _clamped(value: float | None) -> float | None:
    return value if value is not None and 0 <= value <= 1 else None


def _mean(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def rounds_of(spec: EvaluationSpec) -> int:
    return max(MIN_ROUNDS, min(MAX_ROUNDS, spec.rounds))


def sim_script(question: Question, simulated: SimulatedDebate, confidences: Sequence[float],
               rounds: int) -> dict[str, Any]:
    """The simulator script that makes the panel answer as the population did, each
    agent as confident as it is accurate (calibrated)."""
    agents = []
    for i, (first, final, confidence) in enumerate(zip(
            simulated.first, simulated.final, confidences, strict=True)):
        agent: dict[str, Any] = {"name": f"Solver {i + 1}", "position_confidence": confidence}
        step: dict[str, Any] = {"updated_confidence": confidence}
        if question.options:
            agent["position_verdict"], step["updated_verdict"] = first, final
        else:
            agent["position_stance"] = f"The result is {first}."
            step["updated_position"] = f"The result is {final}."
        agents.append({**agent, "rounds": [step] * rounds})
    return {"agents": agents,
            "recommendation": f"The panel's answer: {plurality(simulated.final)}."}


def one_model_of(spec: EvaluationSpec) -> str:
    """The model every seat of the one-model debate answers on: on a simulated
    population with panel models, the first listed (its copies are the one-model arms)."""
    if spec.sim_accuracy is None:
        return spec.model
    return spec.panel_models[0] if spec.panel_models else SIM_MODEL


def question_seed(seed: int, question: Question) -> int:
    """The seed of a question's debates: the run's seed and the question's id, so a run
    replays exactly, yet no two questions share their sampling draws. One seed for every
    question gave each seat the same random stream on each (seat i samples with seed
    + i): a seat's choices were then correlated across questions, not independent
    draws, and the intervals assume independent questions."""
    return zlib.crc32(f"{seed}:{question.id}".encode())


def _config(spec: EvaluationSpec, protocol: str, question: Question,
            script: dict[str, Any] | None, panel_models: Sequence[str] = ()) -> DebateConfig:
    seed = question_seed(spec.seed, question)
    settings: dict[str, Any] = {
        "protocol": protocol, "mode": Mode.QUICK, "max_rounds": rounds_of(spec),
        "model": one_model_of(spec) if protocol == "council" else (
            SIM_MODEL if spec.sim_accuracy is not None else spec.model),
        "seed": seed,
        "simulator": SimulatorOptions(script=script, seed=seed) if script
        else SimulatorOptions(seed=seed)}
    if protocol == "council":
        settings["agents"] = spec.agents
        if panel_models:
            settings["panel_models"] = list(panel_models)
        if question.options:
            settings["options"] = list(question.options)
    return resolve_config(**settings)


async def _run(state: DebateState) -> tuple[list[CallRecord], str]:
    """Runs the debate; the calls it made and why it failed ("" when it did not)."""
    recorder = _Recorder()
    try:
        await run_protocol(state, recorder)
    except Exception as exc:  # noqa: BLE001 - a failed debate is a note, never a crash
        return recorder.calls, f"the debate stopped: {type(exc).__name__}: {exc}"
    failure = get_protocol(state.config.protocol).failure(state)
    return recorder.calls, f"the debate failed: {failure}" if failure else ""


async def council_reading(question: Question, spec: EvaluationSpec,
                          simulated: SimulatedDebate | None,
                          population: SimulatedPopulation | None = None,
                          panel_models: Sequence[str] = ()) -> CouncilReading:
    """One council debate's readings; ``panel_models`` seats a mixed panel."""
    script = None
    if simulated is not None:
        assert population is not None
        confidences = [population.accuracy_of(i) for i in range(spec.agents)]
        script = sim_script(question, simulated, confidences, rounds_of(spec))
    try:
        config = _config(spec, "council", question, script, panel_models)
    except ValueError as exc:  # pydantic's ValidationError too
        return _nothing(f"the debate could not be configured: {exc}")
    state = DebateState(question=debate_question(question), config=config,
                        given_personas=panel(spec.agents))
    calls, failure = await _run(state)
    try:
        return _read_council(question, state, calls, failure)
    except Exception as exc:  # noqa: BLE001 - an unreadable debate is a note too
        reading = _nothing(f"the debate could not be read: {type(exc).__name__}: {exc}")
        reading.arms = {arm: Read(None, None, costs_of(calls)) for arm in reading.arms}
        return reading


def _nothing(note: str) -> CouncilReading:
    empty = Read(None, None, Costs())
    return CouncilReading({arm: empty for arm in ("single", "vote", "council", "synthesis")},
                          [note])


def _answers(question: Question, answers: Sequence[AgentAnswer | None]) -> list[str | None]:
    """Each agent's answer in the question's spelling: its verdict for a question with
    options, the number its stance ends with otherwise."""
    return [None if a is None else read_reply(question, a.verdict if question.options
                                              else a.stance) for a in answers]


def _backing(given: Sequence[AgentAnswer | None], answers: Sequence[str | None],
             answer: str | None) -> float | None:
    """The mean confidence of the agents holding ``answer``."""
    if answer is None:
        return None
    return _mean([_clamped(g.confidence) for g, a in zip(given, answers, strict=True)
                  if a == answer and g is not None])


def _read_council(question: Question, state: DebateState, calls: list[CallRecord],
                  failure: str) -> CouncilReading:
    notes = [failure] if failure else []
    panel = get_protocol(state.config.protocol).panel_reading(state)
    first = _answers(question, panel.first)
    round_zero = [c for c in calls if c.phase in panel.independent_phases]
    single = Read(first[0] if first else None,
                  _clamped(panel.first[0].confidence)
                  if first and first[0] and panel.first[0] else None,
                  costs_of([c for c in round_zero if c.agent == 0]))
    if single.answer is None:
        single.note = "agent 0 gave no readable first answer"
    vote_answer = plurality(first)
    vote = Read(vote_answer, _backing(panel.first, first, vote_answer), costs_of(round_zero),
                "" if vote_answer else "no agent gave a readable first answer")
    final = _answers(question, panel.final) if panel.rounds >= 1 else []
    # A tie of confidence ranks is broken as the council's rule breaks it: by the
    # independent vote, then the final one.
    ranked = confidence_vote([(answer, _clamped(given.confidence) if given else None)
                              for answer, given in zip(first, panel.first, strict=True)],
                             (first, final))
    confidence = Read(ranked, _backing(panel.first, first, ranked), costs_of(round_zero),
                      "" if ranked else "no agent gave a readable first answer and confidence")
    everything = costs_of(calls)
    if panel.rounds >= 1:
        council_answer = plurality(final)
        verdict = Read(council_answer, _backing(panel.final, final, council_answer),
                       everything,
                       "" if council_answer else "no agent gave a readable final answer")
    else:
        verdict = Read(None, None, everything, "no cross-examination round was completed")
    synthesis = Read(*_recommendation(question, panel, everything))
    detail = {"first": first, "final": final, "rounds": panel.rounds,
              "stop_reason": panel.stop_reason, "options": list(state.options),
              "seed": state.config.seed,
              "models": [p.model or state.config.model
                         for p in state.config.seated(state.given_personas)]}
    return CouncilReading({"single": single, "vote": vote, "confidence": confidence,
                           "council": verdict, "synthesis": synthesis}, notes, detail)


def _recommendation(question: Question, panel: PanelReading, costs: Costs
                    ) -> tuple[str | None, None, Costs, str]:
    """The answer the synthesis recommends, and why there is none when there is none."""
    if panel.recommendation is None:
        return None, None, costs, panel.recommendation_note
    answer = read_recommendation(question, panel.recommendation)
    return answer, None, costs, "" if answer else "the recommendation names no single answer"


async def adversarial_reading(question: Question, spec: EvaluationSpec) -> Read:
    """The adversarial protocol refining a solution to the question: its final
    solution's number."""
    try:
        config = _config(spec, "adversarial", question, None)
    except ValueError as exc:
        return Read(None, None, Costs(), f"the debate could not be configured: {exc}")
    state = DebateState(question=debate_question(question, "final solution"), config=config)
    calls, failure = await _run(state)
    solution = get_protocol(state.config.protocol).panel_reading(state).solution or ""
    answer = read_reply(question, solution) if solution else None
    note = failure or ("" if answer else "the final solution states no number")
    return Read(answer, None, costs_of(calls), note)
