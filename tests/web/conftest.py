"""Fixtures of the web tests: debates created and run in-process with the simulator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import Team
from debates.engine.schemas import DebateConfig, SimulatorOptions
from debates.models import Debate
from debates.runtime.execution import run_to_completion
from debates.services import debate_create

QUESTION = "Should we move our billing system to a new payment provider this year?"

MakeDebate = Callable[..., Debate]


@pytest.fixture
def make_debate(team: Team) -> MakeDebate:
    """``make_debate(mode=..., run=True, team=..., script=..., **config)``: a saved
    debate, run to the end unless ``run=False``."""

    def make(*, mode: str = "quick", run: bool = True, question: str = QUESTION,
             team_: Team | None = None, script: dict[str, Any] | None = None,
             parent: Debate | None = None, **config: Any) -> Debate:
        simulator = SimulatorOptions(script=script) if script else SimulatorOptions()
        debate = debate_create(team=team_ or team, user=None, question=question,
                               config=DebateConfig(mode=mode, simulator=simulator, **config),
                               parent=parent, start=False)
        if run:
            run_to_completion(debate.code)
        debate.refresh_from_db()
        return debate

    return make


@pytest.fixture
def finished(make_debate: MakeDebate) -> Debate:
    return make_debate()


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """The walks' shared site lives while walks follow one another in this process:
    stopped before any other test, which must not find a worker taking its queued
    tasks (tests/web/browser_support.py, ``shared_site``)."""
    if nextitem is None or nextitem.get_closest_marker("browser") is None:
        from tests.web.browser_support import close_shared_site

        close_shared_site()
