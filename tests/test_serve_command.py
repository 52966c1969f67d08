"""``manage.py serve`` (what ``make run`` starts): web and workers together, and a
signal stops both."""

import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.debates.workers import group_members
from tests.waiting import PATIENCE_S, wait_until

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _health(port: int) -> bytes | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz",
                                    timeout=10) as response:
            return response.read()
    except OSError:
        return None


@pytest.mark.django_db(transaction=True)
# Each pairing starts a whole server, so two cover both signals and both targets: a
# supervisor's TERM to the group, and Ctrl-C-like INT to the main process alone. The
# Ctrl-C case first sees serve start both halves, the web answering and a worker
# cluster running (once a test of its own, with a server start and a migration of its
# own: docs/performance.md, "The test suite's time").
@pytest.mark.parametrize(("signum", "target"),
                         [(signal.SIGTERM, "group"), (signal.SIGINT, "main")],
                         ids=["TERM-group", "INT-main"])
def test_serve_starts_web_and_worker_and_a_signal_stops_both_and_hands_the_lease_on(
        signum, target):
    from accounts.models import Team
    from debates.engine.schemas import DebateConfig, SimulatorOptions
    from debates.models import Debate
    from debates.services import debate_create
    from tests.debates.workers import wait_for, worker_env

    port = free_port()
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)],
                            cwd=ROOT, env=worker_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        if target == "main":  # as `make run` is stopped: both halves are up first
            body = wait_until(lambda: _health(port), what="the site to answer",
                              interval=0.2)
            assert body.strip() == b"ok"
            children = subprocess.run(["pgrep", "-g", str(proc.pid), "-f", "qcluster"],
                                      capture_output=True, text=True).stdout.split()
            assert children, "the worker cluster is not running"
        # Ten minutes per model call: the step is in flight whenever the signal comes,
        # and a stop that waited for it would run far past the wait below.
        config = DebateConfig(mode="quick", seed=2,
                              simulator=SimulatorOptions(latency_ms=600_000, seed=2))
        debate = debate_create(team=Team.objects.create(name="serve-stop"), user=None,
                               question="Stop cleanly?", config=config)
        wait_for(lambda: Debate.objects.filter(pk=debate.pk).exclude(lease_owner="").exists(),
                 what="serve's worker to claim the debate")
        (os.killpg if target == "group" else os.kill)(proc.pid, signum)

        def all_gone() -> bool:
            proc.poll()
            return not group_members(proc.pid)

        wait_for(all_gone, what="web and worker processes to exit")
        assert proc.wait(timeout=PATIENCE_S) is not None
    finally:
        if proc.poll() is None or group_members(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
    debate.refresh_from_db()
    assert debate.lease_owner == "", "the abandoned step still holds its lease"
    assert debate.events.filter(kind="abandoned").exists()


def test_each_web_process_gets_its_own_socket_and_connections_are_spread_over_them():
    from debates.management.commands.serve import listening_sockets

    listeners = listening_sockets("127.0.0.1", 0, 2)
    clients = []
    try:
        port = listeners[0].getsockname()[1]
        assert [s.getsockname()[1] for s in listeners] == [port, port]
        clients = [socket.create_connection(("127.0.0.1", port), timeout=5)
                   for _ in range(40)]
        accepted = []
        for listener in listeners:
            listener.setblocking(False)
            count = 0
            while True:
                try:
                    conn, _ = listener.accept()
                except BlockingIOError:
                    break
                conn.close()
                count += 1
            accepted.append(count)
        # A burst on one shared socket goes to whichever process wakes first; here the
        # kernel spreads it (40 on one side would be a 1 in 2^39 chance).
        assert sum(accepted) == 40 and min(accepted) > 0, accepted
    finally:
        for s in clients + listeners:
            s.close()


def test_a_web_process_takes_connections_only_once_its_application_is_loaded():
    """serve binds the sockets; each web process listens on its own after importing the
    application (and with it the model stack), so no connection waits on one still
    starting (docs/performance.md, "Cold starts")."""
    from debates.management.commands.serve import bound_sockets
    from site_edge.serve_http import listen_when_loaded

    [bound] = bound_sockets("127.0.0.1", 0, 1)
    try:
        port = bound.getsockname()[1]
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
        listen_when_loaded(["--fd", str(bound.fileno()), "json.decoder:JSONDecoder"])
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    finally:
        bound.close()


@pytest.mark.parametrize("host, expected", [
    ("127.0.0.1", "http://127.0.0.1:9123"), ("0.0.0.0", "http://localhost:9123"),
    ("::1", "http://[::1]:9123")])
def test_mail_links_follow_the_port_serve_listens_on(host, expected):
    """The workers mail the links (reminders, notifications): without COUNCIL_SITE_URL
    they point at the address serve listens on, not at :8000; a configured one wins."""
    from debates.management.commands.serve import children_env

    assert children_env(host, 9123, {})["COUNCIL_SITE_URL"] == expected
    configured = {"COUNCIL_SITE_URL": "https://council.example.org"}
    assert children_env(host, 9123, configured)["COUNCIL_SITE_URL"] == \
        "https://council.example.org"
