"""The diagnostic of docs/protocols.md 1.8: round 0 against the last round."""

import pytest

from debates.engine.i18n import translator
from debates.engine.protocols.council.convergence import (
    diagnose,
    diagnostic_meaning,
    mean_and_dispersion,
)
from debates.engine.protocols.council.schemas import DiagnosticLabel, RoundMetrics


def m(mean, disp, agreement=None):
    return RoundMetrics(round=0, active_agents=3, mean_confidence=mean, dispersion=disp,
                        agreement=agreement)


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


# ---------------------------------------------------------------- words follow numbers

def agents(confidences, agreement=None):
    mean, disp = mean_and_dispersion(confidences)
    return RoundMetrics(round=0, active_agents=len(confidences), mean_confidence=mean,
                        dispersion=disp, agreement=agreement)


def test_agents_who_met_in_the_middle_are_not_said_to_agree_without_moving():
    # The walkthrough's case: 0.41 -> 0.61 and 0.80 -> 0.67 (and a third who held).
    before, after = agents([0.41, 0.80, 0.62]), agents([0.61, 0.67, 0.62])
    d = diagnose(before, after, moves=[0.20, -0.13, 0.0], dispersion_limit=0.3)
    assert d.label is DiagnosticLabel.FALSE_CONSENSUS_RISK and d.largest_move == 0.20
    words = diagnostic_meaning(d)
    assert "without moving" not in words
    assert "met in the middle" in words and "mean held" in words


def test_agreeing_without_anyone_moving_says_so():
    d = diagnose(m(0.6, 0.20), m(0.61, 0.16), moves=[0.01, -0.02, 0.0])
    assert d.label is DiagnosticLabel.FALSE_CONSENSUS_RISK
    assert "without any agent moving" in diagnostic_meaning(d)


def test_split_verdicts_are_never_called_convergence():
    before, after = agents([0.5, 0.9, 0.6], 0.67), agents([0.8, 0.85, 0.75], 0.67)
    d = diagnose(before, after, moves=[0.3, -0.05, 0.15], dispersion_limit=0.3)
    assert d.mean_trend == "rose" and d.dispersion_trend == "narrowed"
    assert d.label is DiagnosticLabel.STILL_APART
    assert diagnostic_meaning(d) == ("confidence drew together, but verdicts stay split "
                                     "(agreement 0.67 < 0.75): not a consensus")


def test_a_spread_above_the_disagreement_limit_is_still_apart():
    # The stop rule's "genuine disagreement" limit is 1.5 x threshold.
    d = diagnose(m(0.5, 0.30), m(0.7, 0.20), dispersion_limit=1.5 * 0.1)
    assert d.label is DiagnosticLabel.STILL_APART
    assert "spread 0.200 is still above the disagreement limit 0.150" in diagnostic_meaning(d)
    # Within the limit (and verdicts agreeing) the same trends are convergence.
    d = diagnose(m(0.5, 0.30), m(0.7, 0.10), dispersion_limit=0.15)
    assert d.label is DiagnosticLabel.GENUINE_CONVERGENCE


@pytest.mark.parametrize(
    ("before", "after", "label", "says"),
    [
        (m(0.7, 0.05), m(0.5, 0.20), DiagnosticLabel.HEALTHY_DOUBT,
         "confidence fell and spread out"),
        (m(0.5, 0.20), m(0.7, 0.05), DiagnosticLabel.GENUINE_CONVERGENCE,
         "confidence rose and drew together"),
        (m(0.6, 0.20), m(0.61, 0.05), DiagnosticLabel.FALSE_CONSENSUS_RISK, "mean held"),
        (m(0.5, 0.05), m(0.7, 0.20), DiagnosticLabel.POLARIZATION,
         "confidence rose and spread out"),
        (m(0.6, 0.10), m(0.6, 0.10), DiagnosticLabel.MIXED, "no clear pattern"),
    ],
)
def test_each_labels_words_name_its_trends(before, after, label, says):
    d = diagnose(before, after)
    assert d.label is label
    assert says in diagnostic_meaning(d)
    # The trends the words name are the trends the numbers show.
    if "rose" in says:
        assert d.mean_trend == "rose"
    if "fell" in says:
        assert d.mean_trend == "fell"
    if "held" in says:
        assert d.mean_trend == "stable"
    if "drew together" in says:
        assert d.dispersion_trend == "narrowed"
    if "spread out" in says:
        assert d.dispersion_trend == "widened"


@pytest.mark.parametrize("language", ["en", "zh", "ja"])
def test_every_label_has_words_in_every_language(language):
    t = translator(language)
    for label in DiagnosticLabel:
        assert t(f"label.{label.value}") != f"label.{label.value}"
    split = diagnose(m(0.5, 0.2), m(0.7, 0.05, agreement=0.5))
    spread = diagnose(m(0.5, 0.3), m(0.7, 0.2), dispersion_limit=0.15)
    unmoved = diagnose(m(0.6, 0.2), m(0.61, 0.16), moves=[0.0])
    for d in (split, spread, unmoved):
        words = diagnostic_meaning(d, t)
        assert words and "meaning." not in words and "{" not in words


def test_a_genuine_disagreement_stop_never_sits_next_to_a_convergence_label():
    """Over a grid of final rounds the rule stops as "genuine disagreement", the
    diagnostic (same round, same limit) never says convergence or consensus."""
    from debates.engine.protocols.council.convergence import DISAGREEMENT_FACTOR, stop_decision
    from debates.engine.schemas import StopReason

    threshold = 0.1
    first = RoundMetrics(round=0, active_agents=4, mean_confidence=0.5, dispersion=0.4)
    checked = 0
    for disp in (0.05, 0.12, 0.15, 0.2, 0.3):
        for agreement in (0.5, 0.67, 0.75, 1.0):
            last = RoundMetrics(round=3, active_agents=4, mean_confidence=0.8, dispersion=disp,
                                confidence_delta=0.0, concessions=0, new_arguments=0,
                                agreement=agreement)
            reason, _ = stop_decision(last, threshold=threshold, max_rounds=5)
            if reason is not StopReason.GENUINE_DISAGREEMENT:
                continue
            checked += 1
            d = diagnose(first, last, dispersion_limit=DISAGREEMENT_FACTOR * threshold)
            assert d.label not in (DiagnosticLabel.GENUINE_CONVERGENCE,
                                   DiagnosticLabel.FALSE_CONSENSUS_RISK), (disp, agreement)
    assert checked >= 8
