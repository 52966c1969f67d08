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
    # Only the status: a whole save would write back the event counter read before
    # debate_created was appended, and the next event would reuse its number.
    debate.save(update_fields=["status"])
    return debate


@pytest.fixture
def debate(team, owner):
    return finish(make_debate(team, owner))
