"""The worker loop's database thread serves calls, hands errors back, and keeps serving
after ``concurrent.futures`` has shut its own executors down (interpreter exit)."""

import subprocess
import sys
import textwrap

import pytest

from debates.db_thread import DatabaseThread


def test_results_and_errors_come_back_to_the_caller():
    thread = DatabaseThread("test-db")
    try:
        assert thread.submit(lambda a, b=0: a + b, 2, b=3).result(timeout=5) == 5
        with pytest.raises(ZeroDivisionError):
            thread.submit(lambda: 1 / 0).result(timeout=5)
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
        from debates.db_thread import DatabaseThread
        ours, pool = DatabaseThread("db"), ThreadPoolExecutor(1)
        pool.submit(int).result()
        def late_step():
            time.sleep(0.3)  # the main thread has returned by now
            try:
                pool.submit(int).result()
                print("pool: served")
            except RuntimeError:
                print("pool: refused")
            print("ours:", ours.submit(lambda: "served").result(timeout=5))
        threading.Thread(target=late_step).start()
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60).stdout
    assert "pool: refused" in out  # the failure the database thread exists to avoid
    assert "ours: served" in out
