"""Shared fixtures: team members in every role, and the scale-out service check."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Membership, Team
from accounts.selectors import team_for_user
from accounts.services import membership_add, team_create
from debates.engine.llm.capabilities import capabilities as model_capabilities
from debates.engine.llm.gateway import forget_learned_modes

# --- scale-out services (PostgreSQL + Redis) ----------------------------------------

# Both the `root` and `postgres` roles have trust auth on this machine and on CI;
# `postgres` exists on every Debian install, so it is the default.
POSTGRES_URL = os.environ.get(
    "COUNCIL_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("COUNCIL_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _where(url: str, default_port: int) -> str:
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port or default_port}"


@functools.cache
def _postgres_problem() -> str | None:
    # Generous timeouts: a refused connection fails at once anyway, and a loaded
    # machine may take seconds to answer one that is up.
    import psycopg

    try:
        with psycopg.connect(POSTGRES_URL, connect_timeout=10) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # any failure means "unreachable"
        return f"PostgreSQL at {_where(POSTGRES_URL, 5432)} unreachable: {exc}".strip()
    return None


@functools.cache
def _redis_problem() -> str | None:
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=10, socket_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:  # any failure means "unreachable"
        return f"Redis at {_where(REDIS_URL, 6379)} unreachable: {exc}"
    return None


def _skip_or_fail(reason: str) -> None:
    # CI has both services, so there a missing one is a broken pipeline, not a skip.
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: scale-out tests must run)", pytrace=False)
    pytest.skip(reason)


def require_postgres() -> str:
    """Return POSTGRES_URL, or skip (fail under CI=true) when PostgreSQL is unreachable."""
    problem = _postgres_problem()
    if problem:
        _skip_or_fail(problem)
    return POSTGRES_URL


def require_redis() -> str:
    """Return REDIS_URL, or skip (fail under CI=true) when Redis is unreachable."""
    problem = _redis_problem()
    if problem:
        _skip_or_fail(problem)
    return REDIS_URL


@dataclass(frozen=True)
class ScaleOut:
    postgres_url: str
    redis_url: str


def require_scaleout() -> ScaleOut:
    """Both services, or skip (fail under CI=true) with the reason."""
    return ScaleOut(postgres_url=require_postgres(), redis_url=require_redis())


@pytest.fixture
def scaleout() -> ScaleOut:
    return require_scaleout()


def pytest_runtest_setup(item: pytest.Item) -> None:
    # Marking a test `scaleout` is enough: it is skipped (or failed on CI) up front.
    if item.get_closest_marker("scaleout") is not None:
        require_scaleout()


# --- order: the slowest files first --------------------------------------------------

# The files whose tests take the longest (docs/performance.md, "The test suite's time",
# by each file's sum in the last measured run), slowest first. `make test` runs
# `--dist worksteal`: each process is handed a contiguous half of the collection and,
# once its own half is done, takes tests from the end of the other's. pytest-django
# orders database tests first, then transactional ones, then those without a database,
# so the scale-out tests (no database of the test process) came last, where a
# two-minute test is the tail while the other process idles.
SLOWEST_FIRST = (
    "tests/test_scaleout_durability.py",
    "tests/plugins/test_toy_protocol.py",
    "tests/test_scaleout_hosts.py",
    "tests/test_scaleout_search.py",
    "tests/test_serve_command.py",
    "tests/test_scaleout_postgres_restart.py",
    # The browser walks, by the settings of the site they share (tests/web/
    # browser_support.py, ``shared_site``): walks sharing one run one after another.
    "tests/web/test_browser.py",  # restarts the shared site's web process
    "tests/web/test_browser_csp.py",
    "tests/web/test_browser_protocols.py",
    "tests/web/test_browser_live_list.py",
    "tests/web/test_browser_look.py",
    "tests/web/test_browser_",
    "tests/debates/test_durability.py",
    "tests/engine/test_lazy_litellm.py",
    "tests/debates/test_worker_stop.py",
    "tests/packaging/test_wheel_install.py",
    "tests/api/test_mcp",
    "tests/test_served_request_limits.py",
    "tests/api/test_skill_file.py",
)


def _slowness_rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    return next((rank for rank, prefix in enumerate(SLOWEST_FIRST)
                 if path.startswith(prefix)), len(SLOWEST_FIRST))


def _database_group(item: pytest.Item) -> int:
    """pytest-django's group: 0 database, 1 transactional database, 2 none."""
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    if (marker is not None and (marker.kwargs.get("transaction")
                                or marker.kwargs.get("reset_sequences"))) \
            or "transactional_db" in fixtures or "live_server" in fixtures:
        return 1
    return 0 if marker is not None or "db" in fixtures else 2


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """After pytest-django's order: the slow tests without a database of this process
    move to the very front (they touch no rows, so the order of database tests is
    unchanged), and within each database group the slow files go first."""
    def key(item: pytest.Item) -> tuple[int, int]:
        group, rank = _database_group(item), _slowness_rank(item)
        return (-1 if group == 2 and rank < len(SLOWEST_FIRST) else group, rank)

    items.sort(key=key)  # stable: everything else keeps its order


@pytest.fixture(autouse=True)
def fresh_model_facts() -> Iterator[None]:
    """Learned output modes and cached model capabilities are per process: no test may
    see another's (under xdist a gateway test once inherited a mode another file's test
    had learned for the same model)."""
    forget_learned_modes()
    model_capabilities.cache_clear()
    yield
    forget_learned_modes()
    model_capabilities.cache_clear()


# --- users and teams ------------------------------------------------------------------

PASSWORD = "correct horse battery staple"


def _user(username: str) -> User:
    return User.objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD
    )


@pytest.fixture
def owner(db: None) -> User:
    return _user("owner")


@pytest.fixture
def team(owner: User) -> Team:
    return team_create(name="Acme", owner=owner)


@pytest.fixture
def member(team: Team) -> User:
    """An editor of `team`: may read and write."""
    user = _user("member")
    membership_add(team=team, user=user, role=Membership.Role.EDITOR)
    return user


@pytest.fixture
def viewer(team: Team) -> User:
    """A viewer of `team`: may read, not write."""
    user = _user("viewer")
    membership_add(team=team, user=user, role=Membership.Role.VIEWER)
    return user


@pytest.fixture
def outsider(db: None) -> User:
    """Owner of another team, no membership in `team`."""
    user = _user("outsider")
    team_create(name="Elsewhere", owner=user)
    return user


@pytest.fixture
def other_team(outsider: User) -> Team:
    other = team_for_user(user=outsider)
    assert other is not None
    return other


def _client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner: User) -> Client:
    return _client_for(owner)


@pytest.fixture
def member_client(member: User) -> Client:
    return _client_for(member)


@pytest.fixture
def viewer_client(viewer: User) -> Client:
    return _client_for(viewer)


@pytest.fixture
def outsider_client(outsider: User) -> Client:
    return _client_for(outsider)
