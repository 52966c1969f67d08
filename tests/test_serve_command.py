"""``manage.py serve`` (what ``make run`` starts): web and workers together, and a
signal stops both."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_starts_web_and_worker_and_sigint_stops_both(tmp_path):
    port = free_port()
    env = {**os.environ, "DJANGO_DEBUG": "1",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=120)
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        body = None
        while time.monotonic() < deadline and body is None:
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            except OSError:
                time.sleep(0.5)
        assert body.strip() == b"ok"
        children = subprocess.run(["pgrep", "-g", str(proc.pid), "-f", "qcluster"],
                                  capture_output=True, text=True).stdout.split()
        assert children, "the worker cluster is not running"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        time.sleep(1)
        left = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True,
                              text=True).stdout.split()
        assert left == [], f"still running after Ctrl-C: {left}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
