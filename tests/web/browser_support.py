"""What the browser tests share: Debian's chromium, a real daphne and django-q2 worker
on the test's own SQLite database, and users who can sign in there."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from tests.conftest import PASSWORD
from tests.waiting import PATIENCE_S, wait_until

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
VENV_BIN = Path(sys.executable).parent
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]
# What every page action and ``expect`` waits at most (Playwright's own defaults, 30 s
# and 5 s, are too short for a loaded CI machine).
PATIENCE_MS = int(PATIENCE_S * 1000)
# page.evaluate(SHORT_TARGETS): the page's controls shorter than a 44 px tap target
# (WCAG 2.5.5), each as "TAG text height"; a link inside a sentence (a muted line, prose,
# an empty state, small print) is exempt: its height is the line's.
SHORT_TARGETS = """() => [...document.querySelectorAll(
        'main a, main button, main select, main input:not([type=hidden]), main summary')]
    .filter(el => el.getBoundingClientRect().height > 0)
    .filter(el => !el.closest('p.muted, .prose, .empty, .small'))
    .filter(el => el.getBoundingClientRect().height < 44)
    .map(el => el.tagName + ' ' + el.textContent.trim().slice(0, 30) + ' '
         + Math.round(el.getBoundingClientRect().height))"""


def require_chromium() -> None:
    if Path(CHROMIUM).exists():
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return
    reason = f"{CHROMIUM} is missing (apt-get install chromium)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true: the browser test must run", pytrace=False)
    pytest.skip(reason)


def launch(pw: Any) -> Any:
    """Debian's chromium through Playwright (its own browser download does not work here)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=PATIENCE_MS)
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


def sign_in(page: Any, base: str, username: str, heading: str = "Debates") -> None:
    """Signs in through the login form and waits for the debate list it lands on (its
    ``heading`` in the user's language)."""
    from playwright.sync_api import expect

    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("h1")).to_have_text(heading)


def real_password(*users: Any) -> None:
    # Tests hash with MD5 for speed; the server process only knows the real hashers.
    for user in users:
        user.password = PBKDF2PasswordHasher().encode(PASSWORD, "browsertestsalt",
                                                      iterations=1000)
        user.save(update_fields=["password"])


def site_env(**extra: str) -> dict[str, str]:
    """The environment of a server and worker on this test's database (no Redis)."""
    db_path = Path(connection.settings_dict["NAME"]).resolve()
    assert db_path.exists(), db_path
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "council_site.settings",
           "DJANGO_DEBUG": "1", "DATABASE_URL": f"sqlite:///{db_path}",
           "COUNCIL_WORKERS": "1", "DJANGO_LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1",
           **extra}
    env.pop("REDIS_URL", None)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def daphne_args(port: int) -> list[str]:
    return [str(VENV_BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port),
            "council_site.asgi:application"]


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    # A session of its own, so stopping it also stops the workers qcluster forks.
    with log.open("ab") as out:
        return subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(PATIENCE_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(PATIENCE_S)


@contextmanager
def process(args: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen]:
    proc = start(args, env, log)
    try:
        yield proc
    finally:
        stop(proc)


def wait_for_http(url: str, proc: subprocess.Popen, log: Path) -> None:
    def answers() -> bool:
        if proc.poll() is not None:
            raise AssertionError(f"server exited:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.status == 200
        except OSError:
            return False

    wait_until(answers, what=f"the server to answer {url}", interval=0.2,
               detail=lambda: f":\n{log.read_text()[-3000:]}")


@contextmanager
def served_site(tmp_path: Path, env: dict[str, str]) -> Iterator[str]:
    """daphne and a qcluster on ``env``; yields the site's base URL once it answers."""
    port = free_port()
    web_log = tmp_path / "daphne.log"
    with process(daphne_args(port), env, web_log) as web, \
            process([sys.executable, "manage.py", "qcluster"], env, tmp_path / "q.log"):
        wait_for_http(f"http://127.0.0.1:{port}/healthz", web, web_log)
        yield f"http://127.0.0.1:{port}"


# --- one served site for a run of walks ----------------------------------------------

# What every shared site runs with; a walk names only what it needs otherwise (a
# simulated latency that keeps its debate running while it watches).
SHARED_SETTINGS = {"COUNCIL_MODEL": "sim/default", "COUNCIL_SIM_LATENCY_MS": "0"}
# Simulated calls slow enough to see a round running (and to stop and restart the web
# process mid-debate), fast enough for a short walk: the walks that watch a debate the
# site runs share a site with these settings.
WATCHABLE = {"COUNCIL_SIM_LATENCY_MS": "250"}


@dataclass
class SharedSite:
    settings: dict[str, str]
    env: dict[str, str]
    port: int
    directory: Path
    web: subprocess.Popen
    worker: subprocess.Popen
    stack: ExitStack

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def alive(self) -> bool:
        return self.web.poll() is None and self.worker.poll() is None

    def stop_web(self) -> None:
        """The web process goes away (a deploy, a crash); the worker keeps running."""
        stop(self.web)

    def start_web(self) -> None:
        """A new web process on the same port, once it answers."""
        self.web = start(daphne_args(self.port), self.env, self.directory / "daphne.log")
        wait_for_http(f"{self.base}/healthz", self.web, self.directory / "daphne.log")


_shared: SharedSite | None = None


def _open_shared(settings: dict[str, str]) -> SharedSite:
    stack = ExitStack()
    directory = Path(tempfile.mkdtemp(prefix="council-walk-site-"))
    stack.callback(shutil.rmtree, directory, ignore_errors=True)
    try:
        env = site_env(COUNCIL_MEDIA_ROOT=str(directory / "media"), **settings)
        port = free_port()
        web = start(daphne_args(port), env, directory / "daphne.log")
        site = SharedSite(settings, env, port, directory, web, web, stack)
        stack.callback(lambda: stop(site.web))  # the web process of the moment
        site.worker = stack.enter_context(
            process([sys.executable, "manage.py", "qcluster"], env, directory / "q.log"))
        wait_for_http(f"{site.base}/healthz", web, directory / "daphne.log")
    except BaseException:
        stack.close()
        raise
    return site


def close_shared_site() -> None:
    """Stops the shared site, if one is up (tests/web/conftest.py calls it after the
    last walk of a run, and at the end of the session)."""
    global _shared
    site, _shared = _shared, None
    if site is not None:
        site.stack.close()


atexit.register(close_shared_site)


@contextmanager
def shared_site(**settings: str) -> Iterator[str]:
    """daphne and a qcluster on the test database, shared by the walks that follow one
    another in this test process with the same ``settings`` (environment variables over
    ``SHARED_SETTINGS``); yields the site's base URL. Each walk makes its own rows, and
    the flush after each test removes them, so walks stay independent; starting the
    two Django processes once instead of once a walk is the saving (docs/performance.md,
    "The test suite's time"). The walks' files are ordered so that walks with the same
    settings run one after another (tests/conftest.py, ``SLOWEST_FIRST``)."""
    global _shared
    wanted = {**SHARED_SETTINGS, **settings}
    if _shared is not None and (_shared.settings != wanted or not _shared.alive()):
        close_shared_site()
    if _shared is None:
        _shared = _open_shared(wanted)
    yield _shared.base


def the_shared_site() -> SharedSite:
    """The site ``shared_site`` yielded, for a walk that stops and restarts its web
    process."""
    assert _shared is not None, "no shared site is up"
    return _shared
