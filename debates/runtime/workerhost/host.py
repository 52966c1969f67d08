"""What the qcluster main process adds to django-q2: a sweeper loop and a stop that
finishes within a deadline however long the running steps would take."""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import threading
import time
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connection

log = logging.getLogger(__name__)

# Whole stop (signal → every process gone) must fit systemd's and the docs' 10 s.
STOP_DEADLINE_S = 8.0
_PR_SET_CHILD_SUBREAPER = 36


def sweep_seconds() -> float:
    return float(getattr(settings, "COUNCIL_SWEEP_SECONDS", 5))


def queue_grace_seconds() -> int:
    return int(getattr(settings, "COUNCIL_QUEUE_GRACE_SECONDS", 60))


class Sweeper(threading.Thread):
    """Runs ``resume_stalled`` every few seconds. django-q2 schedules have a minute's
    granularity (and its scheduler runs every 30 s), far too coarse for noticing a
    dead worker within one short lease."""

    def __init__(self, interval: float) -> None:
        super().__init__(name="council-sweeper", daemon=True)
        self.interval = interval
        self._stop_event = threading.Event()

    def run(self) -> None:
        from debates.runtime.execution import resume_stalled

        try:
            while not self._stop_event.wait(self.interval):
                close_old_connections()
                try:
                    count = resume_stalled(queued_grace_s=queue_grace_seconds())
                except Exception:  # a database hiccup must not end the sweeping
                    log.exception("sweeper: resume_stalled failed")
                    continue
                if count:
                    log.warning("sweeper: re-queued %d stalled debate(s)", count)
        finally:
            connection.close()

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=2)


def become_subreaper() -> None:
    """Orphans of this process tree (workers whose sentinel died on a SIGTERM to the
    group) are re-parented to us, not to init, so the stop can still find them."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the group signal reaches them anyway
        pass


def _process_table() -> dict[int, tuple[int, str]]:
    """pid → (parent pid, state) for every process, read from /proc."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        fields = stat[stat.rindex(")") + 2:].split()
        table[int(entry.name)] = (int(fields[1]), fields[0])
    return table


def live_descendants(root: int) -> list[int]:
    table = _process_table()
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, _) in table.items():
            if ppid == parent:
                frontier.append(pid)
                if table[pid][1] != "Z":
                    found.append(pid)
    return found


def _reap(exclude: int | None) -> None:
    """Collects exited children other than the sentinel (multiprocessing joins that)."""
    for pid, (ppid, state) in _process_table().items():
        if ppid == os.getpid() and state == "Z" and pid != exclude:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def _signal(pids: list[int], signum: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass


def stop_cluster(cluster, deadline: float) -> bool:  # noqa: ANN001 - django_q Cluster
    """Stops the cluster by ``deadline`` (a ``time.monotonic()`` value); True if every
    process ended on its own, False if some had to be killed.

    The sentinel is told to stop (no new tasks), and every worker gets SIGINT, which
    only workers act on (the sentinel, pusher and monitor ignore it): an idle worker
    exits, a busy one abandons its step and hands its lease on. The signal is repeated
    so a worker that just finished a task exits too.
    """
    sentinel = cluster.sentinel
    if sentinel is not None and sentinel.is_alive() and cluster.stop_event is not None:
        # From a thread: Event.set() waits for every waiter to wake, and hangs for good
        # when the waiter (the sentinel) was just killed by a SIGTERM to the group.
        threading.Thread(target=cluster.stop_event.set, daemon=True).start()
    me = os.getpid()
    sentinel_pid = sentinel.pid if sentinel is not None else None
    while time.monotonic() < deadline:
        left = live_descendants(me)
        if not left:
            break
        _signal([p for p in left if p != sentinel_pid], signal.SIGINT)
        _reap(sentinel_pid)
        time.sleep(0.3)
    left = live_descendants(me)
    if left:
        log.error("stop: killing %s after the deadline", left)
        _signal(left, signal.SIGKILL)
        time.sleep(0.2)
    _reap(sentinel_pid)
    if sentinel is not None:
        sentinel.join(timeout=1)
    return not left
