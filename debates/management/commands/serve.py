"""``manage.py serve``: daphne and the worker cluster together, as ``make run`` wants.

Ctrl-C (or SIGTERM), to this process or its whole group, stops both within 10 s; if
either dies, the other is stopped too, so a half-running app never pretends to work.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run the web app (daphne) and the django-q2 worker cluster; Ctrl-C stops both."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, **opts):
        bindir = sys.executable.rsplit("/", 1)[0]
        processes = {
            "web": subprocess.Popen([f"{bindir}/daphne", "-b", opts["host"], "-p",
                                     str(opts["port"]), "council_site.asgi:application"]),
            "worker": subprocess.Popen([sys.executable, "manage.py", "qcluster"]),
        }
        self.stderr.write(f"Council on http://{opts['host']}:{opts['port']}/ "
                          f"(web pid {processes['web'].pid}, worker pid "
                          f"{processes['worker'].pid}); Ctrl-C stops both.")
        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        # Explicit handlers: a shell that starts us in the background ignores SIGINT,
        # and an ignored SIGINT would never become KeyboardInterrupt.
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        try:
            while not stopping:
                dead = [name for name, p in processes.items() if p.poll() is not None]
                if dead:
                    self.stderr.write(f"{', '.join(dead)} exited; stopping the rest.")
                    break
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        for p in processes.values():
            if p.poll() is None:
                # SIGTERM, not SIGINT: children inherit an ignored SIGINT from a
                # background shell; both daphne and qcluster shut down cleanly on it.
                p.terminate()
        # qcluster stops by itself within 8 s (debates.workerhost); the kill is the
        # backstop that keeps the whole stop under the 10 s systemd and the docs allow.
        deadline = time.monotonic() + 9
        for p in processes.values():
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
