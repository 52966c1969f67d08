"""Worker "hosts" as Linux network namespaces, each with its own veth link and address.

``HostNetwork(n)`` makes ``n`` namespaces, each joined to the root namespace by a
veth pair on its own /30, and starts a forwarder (``bench.forward``) that
relays each link's root-side address to the loopback PostgreSQL and Redis. A process
started with ``host.command(...)`` then reaches the services only over its link, so
``cut(host)`` partitions it as pulling a machine's cable would: packets are dropped,
no connection is reset, nothing tells the process.

Needs root (CAP_NET_ADMIN) and iproute2; ``netns_problem()`` says why not, if not.
Names carry this process's pid, so parallel runs never clash, and namespaces left
behind by a run that was killed are removed by the next one.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import IO

_PREFIX = "council-"


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check,
                          timeout=10)


def netns_problem() -> str | None:
    """Why namespaces cannot be made here, or None when they can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces need root (CAP_NET_ADMIN); run as root"
    if shutil.which("ip") is None:
        return "iproute2's `ip` command is not installed"
    probe = f"{_PREFIX}{os.getpid()}-probe"
    made = _ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"`ip netns add` failed: {made.stderr.strip()}"
    _ip("netns", "del", probe, check=False)
    return None


@dataclass(frozen=True)
class Host:
    index: int
    namespace: str
    outer: str      # veth end in the root namespace
    inner: str      # veth end inside the namespace
    outer_ip: str   # where the host reaches the services (the forwarder listens here)
    inner_ip: str   # the host's own address

    def command(self, argv: list[str]) -> list[str]:
        """``argv`` run inside this host's namespace."""
        return ["ip", "netns", "exec", self.namespace, *argv]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_namespaces() -> None:
    """Namespaces left by a run whose process is gone (killed before its clean-up)."""
    listed = _ip("netns", "list", check=False).stdout.split("\n")
    for line in listed:
        name = line.split(" ")[0]
        if not name.startswith(_PREFIX):
            continue
        pid = name[len(_PREFIX):].split("-")[0]
        if pid.isdigit() and not _pid_alive(int(pid)):
            _ip("netns", "del", name, check=False)


def _free_subnet() -> str:
    """A 10.x.y.0/24 no interface here uses, so parallel runs route apart."""
    used = _ip("-4", "-o", "addr").stdout + _ip("-4", "route").stdout
    for _ in range(200):
        base = f"10.{random.randint(128, 254)}.{random.randint(0, 255)}"
        if f" {base}." not in used:
            return base
    raise RuntimeError("no free 10.x.y.0/24 subnet for the test hosts")


class HostNetwork:
    """``count`` namespaced hosts plus the forwarder; a context manager that removes
    everything it made on exit, whatever happened."""

    def __init__(self, count: int, *, services: dict[int, tuple[str, int]],
                 log_dir: Path) -> None:
        self.services = services
        self.hosts: list[Host] = []
        self._forwarder: subprocess.Popen[str] | None = None
        self._forward_log: IO[str] = (log_dir / "forwarder.log").open("w")
        tag = uuid.uuid4().hex[:5]
        try:
            remove_stale_namespaces()
            base = _free_subnet()
            for i in range(count):
                self._make_host(i, base, tag)
            self._start_forwarder()
        except BaseException:
            self.close()
            raise

    def _make_host(self, i: int, base: str, tag: str) -> None:
        host = Host(index=i, namespace=f"{_PREFIX}{os.getpid()}-{tag}-{i}",
                    outer=f"cv{tag}{i}o", inner=f"cv{tag}{i}i",
                    outer_ip=f"{base}.{4 * i + 1}", inner_ip=f"{base}.{4 * i + 2}")
        # Recorded first: a failure half-way still removes what was made.
        self.hosts.append(host)
        _ip("netns", "add", host.namespace)
        _ip("link", "add", host.outer, "type", "veth", "peer", "name", host.inner)
        _ip("link", "set", host.inner, "netns", host.namespace)
        _ip("addr", "add", f"{host.outer_ip}/30", "dev", host.outer)
        _ip("link", "set", host.outer, "up")
        inside = ["-n", host.namespace]
        _ip(*inside, "addr", "add", f"{host.inner_ip}/30", "dev", host.inner)
        _ip(*inside, "link", "set", host.inner, "up")
        _ip(*inside, "link", "set", "lo", "up")

    def _start_forwarder(self) -> None:
        routes = [f"{h.outer_ip}:{port}={target}:{target_port}"
                  for h in self.hosts for port, (target, target_port) in self.services.items()]
        self._forwarder = subprocess.Popen(
            [sys.executable, "-m", "bench.forward", *routes],
            cwd=Path(__file__).resolve().parents[1], stdout=subprocess.PIPE,
            stderr=self._forward_log, text=True, start_new_session=True,
        )
        assert self._forwarder.stdout is not None
        line = self._forwarder.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"the forwarder did not start: {line!r}; see "
                               f"{self._forward_log.name}")

    def cut(self, host: Host) -> None:
        """Takes the host's link down from the root side: its packets are dropped."""
        _ip("link", "set", host.outer, "down")

    def heal(self, host: Host) -> None:
        _ip("link", "set", host.outer, "up")

    def close(self) -> None:
        if self._forwarder is not None and self._forwarder.poll() is None:
            self._forwarder.kill()
            self._forwarder.wait(timeout=10)
        for host in self.hosts:
            # Deleting one end of a veth deletes the pair, even while processes still
            # live in the namespace (which would keep the namespace itself alive).
            _ip("link", "del", host.outer, check=False)
            _ip("netns", "del", host.namespace, check=False)
        self.hosts = []
        with contextlib.suppress(Exception):
            self._forward_log.close()

    def __enter__(self) -> HostNetwork:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
