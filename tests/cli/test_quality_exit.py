"""The CLI's quality line and ``--fail-on-quality`` (docs/engine.md, "Content checks"):
a clear line on stderr after every run, exit 3 at or below the verdict asked for, the
report written all the same."""

from __future__ import annotations

import io

import pytest

from debates.engine import cli
from debates.engine.schemas import Quality, QualityReason

QUESTION = "Should we split our Django monolith into microservices within 12 months?"


def engine(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(args), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_a_sound_run_ends_with_its_quality_line_and_exits_0_even_when_asked_to_fail():
    code, out, err = engine(QUESTION, "--mode", "quick", "--fail-on-quality", "doubtful")
    assert code == 0
    assert err.rstrip().splitlines()[-1] == "quality: sound"
    assert out.startswith("# ")


@pytest.fixture
def unusable(monkeypatch):
    """Every debate's result judged unusable, as a small model's would be."""
    build = cli.run_here

    def judged(state, progress):
        result = build(state, progress)
        result.quality = Quality.UNUSABLE
        result.quality_reasons = [QualityReason(
            rule="degenerate_decision", severity="unusable", where="synthesis · summary",
            evidence="1.2.1.1.1")]
        return result

    monkeypatch.setattr(cli, "run_here", judged)


@pytest.mark.parametrize(("threshold", "expected"), [
    (None, 0), ("unusable", cli.EXIT_POOR_QUALITY), ("doubtful", cli.EXIT_POOR_QUALITY)])
def test_an_unusable_result_exits_3_when_asked_and_the_report_is_still_written(
        unusable, threshold, expected):
    args = [QUESTION, "--mode", "quick", "--protocol", "workflow"]
    if threshold:
        args += ["--fail-on-quality", threshold]
    code, out, err = engine(*args)
    assert code == expected
    assert out.splitlines()[1].startswith("**Quality:** **unusable**")
    assert "quality: unusable — degenerate_decision (synthesis · summary)" in err


def test_the_help_names_the_option_and_the_exit_code(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = capsys.readouterr().out
    assert "--fail-on-quality" in text
    assert f"{cli.EXIT_POOR_QUALITY}    the debate finished, but its quality" in text
