"""One worker process drives many debates at once: an asyncio event loop in a thread.

A debate step spends nearly all its time waiting on model calls, so a worker process
that ran one step at a time sat idle. Here django-q2's task (``tasks.run_step``) only
hands the debate to this process's loop and returns; the loop runs up to
``COUNCIL_DEBATES_PER_WORKER`` debates side by side, each step by step through
``execution.advance`` (claim, load, run under a heartbeat, persist), so every step is
still one idempotent, lease-held unit.

- **Steps in a row.** A debate stays on the loop that started it: after a step the
  lease is kept (renewed) and the next step is claimed at once, without a round trip
  through the queue. A crash between steps is noticed like one mid-step: the lease
  runs out and the sweeper hands the debate on.
- **Database.** Engine code runs on the loop; every ORM call goes through
  ``sync_to_async``, which runs it on the debate's database thread
  (``ThreadSensitiveContext``): one thread, so one connection, per worker process on
  SQLite (its single writer is never fought over inside the process), four on
  PostgreSQL, however many debates are in flight. Connections are kept from step to
  step (a reconnect per step would queue the process's debates behind it), checked
  before each step and replaced when broken; a step whose connection breaks under it
  (a database restart) is claimed and run again once the database answers
  (``debates.runtime.reconnect``).
- **Full.** A task that finds every slot taken waits (the django-q2 worker takes no
  other task meanwhile, so the other worker processes do) and, after
  ``SLOT_WAIT_S``, puts the step back on the queue for any worker.
- **Stop.** A debate in flight keeps its process busy (``debates.runtime.shutdown``): a
  SIGINT makes every step in flight give its lease back and re-queue itself within a
  heartbeat poll, and the worker exits on the next signal. When django-q2 ends the
  worker for another reason (it recycles workers after 500 tasks) the steps in flight
  finish and hand their debates on, and the process exits after them. Either way the
  database threads (``debates.runtime.db_thread``) keep serving while the interpreter waits
  for the loop thread, so a step's last writes and its hand-off are never refused.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
import time
import uuid
from concurrent.futures import Future

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.db import DatabaseError, connections

from debates import event_log
from debates.runtime import execution, shutdown
from debates.runtime.db_thread import DatabaseThread
from debates.runtime.lease import worker_id
from debates.runtime.reconnect import connection_lost, replace_broken_connections

log = logging.getLogger(__name__)

# How long a task waits for a free slot before it puts the step back on the queue.
SLOT_WAIT_S = 30.0
_POLL_S = 0.2
# After a lost database connection a step is tried again every pause for this long
# (a restart takes seconds); a database down for longer is the sweeper's to resume.
RECONNECT_WINDOW_S = 60.0
RECONNECT_PAUSE_S = 1.0


def capacity() -> int:
    return int(getattr(settings, "COUNCIL_DEBATES_PER_WORKER", 20))


def database_threads() -> int:
    """SQLite has one writer: one thread. A server database answers several queries at
    once, and one thread would queue every debate of the process behind each round trip."""
    engine = settings.DATABASES["default"]["ENGINE"]
    return 1 if engine.endswith("sqlite3") else DATABASE_THREADS_SERVER


# Connections one worker process opens for its debates on PostgreSQL.
DATABASE_THREADS_SERVER = 4


class DebateLoop:
    """This process's event loop and the debates in flight on it."""

    def __init__(self, slots: int, *, warm_up: bool = False) -> None:
        self.slots = slots
        self._warm_up = warm_up
        self._free = threading.BoundedSemaphore(slots)
        self._lock = threading.Lock()
        self._in_flight: dict[uuid.UUID, Future[None]] = {}
        self._driver_ids = itertools.count(1)
        # Each debate's ORM calls run on one of these threads (one connection each).
        self._db_threads = [DatabaseThread(f"council-db-{n}")
                            for n in range(database_threads())]
        self.loop = asyncio.new_event_loop()
        # Not a daemon: the interpreter's shutdown waits for this thread, which ends
        # once no debate is in flight, rather than cutting a step off mid-write.
        self._thread = threading.Thread(target=self._run, name="council-debates")

    def start(self) -> None:
        event_log.ring_from(self.loop)
        self._thread.start()

    def stop(self, *, patience_s: float) -> None:
        """Stops the loop at once. Debates still in flight are dropped as in a crash:
        their leases run out and the sweeper hands them on (used by tests). Each wait
        (the loop's thread, each database thread closing its connection) is bounded by
        ``patience_s``: on a loaded machine a connection close queued behind a step's
        query can take longer than any fixed few seconds."""
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(patience_s)
        with self._lock:
            dropped = list(self._in_flight)
        for code in dropped:
            self._done(code)
        event_log.ring_from(None)
        for db_thread in self._db_threads:
            try:
                db_thread.submit(connections.close_all).result(patience_s)
            except RuntimeError:  # stopped before
                continue
            db_thread.shutdown(wait=False)

    def in_flight(self) -> list[uuid.UUID]:
        with self._lock:
            return list(self._in_flight)

    def take(self, code: uuid.UUID, *, wait_s: float | None = None) -> bool:
        """Starts driving the debate; False when it must go back to the queue (no slot
        freed within ``wait_s``, or the worker is stopping). A debate already in
        flight here is not started twice (a duplicate task just ends)."""
        with self._lock:
            if code in self._in_flight:
                return True
        limit = SLOT_WAIT_S if wait_s is None else wait_s
        waited = 0.0
        while not self._free.acquire(timeout=_POLL_S):
            waited += _POLL_S
            if shutdown.requested() or waited >= limit:
                return False
        if shutdown.requested():
            self._free.release()
            return False
        with self._lock:
            if code in self._in_flight:
                self._free.release()
                return True
            shutdown.begin_busy()
            number = next(self._driver_ids)
            driver = f"{worker_id()}:{number}"
            db_thread = self._db_threads[number % len(self._db_threads)]
            future = asyncio.run_coroutine_threadsafe(self._drive(code, driver, db_thread),
                                                      self.loop)
            self._in_flight[code] = future
        future.add_done_callback(lambda _: self._done(code))
        return True

    def _done(self, code: uuid.UUID) -> None:
        with self._lock:
            if self._in_flight.pop(code, None) is None:
                return  # already counted out by ``stop``
        self._free.release()
        shutdown.end_busy()

    async def _drive(self, code: uuid.UUID, driver: str, db_thread: DatabaseThread) -> None:
        # Every sync_to_async call of this debate (and of the tasks it starts) runs on
        # its database thread.
        async with ThreadSensitiveContext(executor=db_thread):
            await self._steps(code, driver)

    async def _steps(self, code: uuid.UUID, driver: str) -> None:
        try:
            while True:
                more = await self._advance_reconnecting(code, driver)
                if not more:
                    return
                if self._winding_down():
                    await sync_to_async(_hand_on)(code, driver)
                    return
        except Exception:
            # A database down for longer than the reconnect window, say: a lease this
            # driver holds runs out and the sweeper resumes the debate.
            log.exception("debate %s: the worker loop lost it", code)

    async def _advance_reconnecting(self, code: uuid.UUID, driver: str) -> bool:
        """One ``advance``; when the database connection breaks under it (a database
        restart ends every session), the step is claimed and run again on a fresh
        connection as soon as the database answers. Giving up at once would leave a
        claim that failed unclaimed until the sweeper's queue grace (60 s), and a
        lease this driver holds to run out first. Re-running is safe: the claim takes
        back a lease only while it is still this driver's (or free), and stored turns
        are never asked again."""
        deadline = time.monotonic() + RECONNECT_WINDOW_S
        while True:
            await sync_to_async(replace_broken_connections)()
            try:
                return await execution.advance(code, worker=driver, keep_lease=True)
            except DatabaseError as exc:
                if (not connection_lost(exc) or self._winding_down()
                        or time.monotonic() >= deadline):
                    raise
                log.warning("debate %s: database connection lost (%s: %s); retrying on a "
                            "fresh connection", code, type(exc).__name__,
                            str(exc).strip()[:200])
            await asyncio.sleep(RECONNECT_PAUSE_S)

    def _winding_down(self) -> bool:
        return shutdown.requested() or not threading.main_thread().is_alive()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.create_task(self._stop_when_orphaned())
        if self._warm_up:
            self.loop.create_task(_warm_up())
        try:
            self.loop.run_forever()
        finally:
            # Whatever is still pending (after ``stop``) is cancelled: like a crash, no
            # lease is handed back, but nothing runs on half-closed.
            pending = asyncio.all_tasks(self.loop)
            for task in pending:
                task.cancel()
            if pending:
                self.loop.run_until_complete(asyncio.wait(pending, timeout=2))
            self.loop.close()

    async def _stop_when_orphaned(self) -> None:
        """Ends the loop once the worker's main thread has ended and nothing is in
        flight, so the process can exit."""
        while threading.main_thread().is_alive() or self.in_flight():
            await asyncio.sleep(_POLL_S)
        self.loop.stop()


async def _warm_up() -> None:
    """Pays the process's first-call costs (litellm builds its models and clients
    lazily, prompts and tokenizers load on first use: about 2 s here) with a debate
    that stores nothing, on the simulator without latency, before any real debate
    waits for it."""
    from debates.engine import (
        DebateState,
        EngineHooks,
        Mode,
        SimulatorOptions,
        resolve_config,
        run_protocol,
    )

    config = resolve_config(mode=Mode.QUICK, seed=0, simulator=SimulatorOptions(seed=0))
    try:
        await run_protocol(DebateState(question="Warm-up: is the worker ready?",
                                     config=config), EngineHooks())
    except Exception:  # only an optimisation: a real step pays the cost instead
        log.warning("worker warm-up failed", exc_info=True)


def _hand_on(code: uuid.UUID, driver: str) -> None:
    """Between steps, while the worker winds down: the kept lease is handed on, the
    event log says so, and the next step is queued for any worker, as a stop during a
    step does (one path: the page and the test see the same either way)."""
    from debates.models import Debate

    execution.abandon(Debate.objects.get(code=code), driver, "the next step")


_current: DebateLoop | None = None


def start() -> DebateLoop:
    """Called once in each worker process, after the fork (django-q2's ``post_spawn``)."""
    global _current
    if _current is None:
        _current = DebateLoop(capacity(), warm_up=True)
        _current.start()
    return _current


def current() -> DebateLoop | None:
    """This process's loop; None outside a worker process (django-q2's synchronous
    mode, tests, the CLI), where a task runs its step inline as before."""
    return _current
