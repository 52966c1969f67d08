"""Geometry of the server-side convergence chart, and its SVG."""

from __future__ import annotations

from django.template.loader import render_to_string

from debates.web.charts import PALETTE, convergence_chart
from tests.web.htmltools import elements


def test_each_agent_is_a_line_of_its_confidence_per_round():
    chart = convergence_chart([("Ada", [0.5, 0.6, 0.7]), ("Bo", [0.2, 0.3, 0.4])],
                              [0.15, 0.15, 0.15])
    assert chart.rounds == 2
    ada, bo = chart.series
    assert [p.round for p in ada.points] == [0, 1, 2]
    assert ada.color == PALETTE[0] and bo.color == PALETTE[1]
    # x grows with the round, y falls as confidence rises (SVG y points down).
    xs = [p.x for p in ada.points]
    assert xs == sorted(xs) and xs[0] == chart.left and xs[-1] == chart.right
    assert ada.points[0].y > ada.points[2].y
    assert ada.points[0].y < bo.points[0].y  # Ada (0.5) sits above Bo (0.2)
    assert len(ada.segments) == 1 and ada.segments[0].count(",") == 3
    assert chart.dispersion is not None and chart.dispersion.dashed


def test_values_map_to_the_plot_box():
    chart = convergence_chart([("A", [0.0, 1.0])])
    low, high = chart.series[0].points
    assert low.y == chart.bottom and high.y == chart.top


def test_a_missed_round_leaves_a_gap():
    chart = convergence_chart([("A", [0.5, None, 0.7, 0.8])])
    series = chart.series[0]
    assert [p.round for p in series.points] == [0, 2, 3]
    assert len(series.segments) == 1  # the lone point before the gap is a dot, not a line


def test_positions_only_still_has_a_width():
    chart = convergence_chart([("A", [0.5]), ("B", [0.7])])
    assert chart.rounds == 1 and not chart.empty
    assert chart.series[0].segments == ()


def test_no_data_is_empty():
    assert convergence_chart([]).empty
    assert convergence_chart([("A", [])]).empty


def test_more_agents_than_colours_reuse_the_palette():
    chart = convergence_chart([(f"A{i}", [0.5]) for i in range(14)])
    assert chart.series[12].color == PALETTE[0]


def test_the_template_draws_an_svg_with_escaped_names():
    chart = convergence_chart([("<b>Ada</b>", [0.5, 0.6])], [0.1, 0.05])
    html = render_to_string("debates/_chart.html", {"chart": chart})
    tags = [el.tag for el in elements(html)]
    assert "svg" in tags and "polyline" in tags and "circle" in tags
    assert "b" not in tags
    assert "&lt;b&gt;Ada&lt;/b&gt;" in html
