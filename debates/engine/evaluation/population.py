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
    kind: Literal["martingale", "corrective"] = "martingale"
    strength: float = 0.0  # corrective only: the chance of adopting the right answer
    keep: float = 0.5  # the chance of keeping one's answer rather than a peer's

    def __post_init__(self) -> None:
        if not (0 <= self.strength <= 1 and 0 <= self.keep <= 1):
            raise ValueError("strength and keep are probabilities (0..1)")
        if self.kind == "martingale" and self.strength:
            raise ValueError("a martingale update has no corrective strength")


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


def cross_examine(answers: Sequence[str], question: Question, update: BeliefUpdate,
                  rng: random.Random, rounds: int = 1) -> tuple[str, ...]:
    current = tuple(answers)
    for _ in range(rounds):
        current = tuple(_updated(i, current, question.answer, update, rng)
                        for i in range(len(current)))
    return current


@dataclass(frozen=True)
class SimulatedPopulation:
    accuracy: float
    agents: int
    update: BeliefUpdate = BeliefUpdate()
    rounds: int = 1
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.accuracy <= 1:
            raise ValueError(f"accuracy {self.accuracy} is not a probability")
        if self.agents < 1 or self.rounds < 0:
            raise ValueError("at least one agent, and no negative number of rounds")

    def debate(self, question: Question) -> SimulatedDebate:
        rng = random.Random(f"{self.seed}:{question.id}")
        first = tuple(independent_answer(question, self.accuracy, rng)
                      for _ in range(self.agents))
        return SimulatedDebate(first, cross_examine(first, question, self.update, rng,
                                                    self.rounds))


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
