"""``manage.py evaluate``: in process, on the simulated model; bad input exits 2 with a
clear message before anything runs."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from debates.engine.evaluation import arms


def evaluate(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("evaluate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refused(*args: str) -> str:
    with pytest.raises(CommandError) as caught:
        evaluate(*args)
    assert caught.value.returncode == 2
    return str(caught.value)


@pytest.fixture
def no_debate(monkeypatch):
    """Bad input must stop before the first debate."""
    async def never(state, hooks):
        raise AssertionError("a debate ran")

    monkeypatch.setattr(arms, "run_protocol", never)


def test_the_json_report_has_every_arm_and_the_paired_comparison():
    out, err = evaluate("--set", "compare", "--n", "6", "--agents", "3", "--sim-accuracy",
                        "0.6", "--format", "json")
    report = json.loads(out)
    assert list(report["arms"]) == ["single", "vote", "council", "synthesis"]
    for arm in report["arms"].values():
        assert {"accuracy", "ci", "n", "prompt_tokens", "completion_tokens",
                "cost_usd"} <= set(arm)
        assert arm["n"] == 6 and len(arm["ci"]) == 2
    paired = report["paired"]["council_vs_vote"]
    assert set(paired["table"]) == {"both_right", "council_only", "vote_only", "both_wrong"}
    assert 0 <= paired["p_value"] <= 1
    assert report["settings"]["sim_accuracy"] == 0.6 and report["settings"]["agents"] == 3
    lines = [line for line in err.splitlines() if line.startswith("[")]
    assert len(lines) == 6 and lines[0].startswith("[1/6] compare-7-1")


def test_the_markdown_report_is_a_table():
    out, _ = evaluate("--set", "arithmetic", "--n", "3", "--arms", "single,vote",
                      "--sim-accuracy", "1")
    assert out.startswith("## Evaluation: arithmetic")
    assert "| single | 1.000 |" in out and "| vote | 1.000 |" in out
    assert "council" not in out  # no council arm, no paired table


def test_an_upload_is_evaluated(tmp_path):
    upload = tmp_path / "mine.csv"
    upload.write_text("question,options,answer\nIs 2 more than 1?,yes|no,yes\n"
                      "What is 2+2?,,4\nIs 1 more than 2?,yes|no,no\n")
    out, err = evaluate("--file", str(upload), "--n", "2", "--sim-accuracy", "1",
                        "--format", "json")
    report = json.loads(out)
    assert report["set"] == "upload" and report["arms"]["council"]["n"] == 2
    assert report["arms"]["council"]["accuracy"] == 1.0


@pytest.mark.parametrize("args, message", [
    (("--set", "nope"), "unknown set 'nope'"),
    (("--set", "compare", "--n", "0"), "--n"),
    (("--set", "compare", "--n", "10001"), "--n"),
    (("--set", "compare", "--arms", "single,bogus"), "unknown arm bogus"),
    (("--set", "compare", "--agents", "1"), "1 agents"),
    (("--set", "compare", "--sim-accuracy", "1.5"), "not a probability"),
    (("--set", "compare", "--model", "nosuchprovider-xyz"), "unknown model"),
    (("--set", "compare", "--update", "martingale", "--strength", "0.3"), "martingale"),
    (("--set", "compare", "--sim-accuracy", "0.9,0.5"), "2 accuracies for 3 agents"),
    (("--set", "compare", "--sim-accuracy", "0.9,x,1"), "not a probability or a list"),
    (("--set", "compare", "--arms", "mixed_vote"), "need a panel of at least two"),
    (("--set", "compare", "--panel-models", "sim/a,sim/b"), "read only by the mixed arms"),
    (("--set", "compare", "--arms", "mixed_vote", "--panel-models", "sim/a,nosuchprovider-xyz"),
     "--panel-models: unknown model"),
    (("--set", "compare", "--arms", "mixed_vote", "--panel-models", "sim/a,sim/b",
      "--sim-accuracy", "0.9,0.5,0.5"), "3 accuracies for 2 panel models"),
])
def test_bad_input_exits_2_and_runs_nothing(no_debate, args, message):
    assert message in refused(*args)


def test_a_bad_upload_lists_its_problems_with_their_lines(no_debate, tmp_path):
    upload = tmp_path / "bad.jsonl"
    upload.write_text('{"question": "Is it?", "options": ["yes", "no"], "answer": "maybe"}\n'
                      '{"question": "What is 2+2?", "answer": "four"}\n')
    message = refused("--file", str(upload))
    assert "line 1: answer 'maybe' is not among the options yes, no" in message
    assert "line 2: answer 'four' is not a number" in message


def test_an_unreadable_file_and_a_size_past_the_file_are_refused(no_debate, tmp_path):
    assert "cannot read it" in refused("--file", str(tmp_path / "missing.csv"))
    upload = tmp_path / "one.jsonl"
    upload.write_text('{"question": "What is 2+2?", "answer": 4}\n')
    assert "the file holds 1 question;" in refused("--file", str(upload), "--n", "2")


def test_a_set_and_a_file_together_are_refused():
    with pytest.raises(CommandError):
        evaluate("--set", "compare", "--file", "x.csv")


def test_the_mixed_arms_are_reported_beside_the_one_model_arms_with_their_models():
    out, err = evaluate("--set", "compare", "--n", "4", "--sim-accuracy", "0.9,0.6,0.5",
                        "--panel-models", "sim/a,sim/b,sim/c", "--update", "herding",
                        "--strength", "0.5", "--arms", "vote,council,mixed_vote,mixed_council",
                        "--format", "json")
    report = json.loads(out)
    assert list(report["arms"]) == ["vote", "council", "synthesis", "mixed_vote",
                                    "mixed_council"]
    assert report["simulated"] is True
    assert report["arms"]["council"]["models"] == ["sim/a"]
    assert report["arms"]["mixed_council"]["models"] == ["sim/a", "sim/b", "sim/c"]
    assert set(report["paired"]) == {"council_vs_vote", "mixed_council_vs_mixed_vote",
                                     "mixed_council_vs_council", "mixed_vote_vs_vote"}
    assert report["settings"]["sim_accuracies"] == [0.9, 0.6, 0.5]
    assert "mixed_council" in err.splitlines()[0]  # the progress line shows the mixed arms
    markdown, _ = evaluate("--set", "compare", "--n", "2", "--sim-accuracy", "0.6",
                           "--panel-models", "sim/a,sim/b", "--arms", "mixed_vote")
    assert markdown.splitlines()[2].startswith("Simulated:")
    assert "| mixed_vote |" in markdown and markdown.count("| sim/a, sim/b |") == 1
    assert "| vote |" not in markdown
