"""A PostgreSQL cluster and a Redis server of their own, on free loopback ports, that a
fault test or benchmark may restart: the machine's shared servers are never touched.

The cluster is ``initdb`` into a temporary directory (as the ``postgres`` user when
run as root: PostgreSQL refuses to run as root), trust authentication on 127.0.0.1
only, fsync off (nothing here needs to survive a power cut). Imports no Django.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import redis


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's bin directory holding initdb and pg_ctl."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version)
    on_path = shutil.which("pg_ctl")
    if found:
        return Path(found[-1]).parent
    return Path(on_path).parent if on_path else None


def _version(path: str) -> int:
    try:
        return int(Path(path).parts[-3])
    except ValueError:
        return 0


def _runuser() -> str | None:
    """runuser, also where a PATH without the sbin folders (a bare `env -i`) misses it."""
    return shutil.which("runuser") or shutil.which("runuser", path="/usr/sbin:/sbin")


def postgres_problem() -> str | None:
    """Why a private cluster cannot run here, or None."""
    bin_dir = postgres_bin()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        return "initdb/pg_ctl not found (PostgreSQL server binaries: /usr/lib/postgresql/*/bin)"
    if os.geteuid() == 0 and _runuser() is None:
        return "running as root without runuser to start PostgreSQL as the postgres user"
    return None


def redis_problem() -> str | None:
    return None if shutil.which("redis-server") else "redis-server not found on PATH"


def _wait(condition: Callable[[], bool], *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}")


class PrivatePostgres:
    """``with PrivatePostgres() as pg:`` a running cluster; ``pg.url("db")``,
    ``pg.restart()`` (``pg_ctl restart -m fast``, as an operator would)."""

    def __init__(self) -> None:
        bin_dir = postgres_bin()
        if bin_dir is None:
            raise RuntimeError("no PostgreSQL server binaries")
        self.bin = bin_dir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="council-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            shutil.chown(self.root, "postgres", "postgres")

    def _run(self, *argv: str, timeout: float = 120) -> None:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if self._as_postgres:
            command = [str(_runuser()), "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=timeout)

    def _ctl(self, action: str, *extra: str) -> None:
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
                   " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                   " -c max_connections=200")
        self._run("pg_ctl", action, "-D", str(self.data), "-l", str(self.log), "-w",
                  "-t", "60", "-o", options, *extra)

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "--no-sync", "-E", "UTF8")
        self._ctl("start")
        self.wait_answering()

    def restart(self) -> None:
        """Ends every session (``-m fast``: "terminating connection due to
        administrator command") and starts the server again; returns once it answers."""
        self._ctl("restart", "-m", "fast")
        self.wait_answering()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w",
                      timeout=30)
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def answers(self) -> bool:
        try:
            with psycopg.connect(self.url(), connect_timeout=2) as conn:
                conn.execute("SELECT 1")
        except psycopg.Error:
            return False
        return True

    def wait_answering(self, timeout: float = 60) -> None:
        _wait(self.answers, timeout=timeout, what="the private PostgreSQL to answer")

    def __enter__(self) -> PrivatePostgres:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class PrivateRedis:
    """``with PrivateRedis() as rd:`` a redis-server of its own; ``rd.restart()``
    kills it (no save: its queue is lost, as in a crash) and starts it again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="council-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.root), "--save", "", "--appendonly", "no"],
            stdout=(self.root / "server.log").open("w"), stderr=subprocess.STDOUT)
        _wait(self.answers, timeout=30, what="the private Redis to answer")

    def answers(self) -> bool:
        client = redis.Redis(port=self.port, socket_connect_timeout=1, socket_timeout=1)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def restart(self) -> None:
        self.kill()
        self.start()

    def stop(self) -> None:
        self.kill()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PrivateRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
