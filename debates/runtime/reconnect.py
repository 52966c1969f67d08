"""Database connections that break under a running process (a database restart ends
every session, a cut link loses them): telling such an error from a refusal, and
carrying on with a fresh connection (docs/execution.md, *A database restart*)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import DatabaseError, InterfaceError, OperationalError, connections

P = ParamSpec("P")
T = TypeVar("T")

# SQLSTATE classes of a session the server ended or lost: connection exceptions (08),
# operator intervention (57P: shutdown, crash), an idle transaction timed out (25P03).
_LOST_SESSION_STATES = ("08", "57P", "25P03")


def connection_lost(exc: DatabaseError) -> bool:
    """Whether ``exc`` says the connection broke (a network cut, the server ending the
    session), rather than the database refusing what was asked on a live one (a
    constraint, bad data), which would fail the same way again. Checked on the error,
    not by asking the connection: a worker's database thread serves several debates,
    and another may have reconnected it meanwhile."""
    if isinstance(exc, OperationalError | InterfaceError):
        return True
    state = getattr(exc.__cause__, "sqlstate", None) or ""
    return state.startswith(_LOST_SESSION_STATES)


def replace_broken_connections() -> None:
    """``close_old_connections`` without the age limit (``CONN_MAX_AGE`` 0 would mean a
    new connection per unit of work): a connection that no longer answers is closed,
    so the next query opens a fresh one. Every connection is checked, not only one
    that failed (Django's ``CONN_HEALTH_CHECKS`` check, on demand): a restart ends the
    sessions sitting idle too, and the first query on one would fail. One round trip."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        if conn.is_usable():
            conn.errors_occurred = False
        else:
            conn.close()


def retried_on_a_fresh_connection(read: Callable[P, T]) -> Callable[P, T]:
    """``read`` (something safe to run twice) run once more, on a fresh connection,
    when its connection turns out to be broken; outside a transaction only, where a
    fresh connection cannot lose anything already written."""

    @functools.wraps(read)
    def once_more(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return read(*args, **kwargs)
        except DatabaseError as exc:
            if not connection_lost(exc) or any(
                    conn.in_atomic_block for conn in connections.all(initialized_only=True)):
                raise
            replace_broken_connections()
            return read(*args, **kwargs)

    return once_more
