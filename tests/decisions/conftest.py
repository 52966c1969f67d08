"""A finished debate with a synthesis whose options are fixed, for the decision tests."""

from __future__ import annotations

import pytest

from tests.factories import add_synthesis, make_debate

OPTIONS = ["Migrate now", "Migrate in Q3", "Stay"]


def finish(debate, options=OPTIONS):
    synthesis = add_synthesis(debate)
    synthesis.result = {**synthesis.result, "options": list(options)}
    synthesis.save()
    debate.status = "succeeded"
    debate.save()
    return debate


@pytest.fixture
def debate(team, owner):
    return finish(make_debate(team, owner))
