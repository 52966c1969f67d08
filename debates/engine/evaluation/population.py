"""A simulated panel of known accuracy, so the harness can be checked against exact values.

- Each agent's first answer is right with probability ``accuracy``, independently; a
  wrong one is a uniformly random wrong option, or for a free number the right one
  moved by a nonzero offset of -10..10 (a wrong number of its own).
- The vote is the plurality of the answers; a tie goes to the tied answer given first,
  in the agents' order (deterministic, and blind to which answer is right: the agents
  are exchangeable, so the first of the tied is right as often as any).
- Cross-examination updates beliefs in rounds, every agent at once from the previous
  round's answers:
  - ``martingale``: an agent keeps its answer with probability ``keep``, else adopts a
    uniformly random peer's; the expected share of right answers does not move.
  - ``corrective``: with probability ``strength`` an agent adopts the right answer,
    else it behaves as under ``martingale``; one round moves the expected share from
    s to strength + (1 - strength)·s.
  - ``herding``: the agents answer in turn, each seeing the running tally of the
    answers given before it in the round: with probability ``strength`` it adopts
    their plurality (ties: the first given), else keeps its own; the first keeps its
    own. Early answers cascade, so the panel's answers lose their independence
    (docs/engine.md, "Herding and correctors").
  - ``correctors`` (any update): the last agents are independent correctors: they never
    look at a peer; each adopts the right answer with probability ``correction``, else
    keeps its own.
- Agents may differ in accuracy (``accuracies``, one a seat): a mixed panel.
- Seats may name their model (``models``, one a seat): a herding agent's chance of
  following the tally is weighed by whose answers it saw, a peer on its own model at
  1 and one on another at ``cross_herding`` (a mixed panel's peers are anonymised and
  answer from other families: docs/engine.md, "The mixed arms").
- Each question draws from its own seeded generator (seed and question id), so a
  question's simulated debate does not depend on which questions came before it.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from .sets import Question

MAX_WRONG_OFFSET = 10


@dataclass(frozen=True)
class BeliefUpdate:
    kind: Literal["martingale", "corrective", "herding"] = "martingale"
    # corrective: the chance of adopting the right answer; herding: of adopting the
    # plurality of the answers given before one's own in the round
    strength: float = 0.0
    keep: float = 0.5  # the chance of keeping one's answer rather than a peer's
    correctors: int = 0  # the last agents, who never look at a peer
    correction: float = 0.0  # a corrector's chance of adopting the right answer

    def __post_init__(self) -> None:
        if not all(0 <= x <= 1 for x in (self.strength, self.keep, self.correction)):
            raise ValueError("strength, keep and correction are probabilities (0..1)")
        if self.kind == "martingale" and self.strength:
            raise ValueError("a martingale update has no corrective strength")
        if self.correctors < 0:
            raise ValueError("the number of correctors must not be negative")


@dataclass(frozen=True)
class SimulatedDebate:
    first: tuple[str, ...]  # round 0: the independent positions
    final: tuple[str, ...]  # after cross-examination


def wrong_answer(question: Question, rng: random.Random) -> str:
    if question.options is not None:
        return rng.choice([o for o in question.options if o != question.answer])
    offset = rng.choice([k for k in range(-MAX_WRONG_OFFSET, MAX_WRONG_OFFSET + 1) if k])
    return str(Decimal(question.answer) + offset)


def independent_answer(question: Question, accuracy: float, rng: random.Random) -> str:
    return question.answer if rng.random() < accuracy else wrong_answer(question, rng)


def plurality(answers: Sequence[str | None]) -> str | None:
    """The most frequent answer; among tied ones, the one given first. None without any."""
    given = [a for a in answers if a is not None]
    if not given:
        return None
    counts = Counter(given)
    top = max(counts.values())
    return next(a for a in given if counts[a] == top)


def _updated(index: int, answers: Sequence[str], right: str, update: BeliefUpdate,
             rng: random.Random) -> str:
    if update.kind == "corrective" and rng.random() < update.strength:
        return right
    if len(answers) == 1 or rng.random() < update.keep:
        return answers[index]
    peer = rng.choice([j for j in range(len(answers)) if j != index])
    return answers[peer]


def herding_weight(index: int, models: Sequence[str], cross_herding: float) -> float:
    """How much of the herding strength agent ``index`` feels: the mean weight of the
    answers given before its own, 1 for a peer on its own model, ``cross_herding`` for
    one on another (no models named: every peer weighs 1)."""
    if not models or index == 0:
        return 1.0
    return sum(1.0 if models[j] == models[index] else cross_herding
               for j in range(index)) / index


def _round(current: Sequence[str], right: str, update: BeliefUpdate,
           rng: random.Random, models: Sequence[str] = (),
           cross_herding: float = 1.0) -> tuple[str, ...]:
    """One round, the agents in turn (a herding agent sees the answers given so far)."""
    given: list[str] = []
    first_corrector = len(current) - update.correctors
    for i, own in enumerate(current):
        if i >= first_corrector:
            given.append(right if rng.random() < update.correction else own)
        elif update.kind == "herding":
            chance = update.strength * herding_weight(i, models, cross_herding)
            given.append(plurality(given) or own
                         if given and rng.random() < chance else own)
        else:
            given.append(_updated(i, current, right, update, rng))
    return tuple(given)


def cross_examine(answers: Sequence[str], question: Question, update: BeliefUpdate,
                  rng: random.Random, rounds: int = 1, models: Sequence[str] = (),
                  cross_herding: float = 1.0) -> tuple[str, ...]:
    current = tuple(answers)
    for _ in range(rounds):
        current = _round(current, question.answer, update, rng, models, cross_herding)
    return current


@dataclass(frozen=True)
class SimulatedPopulation:
    accuracy: float
    agents: int
    update: BeliefUpdate = BeliefUpdate()
    rounds: int = 1
    seed: int = 0
    # One a seat when the agents differ (a mixed panel); empty: ``accuracy`` for all.
    accuracies: tuple[float, ...] = ()
    # One a seat when the seats name their models; empty: every seat on one model.
    models: tuple[str, ...] = ()
    # A herding agent's weight for a peer on another model (its own model's weigh 1).
    cross_herding: float = 1.0

    def __post_init__(self) -> None:
        if not all(0 <= p <= 1 for p in (self.accuracy, *self.accuracies,
                                          self.cross_herding)):
            raise ValueError("an accuracy or the cross-model herding is not a "
                             "probability (0..1)")
        if self.models and len(self.models) != self.agents:
            raise ValueError(f"{len(self.models)} models for {self.agents} agents")
        if self.agents < 1 or self.rounds < 0:
            raise ValueError("at least one agent, and no negative number of rounds")
        if self.accuracies and len(self.accuracies) != self.agents:
            raise ValueError(f"{len(self.accuracies)} accuracies for {self.agents} agents")
        if self.update.correctors > self.agents:
            raise ValueError(f"{self.update.correctors} correctors in a panel of "
                             f"{self.agents}")

    def accuracy_of(self, agent: int) -> float:
        return self.accuracies[agent] if self.accuracies else self.accuracy

    def debate(self, question: Question) -> SimulatedDebate:
        rng = random.Random(f"{self.seed}:{question.id}")
        first = tuple(independent_answer(question, self.accuracy_of(i), rng)
                      for i in range(self.agents))
        return SimulatedDebate(first, cross_examine(first, question, self.update, rng,
                                                    self.rounds, self.models,
                                                    self.cross_herding))


# --- the exact expectations the simulation is checked against ---------------------


def expected_single(accuracy: float) -> float:
    return accuracy


def expected_vote_yes_no(accuracy: float, agents: int) -> float:
    """P(the plurality of ``agents`` independent yes/no answers is right) =
    Σ_{k > n/2} C(n,k) p^k (1-p)^(n-k), plus, for even n, half the chance of a tie (the
    first agent's answer wins it, and it is right half the time given a tie)."""
    p, n = accuracy, agents

    def exactly(k: int) -> float:
        return math.comb(n, k) * p**k * (1 - p) ** (n - k)

    majority = sum(exactly(k) for k in range(n // 2 + 1, n + 1))
    return majority + (exactly(n // 2) / 2 if n % 2 == 0 else 0.0)


def expected_share_after(accuracy: float, update: BeliefUpdate, rounds: int = 1) -> float:
    """The expected share of right answers after ``rounds`` of cross-examination."""
    share = accuracy
    for _ in range(rounds):
        if update.kind == "corrective":
            share = update.strength + (1 - update.strength) * share
    return share
