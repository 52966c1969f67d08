"""The calibration arithmetic against numbers worked out by hand (docs/teams.md, Scoring)."""

from __future__ import annotations

import pytest

from decisions.scoring import (
    Forecast,
    ReviewedDebate,
    brier,
    calibrate,
    probabilities,
)

XYZ = ("x", "y", "z")


def test_the_verdict_gets_the_confidence_and_the_others_share_the_rest():
    assert probabilities(XYZ, "x", 0.8) == pytest.approx([0.8, 0.1, 0.1])
    assert probabilities(("a", "b"), "b", 0.6) == pytest.approx([0.4, 0.6])


def test_brier_of_a_right_verdict():
    # [0.8, 0.1, 0.1] vs [1, 0, 0]: (0.04 + 0.01 + 0.01) / 3
    assert brier(XYZ, "x", 0.8, "x") == pytest.approx(0.02)
    # [0.4, 0.6] vs [0, 1]: (0.16 + 0.16) / 2
    assert brier(("a", "b"), "b", 0.6, "b") == pytest.approx(0.16)


def test_brier_of_a_wrong_verdict():
    # [0.8, 0.1, 0.1] vs [0, 1, 0]: (0.64 + 0.81 + 0.01) / 3
    assert brier(XYZ, "x", 0.8, "y") == pytest.approx(1.46 / 3)
    # A certain wrong verdict between two options is the worst score there is.
    assert brier(("a", "b"), "a", 1.0, "b") == pytest.approx(1.0)


def test_a_right_option_outside_the_options_is_refused():
    with pytest.raises(ValueError, match="not one of the options"):
        brier(XYZ, "x", 0.8, "w")


def _debate(right: str, initial: str | None, final: str | None,
            *forecasts: tuple[str, str | None, float | None]) -> ReviewedDebate:
    return ReviewedDebate(
        options=XYZ, right_option=right, initial_majority=initial, final_majority=final,
        forecasts=[Forecast(scorer=name, name=name, verdict=v, confidence=c)
                   for name, v, c in forecasts])


# Three reviewed debates, three personas. C failed before its verdict in the second.
FIXTURE = [
    _debate("x", "y", "x", ("A", "x", 0.8), ("B", "y", 0.6), ("C", "x", 0.5)),
    _debate("y", "y", "y", ("A", "x", 0.9), ("B", "y", 0.7), ("C", None, None)),
    _debate("z", None, "z", ("A", "z", 1.0), ("B", "z", 0.4), ("C", "x", 0.3)),
]


def test_each_persona_scores_the_mean_of_its_briers():
    result = calibrate(FIXTURE)
    by_name = {p.name: p for p in result.personas}
    # A: 0.02; [0.9, .05, .05] vs y: (0.81 + 0.9025 + 0.0025)/3; 1.0 on z: 0
    assert by_name["A"].brier == pytest.approx((0.02 + 1.715 / 3 + 0.0) / 3)
    # B: [.2, .6, .2] vs x: 1.04/3; [.15, .7, .15] vs y: 0.135/3; [.3, .3, .4] vs z: 0.54/3
    assert by_name["B"].brier == pytest.approx((1.04 + 0.135 + 0.54) / 9)
    # C: [.5, .25, .25] vs x: 0.375/3; [.3, .35, .35] vs z: 0.635/3; nothing in debate 2
    assert by_name["C"].brier == pytest.approx((0.375 + 0.635) / 6)
    assert [(p.name, p.scored, p.hits) for p in result.personas] == [
        ("C", 2, 1), ("B", 3, 2), ("A", 3, 2)]  # best (lowest) Brier first
    assert all(p.too_few for p in result.personas)


def test_panel_accuracy_before_and_after_the_debate():
    panel = calibrate(FIXTURE).panel
    # Round 0: y (wrong), y (right), a tie (no majority: a miss). Final: all three right.
    assert (panel.scored, panel.initial_hits, panel.final_hits) == (3, 1, 3)
    assert panel.initial == pytest.approx(1 / 3)
    assert panel.final == pytest.approx(1.0)
    assert panel.lift == pytest.approx(2 / 3)


def test_reliability_bins_count_hits_per_confidence_band():
    bins = calibrate(FIXTURE).reliability
    assert [b.low for b in bins] == pytest.approx([0.0, 0.2, 0.4, 0.6, 0.8])
    assert bins[-1].high == 1.0
    assert [b.forecasts for b in bins] == [0, 1, 2, 2, 3]
    assert [b.hit_rate for b in bins] == pytest.approx([None, 0.0, 1.0, 0.5, 2 / 3])
    assert [b.mean_confidence for b in bins] == pytest.approx([None, 0.3, 0.45, 0.65, 0.9])


def test_debates_without_verdicts_are_left_out():
    # A protocol without verdicts (adversarial, workflow) has nothing to score.
    silent = ReviewedDebate(options=(), right_option="", initial_majority=None,
                            final_majority=None, forecasts=())
    result = calibrate([silent])
    assert result.personas == () and result.panel.scored == 0
    assert result.panel.initial is None and result.panel.lift is None


def test_enough_evidence_ranks_above_a_lucky_few():
    steady = [_debate("x", "x", "x", ("Steady", "x", 0.6)) for _ in range(5)]
    lucky = [_debate("x", "x", "x", ("Lucky", "x", 1.0))]
    names = [(p.name, p.too_few) for p in calibrate(steady + lucky).personas]
    assert names == [("Steady", False), ("Lucky", True)]


def test_the_newest_name_of_a_persona_shows():
    renamed = [
        ReviewedDebate(XYZ, "x", "x", "x", [Forecast("code-1", "Old name", "x", 0.7)]),
        ReviewedDebate(XYZ, "x", "x", "x", [Forecast("code-1", "New name", "x", 0.7)]),
    ]
    (record,) = calibrate(renamed).personas
    assert (record.name, record.scored) == ("New name", 2)
