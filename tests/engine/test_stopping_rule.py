"""The stopping rule of docs/protocols.md 1.7: every branch, its boundaries and its order."""

import pytest

from debates.engine.protocols.council.convergence import stop_decision
from debates.engine.protocols.council.schemas import RoundMetrics
from debates.engine.schemas import StopReason


def metrics(*, r=2, disp=0.2, delta=0.1, new=3, conc=1):
    return RoundMetrics(round=r, active_agents=3, mean_confidence=0.6, dispersion=disp,
                        confidence_delta=delta, new_arguments=new, concessions=conc)


def decide(m, threshold=0.10, max_rounds=4):
    return stop_decision(m, threshold=threshold, max_rounds=max_rounds)[0]


def test_low_dispersion_and_stable_mean_converges():
    assert decide(metrics(disp=0.05, delta=0.01)) is StopReason.CONVERGED


def test_converged_needs_dispersion_strictly_below_threshold():
    assert decide(metrics(disp=0.10, delta=0.0)) is None


def test_converged_needs_mean_move_strictly_below_003():
    assert decide(metrics(disp=0.05, delta=0.03)) is None
    assert decide(metrics(disp=0.05, delta=-0.0299)) is StopReason.CONVERGED


def test_large_negative_mean_move_blocks_convergence():
    assert decide(metrics(disp=0.05, delta=-0.05)) is None


def test_converged_in_round_one_is_possible():
    assert decide(metrics(r=1, disp=0.01, delta=0.0)) is StopReason.CONVERGED


def test_no_novelty_in_round_one_does_not_stop():
    assert decide(metrics(r=1, disp=0.3, new=0, conc=0)) is None


def test_no_new_arguments_nor_concessions_with_wide_dispersion_is_genuine_disagreement():
    assert decide(metrics(disp=0.16, new=0, conc=0)) is StopReason.GENUINE_DISAGREEMENT


def test_dispersion_exactly_one_and_half_threshold_is_diminishing_returns():
    assert decide(metrics(disp=0.15, new=0, conc=0)) is StopReason.DIMINISHING_RETURNS


def test_no_novelty_with_moderate_dispersion_is_diminishing_returns():
    assert decide(metrics(disp=0.12, new=0, conc=0)) is StopReason.DIMINISHING_RETURNS


def test_a_single_concession_keeps_the_debate_going():
    assert decide(metrics(disp=0.3, new=0, conc=1)) is None


def test_a_single_new_argument_keeps_the_debate_going():
    assert decide(metrics(disp=0.3, new=1, conc=0)) is None


def test_round_cap_stops_with_max_rounds():
    assert decide(metrics(r=4, disp=0.3, new=2, conc=2)) is StopReason.MAX_ROUNDS


def test_below_cap_continues():
    assert decide(metrics(r=3, disp=0.3, new=2, conc=2)) is None


def test_convergence_is_checked_before_the_round_cap():
    assert decide(metrics(r=4, disp=0.05, delta=0.0)) is StopReason.CONVERGED


def test_no_novelty_is_checked_before_the_round_cap():
    assert decide(metrics(r=4, disp=0.3, new=0, conc=0)) is StopReason.GENUINE_DISAGREEMENT


def test_convergence_is_checked_before_no_novelty():
    assert decide(metrics(disp=0.05, delta=0.0, new=0, conc=0)) is StopReason.CONVERGED


def test_the_threshold_parameter_really_takes_effect():
    m = metrics(disp=0.12, delta=0.0)
    assert decide(m, threshold=0.15) is StopReason.CONVERGED
    assert decide(m, threshold=0.10) is None


def test_explanation_names_the_metric_values():
    reason, why = stop_decision(metrics(disp=0.2, new=0, conc=0), threshold=0.1, max_rounds=4)
    assert reason is StopReason.GENUINE_DISAGREEMENT
    assert "0.200" in why and "0.150" in why


def test_rule_refuses_round_zero():
    with pytest.raises(ValueError):
        stop_decision(metrics(r=0, delta=None), threshold=0.1, max_rounds=4)


def test_the_stable_boundary_has_a_tolerance_for_float_error():
    # 0.29 - 0.26 is 0.0299999... in floats; a move of 0.03 is never "stable".
    delta = 0.29 - 0.26
    assert abs(delta) < 0.03  # what the rule used to see
    assert decide(metrics(disp=0.01, delta=delta), max_rounds=4) is not StopReason.CONVERGED
    assert decide(metrics(disp=0.01, delta=0.0299), max_rounds=4) is StopReason.CONVERGED


def test_the_diagnostic_trend_boundary_has_the_same_tolerance():
    from debates.engine.protocols.council.convergence import diagnose

    first = metrics(r=0, delta=None)
    first.mean_confidence, first.dispersion = 0.26, 0.29
    last = metrics(r=2)
    last.mean_confidence, last.dispersion = 0.29, 0.26
    d = diagnose(first, last)
    assert (d.mean_trend, d.dispersion_trend) == ("rose", "narrowed")
