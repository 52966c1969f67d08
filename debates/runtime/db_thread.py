"""One thread that runs a worker's ORM calls for the debates on its event loop.

Not a ``ThreadPoolExecutor``: once a process's main thread returns (django-q2 stops
its worker after a signal, or recycles it), ``concurrent.futures`` refuses new work and
joins its threads before the interpreter waits for the loop thread. A step that was
just abandoned could then no longer hand its lease back, and the debate waited for the
sweeper. This thread keeps serving until the process really ends; it is a daemon, so
it never holds the process up once the loop thread (which is not one) has finished.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

_STOP = object()


class DatabaseThread(Executor):
    def __init__(self, name: str) -> None:
        self._calls: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self._closed:
            raise RuntimeError("the database thread is shut down")
        future: Future[Any] = Future()
        self._calls.put((future, fn, args, kwargs))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._closed = True
        self._calls.put(_STOP)
        if wait:
            self._thread.join()

    def _serve(self) -> None:
        while (item := self._calls.get()) is not _STOP:
            future, fn, args, kwargs = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # handed to the caller, as an executor does
                future.set_exception(exc)
