"""The diagnostic of protocols.md 1.8: round 0 against the last round."""

import pytest

from debates.engine.convergence import diagnose, mean_and_dispersion
from debates.engine.schemas import DiagnosticLabel, RoundMetrics


def m(mean, disp):
    return RoundMetrics(round=0, active_agents=3, mean_confidence=mean, dispersion=disp)


@pytest.mark.parametrize(
    ("before", "after", "label"),
    [
        (m(0.7, 0.05), m(0.5, 0.20), DiagnosticLabel.HEALTHY_DOUBT),
        (m(0.5, 0.20), m(0.7, 0.05), DiagnosticLabel.GENUINE_CONVERGENCE),
        (m(0.6, 0.20), m(0.61, 0.05), DiagnosticLabel.FALSE_CONSENSUS_RISK),
        (m(0.5, 0.05), m(0.7, 0.20), DiagnosticLabel.POLARIZATION),
        (m(0.6, 0.10), m(0.6, 0.10), DiagnosticLabel.MIXED),
        (m(0.7, 0.20), m(0.5, 0.05), DiagnosticLabel.MIXED),  # fell + narrowed
        (m(0.6, 0.05), m(0.6, 0.20), DiagnosticLabel.MIXED),  # stable + widened
        (m(0.5, 0.10), m(0.7, 0.11), DiagnosticLabel.MIXED),  # rose + stable
    ],
)
def test_each_row_of_the_table(before, after, label):
    assert diagnose(before, after).label is label


def test_moves_under_003_count_as_stable():
    d = diagnose(m(0.60, 0.100), m(0.629, 0.071))
    assert d.mean_trend == "stable" and d.dispersion_trend == "stable"
    d = diagnose(m(0.60, 0.100), m(0.63, 0.13))
    assert d.mean_trend == "rose" and d.dispersion_trend == "widened"


def test_dispersion_is_the_population_standard_deviation():
    mean, disp = mean_and_dispersion([0.2, 0.4, 0.6])
    assert mean == pytest.approx(0.4)
    assert disp == pytest.approx(0.163299, abs=1e-6)
