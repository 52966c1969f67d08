"""Waiting in tests: on a condition, with a bound generous enough for a loaded machine.

CI runs the suite on a 2-core machine at a load average of 7-10, where a step that takes
0.1 s here can take ten. So a test never sleeps a fixed time hoping something happened,
and never bounds a wait by how long it *should* take: it polls for the thing itself and
gives up only after ``PATIENCE_S``, a bound that only a real hang reaches.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# How long a test waits for something that normally takes a second or less.
PATIENCE_S = 120.0


def wait_until(condition: Callable[[], T], *, what: str, timeout: float = PATIENCE_S,
               interval: float = 0.05, detail: Callable[[], str] | None = None) -> T:
    """Polls ``condition`` until it returns something truthy, and returns that; fails
    with ``what`` (and ``detail()``, e.g. a worker's log) after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            extra = detail() if detail is not None else ""
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}{extra}")
        time.sleep(interval)


async def wait_until_async(condition: Callable[[], T], *, what: str,
                           timeout: float = PATIENCE_S, interval: float = 0.05) -> T:
    """``wait_until`` for a coroutine test: sleeps without blocking the event loop."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(interval)
