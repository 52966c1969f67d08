"""The retry policy of one model's attempts, on tenacity: transient errors are retried
with exponential backoff and full jitter, at most ``max_retries`` times and only while
the turn's time budget leaves room for another attempt after the wait. An attempt that
switches output mode or asks for the repair is tried again at once and spends no retry.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import NoReturn, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type

from debates.engine.llm.errors import CallFailed

log = logging.getLogger(__name__)

R = TypeVar("R")


@dataclass
class TurnBudget:
    """The wall time one turn may spend waiting on models and backoffs, over all its
    attempts and repairs (the gateway's own bookkeeping is not counted)."""

    total_s: float
    spent_s: float = 0.0

    def remaining(self) -> float:
        return self.total_s - self.spent_s


class AnotherAttempt(Exception):
    """The attempt failed in a way another one may not: ``backoff`` when the error was
    transient (wait, and spend a retry), else at once (a new output mode, the repair).
    ``failure`` is what the call fails with when no retry is left."""

    def __init__(self, failure: CallFailed, *, backoff: bool) -> None:
        super().__init__(str(failure))
        self.failure = failure
        self.backoff = backoff


def _again(state: RetryCallState) -> AnotherAttempt:
    assert state.outcome is not None
    again = state.outcome.exception()
    assert isinstance(again, AnotherAttempt)
    return again


@dataclass
class RetryPolicy:
    """Backoff ``i`` (from 0) waits a uniform time in [0, min(max, base * 2**i)]."""

    max_retries: int
    backoff_base_s: float
    backoff_max_s: float
    jitter: random.Random
    budget: TurnBudget
    min_attempt_s: float
    model: str
    retries: int = 0
    # Whether the coming wait is a backoff: an attempt again at once does not even yield.
    backing_off: bool = False

    async def run(self, attempt: Callable[[], Awaitable[R]]) -> R:
        retrying = AsyncRetrying(
            retry=retry_if_exception_type(AnotherAttempt),
            wait=self._wait,
            stop=self._stop,
            before_sleep=self._before_sleep,
            sleep=self._sleep,
            retry_error_callback=self._give_up,
        )
        return await retrying(attempt)

    def _retries_left(self) -> bool:
        return self.retries < self.max_retries

    def _wait(self, state: RetryCallState) -> float:
        if not (_again(state).backoff and self._retries_left()):
            return 0.0
        ceiling = min(self.backoff_max_s, self.backoff_base_s * 2**self.retries)
        return self.jitter.uniform(0, ceiling)

    def _stop(self, state: RetryCallState) -> bool:
        if not _again(state).backoff:
            return False
        # The wait is drawn first: a retry that would get too little time is not started.
        after_wait = self.budget.remaining() - state.upcoming_sleep
        return not self._retries_left() or after_wait < self.min_attempt_s

    def _before_sleep(self, state: RetryCallState) -> None:
        again = _again(state)
        self.backing_off = again.backoff
        if again.backoff:
            self.retries += 1
            log.info("%s: %s, retry %d in %.2fs", self.model, again.failure.error_class,
                     self.retries, state.upcoming_sleep)
        self.budget.spent_s += state.upcoming_sleep

    async def _sleep(self, delay: float) -> None:
        if self.backing_off:
            await asyncio.sleep(delay)

    def _give_up(self, state: RetryCallState) -> NoReturn:
        again = _again(state)
        failure = again.failure
        if self._retries_left():
            failure = CallFailed(
                error_class=failure.error_class,
                message=f"{failure.message} (no retry: the turn's "
                f"{self.budget.total_s:g} s are spent)",
                attempts=failure.attempts,
                model=failure.model,
            )
        raise failure from again.__cause__
