"""The arms chart's geometry: bars at the accuracy, whiskers over the interval."""

from __future__ import annotations

from evaluations.charts import BAR_COLOR, CAVEAT_COLOR, arms_chart


def test_bars_and_whiskers_sit_where_the_figures_say() -> None:
    chart = arms_chart({
        "single": {"accuracy": 0.5, "ci": [0.25, 0.75], "n": 40, "finding": True},
        "vote": {"accuracy": 1.0, "ci": [0.9, 1.0], "n": 10, "finding": False},
        "adversarial": {"accuracy": None, "ci": [0.0, 1.0], "n": 0, "finding": False},
    }, width=440)
    span = chart.right - chart.left
    single, vote = chart.bars
    assert [b.arm for b in chart.bars] == ["single", "vote"]  # no accuracy, no bar
    assert single.width == round(span * 0.5, 1)
    assert (single.low_x, single.high_x) == (round(chart.left + span * 0.25, 1),
                                             round(chart.left + span * 0.75, 1))
    assert vote.x0 + vote.width == chart.right
    assert (single.color, vote.color) == (BAR_COLOR, CAVEAT_COLOR)
    assert vote.y > single.y and chart.bottom < chart.height


def test_no_arm_answered_is_an_empty_chart() -> None:
    assert arms_chart({}).empty
