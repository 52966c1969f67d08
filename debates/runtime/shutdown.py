"""A worker process's stop flag: SIGTERM or SIGINT asks a running step to give up.

django-q2 waits for a worker's current task before it stops, and a debate step may
wait minutes on model calls. So each worker process handles the signals itself: an
idle worker exits at once; a busy one sets the flag, the step (``lease.run_holding``)
cancels its calls within a fraction of a second, hands its lease on and re-queues
itself, and the worker exits on the next signal its host sends. A worker is busy while
a task runs and while any debate is in flight on its event loop
(``debates.runtime.worker_loop``), so the count is shared by threads.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_stopping = threading.Event()
_busy_lock = threading.Lock()
_busy_count = 0


def requested() -> bool:
    return _stopping.is_set()


def _on_signal(signum: int, frame: object) -> None:
    _stopping.set()
    # Read without the lock: the handler runs in the main thread, which may hold it.
    if _busy_count == 0:
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


def begin_busy() -> None:
    """One more piece of work in progress: a signal now stops it instead of the process."""
    global _busy_count
    with _busy_lock:
        _busy_count += 1


def end_busy() -> None:
    global _busy_count
    with _busy_lock:
        _busy_count -= 1


@contextmanager
def busy() -> Iterator[None]:
    """Marks a task in progress: a signal now stops the step instead of the process."""
    begin_busy()
    try:
        yield
    finally:
        end_busy()
