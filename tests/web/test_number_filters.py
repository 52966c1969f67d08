"""How the pages write changes: a signed number, and no "-0.00" for a change that rounds
to nothing (the metrics table's "Δ mean")."""

from __future__ import annotations

from debates.templatetags.council import signed


def test_a_change_is_signed_and_one_that_rounds_to_nothing_is_plain_zero():
    assert signed(0.123) == "+0.12"
    assert signed(-0.5) == "-0.50"
    assert signed(-0.004) == "0.00"
    assert signed(0.0) == "0.00"
    assert signed(-0.0) == "0.00"
    assert signed(None) == "–"
