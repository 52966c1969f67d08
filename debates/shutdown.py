"""A worker process's stop flag: SIGTERM or SIGINT asks a running step to give up.

django-q2 waits for a worker's current task before it stops, and a debate step may
wait minutes on model calls. So each worker process handles the signals itself: an
idle worker exits at once; a busy one sets the flag, the step (``lease.run_holding``)
cancels its calls within a fraction of a second, hands its lease on and re-queues
itself, and the worker exits on the next signal its host sends.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_stopping = threading.Event()
_busy = threading.Event()


def requested() -> bool:
    return _stopping.is_set()


def _on_signal(signum: int, frame: object) -> None:
    _stopping.set()
    if not _busy.is_set():
        raise SystemExit(0)


def install() -> None:
    """Called in each worker process as it starts (django-q2's ``post_spawn``).

    django-q2's synchronous mode (``COUNCIL_Q_SYNC``: tests, the MCP server's inline
    runs) calls the worker in the caller's own thread; that process keeps its own
    signal handling, and Python allows handlers only in the main thread anyway."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)


@contextmanager
def busy() -> Iterator[None]:
    """Marks a task in progress: a signal now stops the step instead of the process."""
    _busy.set()
    try:
        yield
    finally:
        _busy.clear()
