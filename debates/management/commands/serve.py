"""``manage.py serve``: daphne and the worker cluster together, as ``make run`` wants.

Daphne serves from one process, and a page render holds the GIL: on a machine with
several cores one process leaves them idle while requests queue. ``serve`` therefore
opens the listening sockets itself and starts ``--web-processes`` daphne processes on
them (default: one per core, at most 4), each with a socket of its own on the same port
(``SO_REUSEPORT``), so the kernel spreads new connections evenly over them. Live pages
follow the durable event log, so any process can serve any socket.

Ctrl-C (or SIGTERM), to this process or its whole group, stops both within 10 s; if
either dies, the other is stopped too, so a half-running app never pretends to work.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

from django.core.management.base import BaseCommand, CommandError


def default_web_processes() -> int:
    configured = os.environ.get("COUNCIL_WEB_PROCESSES", "").strip()
    if not configured:
        return max(1, min(4, len(os.sched_getaffinity(0))))
    if not configured.isdigit() or int(configured) < 1:
        raise CommandError(f"COUNCIL_WEB_PROCESSES={configured!r}: expected a whole number "
                           "of at least 1")
    return int(configured)


def _bound(host: str, port: int, reuse_port: bool) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except BaseException:
        sock.close()
        raise
    return sock


def bound_sockets(host: str, port: int, count: int) -> list[socket.socket]:
    """One socket per web process, all bound to ``host:port`` and not yet listening:
    each process listens once it has loaded the application and the model stack
    (site_edge.serve_http), so a connection never waits in the queue of a process
    still starting (docs/performance.md, "Cold starts"). On one shared socket the first
    process to wake takes a whole burst of connections (Twisted accepts in a loop), and
    20 keep-alive clients could all land on one process while the other idled: the
    page bench swung between 105 and 258 req/s on that alone. Where the system has no
    ``SO_REUSEPORT``, the processes share one socket."""
    if count == 1 or not hasattr(socket, "SO_REUSEPORT"):
        return [_bound(host, port, reuse_port=False)]
    first = _bound(host, port, reuse_port=True)
    port = first.getsockname()[1]  # port 0 picked one: the others take the same
    return [first] + [_bound(host, port, reuse_port=True) for _ in range(count - 1)]


def listening_sockets(host: str, port: int, count: int) -> list[socket.socket]:
    """``bound_sockets``, listening at once."""
    sockets = bound_sockets(host, port, count)
    for sock in sockets:
        sock.listen(512)
    return sockets


def children_env(host: str, port: int, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of the web and worker processes: mail links (notifications,
    reminders, password resets) must point at the address this command serves, so
    COUNCIL_SITE_URL defaults to it rather than to the settings' :8000."""
    env = dict(os.environ if environ is None else environ)
    if not env.get("COUNCIL_SITE_URL", "").strip():
        shown = "localhost" if host in ("0.0.0.0", "::", "") else host
        shown = f"[{shown}]" if ":" in shown else shown
        env["COUNCIL_SITE_URL"] = f"http://{shown}:{port}"
    return env


WEBSOCKET_CONNECT_SECONDS = 30


def start_processes(host: str, port: int, count: int) -> dict[str, subprocess.Popen]:
    """``count`` daphne processes on their listening sockets, and the worker cluster."""
    listeners = bound_sockets(host, port, count)
    env = children_env(host, listeners[0].getsockname()[1])
    processes = {}
    for i in range(count):
        fd = listeners[i % len(listeners)].fileno()
        processes[f"web{i + 1}"] = subprocess.Popen(
            # ``-m``: the same interpreter and sys.path as this command (a console
            # script would import the project from wherever it was installed);
            # site_edge.serve_http is daphne answering oversized requests (414/431).
            # --websocket_connect_timeout: daphne drops a socket not accepted within 5 s
            # by default; under load (20 debates, 50 viewers on 2 cores) handshakes took
            # 3-5 s and were reset (docs/performance.md, "Sockets under load").
            [sys.executable, "-m", "site_edge.serve_http", "--fd", str(fd),
             "--websocket_connect_timeout", str(WEBSOCKET_CONNECT_SECONDS),
             "council_site.asgi:application"],
            pass_fds=(fd,), env=env)
    # The children hold the sockets now; ours would only keep the port open after
    # they are gone.
    for listener in listeners:
        listener.close()
    processes["worker"] = subprocess.Popen([sys.executable, "manage.py", "qcluster"],
                                           env=env)
    return processes


def stop_processes(processes: dict[str, subprocess.Popen]) -> None:
    for p in processes.values():
        if p.poll() is None:
            # SIGTERM, not SIGINT: children inherit an ignored SIGINT from a
            # background shell; both daphne and qcluster shut down cleanly on it.
            p.terminate()
    # qcluster stops by itself within 8 s (debates.runtime.workerhost); the kill is the
    # backstop that keeps the whole stop under the 10 s systemd and the docs allow.
    deadline = time.monotonic() + 9
    for p in processes.values():
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()


class Command(BaseCommand):
    help = "Run the web app (daphne) and the django-q2 worker cluster; Ctrl-C stops both."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--web-processes", type=int,
                            help="daphne processes sharing the port (default: one per "
                                 "core, at most 4; COUNCIL_WEB_PROCESSES)")

    def handle(self, *args, **opts):
        count = max(1, opts["web_processes"] or default_web_processes())
        processes = start_processes(opts["host"], opts["port"], count)
        web = ", ".join(str(p.pid) for name, p in processes.items() if name != "worker")
        self.stderr.write(f"Council on http://{opts['host']}:{opts['port']}/ "
                          f"(web pids {web}, worker pid {processes['worker'].pid}); "
                          "Ctrl-C stops both.")
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
        stop_processes(processes)
