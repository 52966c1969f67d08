"""The worker loop's database thread serves calls, hands errors back, and keeps serving
after ``concurrent.futures`` has shut its own executors down (interpreter exit)."""

import subprocess
import sys
import textwrap

import pytest

from debates.runtime.db_thread import DatabaseThread
from tests.waiting import PATIENCE_S


def test_results_and_errors_come_back_to_the_caller():
    thread = DatabaseThread("test-db")
    try:
        assert thread.submit(lambda a, b=0: a + b, 2, b=3).result(timeout=PATIENCE_S) == 5
        with pytest.raises(ZeroDivisionError):
            thread.submit(lambda: 1 / 0).result(timeout=PATIENCE_S)
    finally:
        thread.shutdown()
    with pytest.raises(RuntimeError):
        thread.submit(print)


def test_it_still_serves_while_the_interpreter_waits_for_a_non_daemon_thread():
    # What a django-q2 worker does on a signal: its main thread returns while the
    # event loop thread still has a step to finish and a lease to hand back.
    code = textwrap.dedent("""
        import threading, time
        from concurrent.futures import ThreadPoolExecutor
        from debates.runtime.db_thread import DatabaseThread
        ours, pool = DatabaseThread("db"), ThreadPoolExecutor(1)
        pool.submit(int).result()
        def late_step():
            # Until the main thread has returned and the interpreter shuts the
            # executors down, the pool still serves (however long that takes).
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    pool.submit(int).result()
                except RuntimeError:
                    print("pool: refused")
                    break
                time.sleep(0.01)
            else:
                print("pool: served")
            print("ours:", ours.submit(lambda: "served").result(timeout=120))
        threading.Thread(target=late_step).start()
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=2 * PATIENCE_S).stdout
    assert "pool: refused" in out  # the failure the database thread exists to avoid
    assert "ours: served" in out
