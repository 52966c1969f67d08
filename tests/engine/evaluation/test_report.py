"""The report's JSON shape (as issue 31 names it) and its Markdown, with the caveats."""

from __future__ import annotations

import json

from debates.engine.evaluation.report import (
    ArmResult,
    EvaluationReport,
    PairedResult,
    caveat,
    report_json,
    report_markdown,
)
from debates.engine.evaluation.stats import (
    ConfidentAnswer,
    Flips,
    PairedTable,
    accuracy,
    reliability_table,
)


def _report(n: int = 50) -> EvaluationReport:
    vote_right, council_right = int(n * 0.6), int(n * 0.7)
    vote = ArmResult(accuracy([True] * vote_right + [False] * (n - vote_right)))
    council = ArmResult(accuracy([True] * council_right + [False] * (n - council_right)),
                        prompt_tokens=12_000, completion_tokens=3_400, cost_usd=0.35,
                        brier=0.21)
    table = PairedTable(both_right=vote_right - 1, first_only=council_right - vote_right + 1,
                        second_only=1, both_wrong=n - council_right - 1)
    paired = PairedResult(table, Flips(n=n, changed=7, changed_to_right=6,
                                       changed_from_right=1))
    return EvaluationReport("compare", {"vote": vote, "council": council}, paired,
                            settings={"model": "sim/test", "agents": 5, "seed": 1})


def test_the_json_has_the_fields_the_command_promises():
    out = report_json(_report())
    json.dumps(out)  # plain JSON all through
    council = out["arms"]["council"]
    assert {"accuracy", "ci", "n", "prompt_tokens", "completion_tokens",
            "cost_usd"} <= set(council)
    assert council["accuracy"] == 0.7 and council["n"] == 50 and council["right"] == 35
    # Wilson 35/50 by hand: centre 0.738415 / 1.076829 = 0.685731, half 0.123236.
    assert council["ci"] == [0.5625, 0.809]
    assert (council["prompt_tokens"], council["completion_tokens"]) == (12_000, 3_400)
    assert council["cost_usd"] == 0.35 and council["cost_per_right_usd"] == 0.01
    assert council["finding"] is True and council["caveat"] is None
    assert out["arms"]["vote"]["brier"] is None


def test_the_paired_comparison_has_its_table_and_exact_p_value():
    paired = report_json(_report())["paired"]["council_vs_vote"]
    assert paired["table"] == {"both_right": 29, "council_only": 6, "vote_only": 1,
                               "both_wrong": 14}
    assert paired["p_value"] == 0.125  # b = 6, c = 1: 2 · 8 / 128
    assert paired["flips"] == {"changed": 7, "changed_to_right": 6, "changed_from_right": 1}
    assert paired["n"] == 50 and paired["finding"] is True


def test_too_few_questions_or_too_wide_an_interval_is_not_a_finding():
    assert caveat(29) == "not a finding: 29 questions, fewer than 30"
    assert caveat(30, 0.31) == "not a finding: the interval is 0.31 wide, over 0.3"
    assert caveat(30, 0.3) is None
    out = report_json(_report(n=20))
    assert out["arms"]["council"]["finding"] is False
    assert out["arms"]["council"]["caveat"] == "not a finding: 20 questions, fewer than 30"
    assert out["paired"]["council_vs_vote"]["finding"] is False


def test_no_paired_comparison_without_both_arms():
    report = EvaluationReport("compare", {"single": ArmResult(accuracy([True] * 40))})
    assert report_json(report)["paired"] == {}
    assert "Council against vote" not in report_markdown(report)


def test_the_markdown_table():
    text = report_markdown(_report())
    lines = text.splitlines()
    assert lines[0] == "## Evaluation: compare"
    assert lines[2].startswith("| arm | accuracy | 95 % CI | n |")
    # The last column names the arm's models: none given here.
    assert lines[4] == ("| vote | 0.600 | [0.462, 0.724] | 50 | 0 | 0 | $0.0000 | $0.0000 | – "
                        "|  | – |")
    assert lines[5] == ("| council | 0.700 | [0.562, 0.809] | 50 | 12000 | 3400 | $0.3500 "
                        "| $0.0100 | 0.210 |  | – |")
    assert "| council right | 29 | 6 |" in lines
    assert "| council wrong | 1 | 14 |" in lines
    assert "Exact McNemar p = 0.1250 (6 against 1 discordant questions)." in lines
    assert ("The debate changed the vote's answer on 7 of 50 questions: 6 to the right "
            "answer, 1 away from it.") in lines


def test_the_markdown_says_in_words_when_a_figure_is_not_a_finding():
    text = report_markdown(_report(n=20))
    assert "| not a finding: 20 questions, fewer than 30 |" in text
    assert "This comparison is not a finding: 20 questions, fewer than 30." in text


def test_a_tiny_p_value_reads_as_tiny_not_as_zero():
    table = PairedTable(both_right=10, first_only=40, second_only=0, both_wrong=0)
    report = EvaluationReport("compare", {}, PairedResult(table, Flips(50, 40, 40, 0)))
    # 2 / 2^40
    assert report_json(report)["paired"]["council_vs_vote"]["p_value"] == float(
        f"{2 / 2**40:.4g}")
    assert "Exact McNemar p < 0.0001 (40 against 0 discordant questions)." in (
        report_markdown(report).splitlines())


def test_an_arms_reliability_table_is_in_its_json():
    bins = reliability_table([ConfidentAnswer(0.75, True), ConfidentAnswer(0.7, False)])
    arm = ArmResult(accuracy([True, False]), brier=(0.25**2 + 0.7**2) / 2,
                    reliability=tuple(bins))
    out = report_json(EvaluationReport("compare", {"council": arm}))["arms"]["council"]
    assert out["brier"] == 0.2762
    assert out["reliability"][3] == {"low": 0.6, "high": 0.8, "n": 2,
                                     "mean_confidence": 0.725, "accuracy": 0.5}
    assert out["reliability"][0] == {"low": 0.0, "high": 0.2, "n": 0,
                                     "mean_confidence": None, "accuracy": None}


def _mixed_report(simulated: bool) -> EvaluationReport:
    one, mixed = ("sim/a",), ("sim/a", "sim/b", "sim/c")
    arms = {"council": ArmResult(accuracy([True] * 30 + [False] * 20), models=one),
            "mixed_council": ArmResult(accuracy([True] * 40 + [False] * 10), models=mixed)}
    # mixed_council right on 12 questions council got wrong, wrong on 2 it got right.
    table = PairedTable(both_right=28, first_only=12, second_only=2, both_wrong=8)
    mixed_vs_one = PairedResult(table, Flips(n=50, changed=14, changed_to_right=12,
                                             changed_from_right=2),
                                "mixed_council", "council")
    settings = {"sim_accuracy": 0.6} if simulated else {"sim_accuracy": None}
    return EvaluationReport("compare", arms, None, settings, (mixed_vs_one,))


def test_a_mixed_arm_names_its_models_and_gets_its_own_paired_comparison():
    out = report_json(_mixed_report(simulated=False))
    assert out["arms"]["council"]["models"] == ["sim/a"]
    assert out["arms"]["mixed_council"]["models"] == ["sim/a", "sim/b", "sim/c"]
    paired = out["paired"]["mixed_council_vs_council"]
    assert paired["table"] == {"both_right": 28, "mixed_council_only": 12,
                               "council_only": 2, "both_wrong": 8}
    # b = 12, c = 2: 2 · (1 + 14 + 91) / 2^14 = 212 / 16384
    assert paired["p_value"] == float(f"{212 / 2**14:.4g}")
    assert out["simulated"] is False
    text = report_markdown(_mixed_report(simulated=False))
    assert "| mixed_council right | 28 | 12 |" in text
    assert "Exact McNemar p = 0.0129 (12 against 2 discordant questions)." in text
    assert ("mixed_council answered otherwise than council on 14 of 50 questions: 12 right "
            "where council was wrong, 2 wrong where it was right.") in text
    assert text.splitlines()[4].endswith("| sim/a |")
    assert text.splitlines()[5].endswith("| sim/a, sim/b, sim/c |")
    assert "Simulated" not in text


def test_a_simulated_report_says_so():
    assert report_json(_mixed_report(simulated=True))["simulated"] is True
    text = report_markdown(_mixed_report(simulated=True))
    assert text.splitlines()[2].startswith("Simulated: a simulated population answered")
