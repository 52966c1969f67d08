"""The council's view of a debate's state (docs/protocols.md 1): its panel (given and
composed personas), options, each agent's carried-forward stance, confidence and
verdict, the point ledger, the metrics and stopping rule per round, and the next step.

Everything is recomputed from the stored turns (``DebateState``), so a worker that
picks up a half-finished debate from the database reaches exactly the same
conclusions as the process that started it; the view lives until the next turn.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, TypeVar, cast

from pydantic import BaseModel

from ...i18n import translator
from ...options import options_from_question
from ...points import KINDS, Ledger, LedgerItem
from ...schemas import Mode, Persona, Phase, StopReason, TurnStatus
from ...state import DebateState, StateView, Step
from . import convergence, verdicts
from .phases import CouncilPhase
from .schemas import (
    ChallengeAnswer,
    ComposedPanel,
    CrossExamination,
    Diagnostic,
    Position,
    Premortem,
    RoundDecision,
    RoundMetrics,
    VerdictSplit,
)

QUORUM = 2


def council(state: DebateState) -> CouncilState:
    """The council's derivations over ``state``'s turns (cached until the next turn)."""
    view = state.view
    assert isinstance(view, CouncilState), f"not a council debate: {state.config.protocol}"
    return view


def step_label(step: Step) -> str:
    """"round N" for a cross-examination round, else the phase."""
    return f"round {step.round}" if step.phase is CouncilPhase.CROSS_EXAM else step.phase.value


CHALLENGE_STEPS = (CouncilPhase.CHALLENGE, CouncilPhase.CHALLENGE_ANSWER)


def step_order(step: Step) -> tuple[int, int]:
    """The council's phases in the order it runs them, then rounds."""
    return step.order


T = TypeVar("T", bound=BaseModel)


class CouncilState(StateView):
    def __init__(self, state: DebateState) -> None:
        super().__init__(state)
        # Metrics per round: pages, the stop rule and next_step() all ask for them, and
        # each round's novelty reads every earlier one.
        self._metrics: dict[int, RoundMetrics] = {}
        self._turn_models: dict[tuple[str, int, int], BaseModel | None] = {}

    # ------------------------------------------------------------------ agents

    @property
    def target_agents(self) -> int:
        # Given personas beyond the mode's count are all kept: the team chose them.
        return max(self.state.config.n_agents, len(self.state.given_personas))

    @property
    def needs_compose(self) -> bool:
        return len(self.state.given_personas) < self.target_agents

    @cached_property
    def personas(self) -> list[Persona]:
        personas = list(self.state.given_personas)
        compose = self.state.ok_payload(CouncilPhase.COMPOSE, 0, -1)
        if compose is not None:
            taken = {p.name for p in personas}
            for persona in ComposedPanel.model_validate(compose).personas:
                if len(personas) >= self.target_agents:
                    break
                name = persona.name
                suffix = 2
                while name in taken:
                    name, suffix = f"{persona.name} ({suffix})", suffix + 1
                taken.add(name)
                personas.append(persona.model_copy(update={"name": name}))
        return personas

    @cached_property
    def options(self) -> list[str]:
        """What verdicts choose from, fixed before round 0 (docs/protocols.md 1.4): the
        user's, else those the compose call extracted with the panel, else (no compose
        call: every persona given) the ones the question names, else yes/no."""
        if self.state.config.options:
            return list(self.state.config.options)
        compose = self.state.ok_payload(CouncilPhase.COMPOSE, 0, -1)
        if compose is not None and compose.get("options"):
            return verdicts.composed_options(compose["options"], self.state.question)
        return options_from_question(self.state.question)

    def failed_at(self, agent: int) -> Step | None:
        """The first step in which this agent's turn failed."""
        return min(self.state.failed_steps(agent), key=step_order, default=None)

    def active_agents(self, step: Step) -> list[int]:
        """Agents taking part in ``step``: those that have not failed before it."""
        active = []
        for i in range(len(self.personas)):
            failed = self.failed_at(i)
            if failed is None or step_order(failed) >= step_order(step):
                active.append(i)
        return active

    def counted_agents(self, round_number: int) -> list[int]:
        """Agents the metrics of a round count: every agent that took a position.
        One whose turn failed since keeps its last stance and confidence (carried
        forward, not live): a dissenter whose call failed has not changed its mind,
        so its failure must not manufacture agreement (docs/protocols.md 1.6)."""
        del round_number  # the same set in every round, until positions can be revised
        return self.ok_agents(Step(CouncilPhase.POSITION))

    def live_agents(self, round_number: int) -> list[int]:
        """Agents whose own turn in this round (positions for round 0) succeeded."""
        return self.ok_agents(Step(CouncilPhase.CROSS_EXAM, round_number) if round_number
                              else Step(CouncilPhase.POSITION))

    def ok_agents(self, step: Step) -> list[int]:
        return [
            i for i in self.active_agents(step)
            if self.state.ok_payload(step.phase, step.round, i) is not None
        ]

    def step_complete(self, step: Step) -> bool:
        return all(
            self.state.turn(step.phase, step.round, i) is not None for i in self.active_agents(step)
        )

    # ------------------------------------------------------------------ per-agent reads

    def premortem(self, agent: int) -> Premortem | None:
        payload = self.state.ok_payload(CouncilPhase.PREMORTEM, 0, agent)
        return Premortem.model_validate(payload) if payload else None

    def position(self, agent: int) -> Position | None:
        return self._parsed(CouncilPhase.POSITION, 0, agent, Position)

    def cross_exam(self, agent: int, round_number: int) -> CrossExamination | None:
        return self._parsed(CouncilPhase.CROSS_EXAM, round_number, agent, CrossExamination)

    def _parsed(self, phase: Phase, round_number: int, agent: int,
                schema: type[T]) -> T | None:
        """A stored turn's payload as its schema, parsed once per view (the view lives
        until the next turn; the result builder asks for each many times)."""
        key = (phase.value, round_number, agent)
        if key not in self._turn_models:
            payload = self.state.ok_payload(phase, round_number, agent)
            self._turn_models[key] = schema.model_validate(payload) if payload else None
        return cast("T | None", self._turn_models[key])

    def _carried(self, agent: int, round_number: int, first: str, update: str) -> Any:
        """The position's ``first`` field, replaced by each later round's ``update`` up
        to ``round_number`` when that round gave one (a null or empty update, or a
        failed turn, carries the previous value forward)."""
        position = self.position(agent)
        if position is None:
            return None
        value = getattr(position, first)
        for r in range(1, round_number + 1):
            exam = self.cross_exam(agent, r)
            updated = getattr(exam, update) if exam is not None else None
            if updated is not None and updated != "":
                value = updated
        return value

    def confidence(self, agent: int, round_number: int) -> float | None:
        """Latest confidence up to ``round_number`` (carried forward)."""
        return cast("float | None", self._carried(agent, round_number, "confidence",
                                                  "updated_confidence"))

    def verdict(self, agent: int, round_number: int) -> str | None:
        """Latest verdict up to ``round_number``, carried forward like confidence."""
        value = self._carried(agent, round_number, "verdict", "updated_verdict")
        return verdicts.normalize(value, self.options) if value is not None else None

    def verdict_split(self, round_number: int) -> VerdictSplit | None:
        """The counted agents' verdicts in a round (failed ones carried forward)."""
        return verdicts.split([self.verdict(i, round_number)
                               for i in self.counted_agents(round_number)], self.options)

    def stance(self, agent: int, round_number: int) -> str | None:
        """Latest stance up to ``round_number``, carried forward like confidence."""
        return cast("str | None", self._carried(agent, round_number, "stance",
                                                "updated_position"))

    # ------------------------------------------------------------------ rounds and metrics

    @property
    def completed_rounds(self) -> int:
        r = 0
        while (self.turn_exists_in_round(r + 1)
               and self.step_complete(Step(CouncilPhase.CROSS_EXAM, r + 1))):
            r += 1
        return r

    def turn_exists_in_round(self, round_number: int) -> bool:
        return any(k[0] == CouncilPhase.CROSS_EXAM.value and k[1] == round_number
                   for k in self.state.turns)

    @property
    def last_round_started(self) -> int:
        """The highest cross-examination round with any turn, complete or not."""
        exam = CouncilPhase.CROSS_EXAM.value
        return max((k[1] for k in self.state.turns if k[0] == exam), default=0)

    @property
    def planned_rounds(self) -> int:
        """How many rounds the debate has or will have: the completed ones once debating
        has stopped, otherwise up to the cap (or further, after "one more round")."""
        if self.stop() is not None:
            return max(self.completed_rounds, self.last_round_started)
        return max(self.round_cap, self.last_round_started)

    def round_items(self, round_number: int) -> list[str]:
        items: list[str] = []
        for i in self.ok_agents(Step(CouncilPhase.CROSS_EXAM, round_number)):
            exam = self.cross_exam(i, round_number)
            assert exam is not None
            items.extend(exam.remaining_disagreements)
            items.extend(exam.new_evidence_needed)
        return items

    @cached_property
    def points(self) -> Ledger:
        """Every point raised in the rounds so far, with its id (points.py); rebuilt
        from the stored turns, so every process assigns the same ids."""
        ledger = Ledger(self.state.config.novelty_threshold)
        for r in range(1, self.last_round_started + 1):
            items = []
            for i in self.ok_agents(Step(CouncilPhase.CROSS_EXAM, r)):
                exam = self.cross_exam(i, r)
                assert exam is not None
                for name, kind in KINDS.items():
                    items += [LedgerItem(i, kind, text) for text in getattr(exam, name)]
            ledger.add_round(r, items)
        return ledger

    def metrics(self, round_number: int) -> RoundMetrics:
        if round_number not in self._metrics:
            self._metrics[round_number] = self._compute_metrics(round_number)
        return self._metrics[round_number].model_copy()

    def _compute_metrics(self, round_number: int) -> RoundMetrics:
        counted = self.counted_agents(round_number)
        live = self.live_agents(round_number)
        if round_number == 0:
            return convergence.round_metrics(
                round_number=0,
                confidences=[self.confidence(i, 0) or 0.0 for i in counted],
                previous_mean=None, concessions=None, new_arguments=None,
                live_agents=len(live), verdicts=self.verdict_split(0),
            )
        concessions = 0
        for i in live:
            exam = self.cross_exam(i, round_number)
            assert exam is not None
            concessions += len(exam.concessions)
        metrics = convergence.round_metrics(
            round_number=round_number,
            confidences=[self.confidence(i, round_number) or 0.0 for i in counted],
            previous_mean=self.metrics(round_number - 1).mean_confidence,
            concessions=concessions,
            new_arguments=self.points.new_in_round(round_number),
            live_agents=len(live),
            verdicts=self.verdict_split(round_number),
        )
        reason, explanation = self.rule(metrics)
        metrics.decision = RoundDecision.CONTINUE if reason is None else reason
        metrics.stop_reason = reason
        metrics.explanation = explanation
        return metrics

    @property
    def round_cap(self) -> int:
        return max(self.state.config.round_cap, self.state.forced_rounds)

    def rule(self, metrics: RoundMetrics) -> tuple[StopReason | None, str]:
        t = translator(self.state.language)
        reason, explanation = convergence.stop_decision(
            metrics, threshold=self.state.config.convergence_threshold,
            max_rounds=self.round_cap, t=t,
        )
        if reason is not None and metrics.round < self.state.forced_rounds:
            return None, t("explain.forced", reason=t(f"reason.{reason.value}"),
                           explanation=explanation)
        forced = self.state.forced_rounds
        if reason is None and forced and metrics.round >= forced:
            # "One more round" means one: the rule may want more, the user asked for one.
            return StopReason.STOPPED_BY_USER, t(
                "explain.one_more_round", round=metrics.round) + convergence.split_words(
                    metrics, t)
        return reason, explanation

    def all_metrics(self) -> list[RoundMetrics]:
        """Round 0 (positions) to the last complete round; empty before positions."""
        if not self.ok_agents(Step(CouncilPhase.POSITION)):
            return []
        return [self.metrics(r) for r in range(self.completed_rounds + 1)]

    def diagnostic(self, metrics: list[RoundMetrics]) -> Diagnostic:
        """The diagnostic of round ``metrics[0]`` against ``metrics[-1]``, with each
        agent's own move and the rule's disagreement limit, so its words fit the
        numbers and the stop reason (``convergence.diagnose``)."""
        first, last = metrics[0], metrics[-1]
        moves = []
        for i in self.counted_agents(last.round):
            before, after = self.confidence(i, first.round), self.confidence(i, last.round)
            if before is not None and after is not None:
                moves.append(after - before)
        limit = convergence.DISAGREEMENT_FACTOR * self.state.config.convergence_threshold
        return convergence.diagnose(first, last, moves=moves, dispersion_limit=limit)

    def stop(self) -> tuple[StopReason, str] | None:
        """Why debating stopped, or None while rounds remain to run."""
        for m in self.all_metrics()[1:]:
            if m.stop_reason is not None:
                return m.stop_reason, m.explanation
        if self.state.stop_requested:
            t = translator(self.state.language)
            metrics = self.all_metrics()
            split = convergence.split_words(metrics[-1], t) if metrics else ""
            return StopReason.STOPPED_BY_USER, t(
                "explain.stopped_by_user", n=self.completed_rounds) + split
        return None

    # ------------------------------------------------------------------ the challenge

    @property
    def deep(self) -> bool:
        return self.state.config.mode is Mode.DEEP

    def leading_view(self) -> str | None:
        """The verdict a majority of the counted agents hold after the last round (what
        a challenge attacks); None on a split panel."""
        return verdicts.majority_of(self.verdict_split(self.completed_rounds))

    @property
    def challenge_due(self) -> bool:
        """Deep mode, debating has stopped and a majority leads: one challenge round
        runs before the synthesis (docs/protocols.md 1.7a)."""
        return self.deep and self.stop() is not None and self.leading_view() is not None

    @property
    def challenge_ran(self) -> bool:
        """The devil's advocate answered: the panel answers it, and its answers count."""
        return self.challenge_due and self.state.ok_payload(
            CouncilPhase.CHALLENGE, 0, -1) is not None

    def challenge_answer(self, agent: int) -> ChallengeAnswer | None:
        if not self.challenge_ran:
            return None
        return self._parsed(CouncilPhase.CHALLENGE_ANSWER, 0, agent, ChallengeAnswer)

    def final_verdict(self, agent: int) -> str | None:
        """The agent's verdict at the end: its challenge answer's, else the last round's."""
        answer = self.challenge_answer(agent)
        if answer is not None:
            return verdicts.normalize(answer.verdict, self.options)
        return self.verdict(agent, self.completed_rounds)

    def final_confidence(self, agent: int) -> float | None:
        answer = self.challenge_answer(agent)
        if answer is not None:
            return answer.confidence
        return self.confidence(agent, self.completed_rounds)

    def final_split(self) -> VerdictSplit | None:
        """The counted agents' final verdicts (after any challenge)."""
        return verdicts.split([self.final_verdict(i)
                               for i in self.counted_agents(self.completed_rounds)],
                              self.options)

    # ------------------------------------------------------------------ progress

    def failure(self) -> str | None:
        """Why the debate cannot go on, or None."""
        compose = self.state.turn(CouncilPhase.COMPOSE)
        if compose is not None and compose.status is TurnStatus.FAILED:
            return f"composing the panel failed: {compose.error}"
        synthesis = self.state.turn(Phase.SYNTHESIS)
        if synthesis is not None and synthesis.status is TurnStatus.FAILED:
            return f"the synthesis failed: {synthesis.error}"
        if self.needs_compose and compose is None:
            return None
        for step in self._agent_steps_so_far():
            active = self.ok_agents(step) if self.step_complete(step) else None
            if active is not None and len(active) < QUORUM:
                return (
                    f"below quorum in {step_label(step)}: {len(active)} of {len(self.personas)} "
                    f"agents remain (at least {QUORUM} needed); failed: "
                    f"{'; '.join(self._failures_up_to(step))}"
                )
        return None

    def _failures_up_to(self, step: Step) -> list[str]:
        """Every agent that failed in or before ``step``, where and why: a quorum lost
        over several steps is explained by all of them, not only the last."""
        failures = []
        for i, persona in enumerate(self.personas):
            failed = self.failed_at(i)
            if failed is None or step_order(failed) > step_order(step):
                continue
            turn = self.state.turn(failed.phase, failed.round, i)
            error = turn.error if turn is not None else "unknown error"
            failures.append(f"{persona.name} in {step_label(failed)} ({error})")
        return failures

    def _agent_steps_so_far(self) -> list[Step]:
        steps = [Step(CouncilPhase.PREMORTEM), Step(CouncilPhase.POSITION)]
        steps += [Step(CouncilPhase.CROSS_EXAM, r) for r in range(1, self.completed_rounds + 1)]
        return steps

    def next_step(self) -> Step | None:
        """The next step to run, or None when the debate is finished or failed."""
        if self.failure() is not None:
            return None
        if self.needs_compose and self.state.turn(CouncilPhase.COMPOSE) is None:
            return Step(CouncilPhase.COMPOSE)
        for phase in (CouncilPhase.PREMORTEM, CouncilPhase.POSITION):
            if not self.step_complete(Step(phase)):
                return Step(phase)
        if self.stop() is None:
            return Step(CouncilPhase.CROSS_EXAM, self.completed_rounds + 1)
        if (challenge := self._challenge_step()) is not None:
            return challenge
        if self.state.turn(Phase.SYNTHESIS) is None:
            return Step(Phase.SYNTHESIS)
        if self.state.turn(Phase.VERIFY) is None:
            return Step(Phase.VERIFY)
        return None

    def _challenge_step(self) -> Step | None:
        """The challenge's next step once debating has stopped (docs/protocols.md 1.7a):
        the devil's advocate, then the panel's answers; None when it is done or not due."""
        if not self.challenge_due:
            return None
        if self.state.turn(CouncilPhase.CHALLENGE) is None:
            return Step(CouncilPhase.CHALLENGE)
        if self.challenge_ran and not self.step_complete(Step(CouncilPhase.CHALLENGE_ANSWER)):
            return Step(CouncilPhase.CHALLENGE_ANSWER)
        return None

    def request_more_round(self) -> None:
        """"One more round" after a stop: the next round runs whatever the rule says,
        and the old synthesis (its check and its grade) no longer describes the debate,
        nor does an old challenge: a new one attacks the view the new round leads with."""
        self.state.forced_rounds = self.completed_rounds + 1
        self.state.stop_requested = False
        for phase in (Phase.SYNTHESIS, Phase.VERIFY, Phase.JUDGE, CouncilPhase.CHALLENGE):
            self.state.turns.pop((phase.value, 0, -1), None)
        for i in range(len(self.personas)):
            self.state.turns.pop((CouncilPhase.CHALLENGE_ANSWER.value, 0, i), None)
        self.state.changed()
