"""``manage.py debate``: end to end with the simulator, every mode, both formats."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from debates.engine.protocols.council.schemas import DebateResult
from debates.engine.schemas import MODE_DEFAULTS, Mode

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "fixtures" / "cases"
QUESTION = "Should we split our Django monolith into microservices within 12 months?"


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("debate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


# A whole debate in a fresh interpreter: at load 10-16 on 2 cores it outran 120 s.
def run_process(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "DJANGO_DEBUG": "1", **(env or {})}
    return subprocess.run([sys.executable, "manage.py", "debate", *args], cwd=ROOT,
                          env=full_env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("mode", list(Mode))
def test_each_mode_runs_and_its_json_validates_against_the_result_schema(mode, capsys):
    out, _ = run(QUESTION, "--mode", mode.value, "--format", "json")
    data = json.loads(out)
    jsonschema.validate(data, DebateResult.model_json_schema())
    result = DebateResult.model_validate(data)
    defaults = MODE_DEFAULTS[mode]
    assert len(result.agents) == defaults.agents
    assert result.config.convergence_threshold == defaults.threshold
    assert 1 <= result.rounds_completed <= defaults.max_rounds
    assert result.simulated and result.prompt_version == "v5"
    assert [m.round for m in result.metrics] == list(range(result.rounds_completed + 1))


def test_overrides_really_take_effect():
    out, _ = run(QUESTION, "--mode", "quick", "--agents", "4", "--rounds", "1",
                 "--threshold", "0.01", "--format", "json")
    result = DebateResult.model_validate_json(out)
    assert len(result.agents) == 4
    assert result.config.convergence_threshold == 0.01
    assert result.rounds_completed == 1


def test_markdown_on_stdout_progress_on_stderr_in_a_real_process():
    proc = run_process(QUESTION, "--mode", "quick")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# Council synthesis\n")
    assert "Simulated model" in proc.stdout
    assert "✓ compose" in proc.stderr and "→" in proc.stderr
    assert "✓" not in proc.stdout and "LiteLLM" not in proc.stdout


def test_persona_file_supplies_the_panel():
    out, _ = run(QUESTION, "--mode", "quick", "--personas",
                 str(CASES / "personas" / "valid_list.yaml"), "--format", "json")
    names = [a.persona.name for a in DebateResult.model_validate_json(out).agents]
    assert names == ["Dana Reyes", "Kenji Watanabe", "Amara Okafor"]


def test_given_personas_first_the_rest_composed():
    out, _ = run(QUESTION, "--mode", "medium", "--personas",
                 str(CASES / "personas" / "valid_object.json"), "--format", "json")
    names = [a.persona.name for a in DebateResult.model_validate_json(out).agents]
    assert names[:2] == ["Lena Fischer", "Omar Haddad"] and len(names) == 5


def test_chinese_question_gets_chinese_headings():
    out, _ = run("我们的团队应该在明年把主要的数据仓库从自建 Hadoop 迁移到云数据仓库吗？",
                 "--mode", "quick")
    assert out.startswith("# 专家组综合结论")


def test_verbose_adds_the_transcript():
    out, _ = run(QUESTION, "--mode", "quick", "--verbose")
    assert "# Transcript" in out and "## premortem" in out and "## round 1" in out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["", "--mode", "quick"], "the question is empty"),
        (["   \n\t  "], "the question is empty"),
        (["Should we do it? " * 20000], "the limit is 20,000"),
        ([QUESTION, "--model", "nonsense-provider/x"], "unknown model 'nonsense-provider/x'"),
        ([QUESTION, "--agents", "13"], "--agents"),
        ([QUESTION, "--rounds", "0"], "--max-rounds"),
        ([QUESTION, "--protocol", "adversarial", "--decision-rule", "vote"],
         "--decision-rule: the adversarial protocol's panel takes no vote"),
        ([QUESTION, "--personas", str(CASES / "personas" / "invalid_missing_field.yaml")],
         "invalid_missing_field.yaml: persona 1 (B): field 'approach' is required"),
        ([QUESTION, "--personas", str(CASES / "personas" / "invalid_unknown_field.json")],
         "unknown field 'salary'"),
    ],
)
def test_bad_input_exits_2_with_a_one_line_reason(args, fragment):
    with pytest.raises(CommandError) as info:
        run(*args)
    assert info.value.returncode == 2
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_the_decision_rule_asked_for_is_followed_and_said(capsys):
    out, _ = run(QUESTION, "--mode", "quick", "--decision-rule", "debate", "--format", "json")
    result = json.loads(out)
    assert result["decision_rule"] == "debate" and result["decision_rule_source"] == "setting"
    final, decision = result["final_vote"], result["decision"]
    if final["plurality"] is not None:
        assert decision["option"] == final["plurality"]
    else:  # this seed's final vote ties: the independent vote breaks it, and says so
        assert decision["option"] in final["tied"] and decision["tie_break"] in ("vote", "order")
        assert "broken by" in decision["words"]


def test_bad_input_in_a_real_process_exits_2_and_prints_nothing_on_stdout():
    proc = run_process("   ")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "the question is empty" in proc.stderr


def test_a_debate_below_quorum_exits_1_naming_who_failed(tmp_path):
    script = tmp_path / "script.yaml"
    script.write_text(
        "agents:\n"
        "  - {name: Ann, position_confidence: 0.5, fail_in: [premortem]}\n"
        "  - {name: Bo, position_confidence: 0.6, fail_in: [premortem]}\n"
        "  - {name: Cy, position_confidence: 0.7}\n"
    )
    with pytest.raises(CommandError) as info:
        run(QUESTION, "--mode", "quick", "--sim-script", str(script))
    assert info.value.returncode == 1
    assert "below quorum" in str(info.value) and "Ann" in str(info.value)


@pytest.mark.django_db
def test_save_stores_the_debate_as_the_teams_record():
    from debates.models import Debate, DebateStatus
    from debates.selectors import round_measures

    out, err = run(QUESTION, "--mode", "quick", "--save", "--team", "Platform")
    debate = Debate.objects.get()
    assert debate.team.name == "Platform" and debate.status == DebateStatus.SUCCEEDED
    assert debate.turns.filter(phase="cross_exam").exists()
    assert out.startswith("# Council synthesis")
    assert f"saved as debate {debate.code}" in err
    stored = DebateResult.model_validate(debate.synthesis.result)
    assert stored.rounds_completed == len(round_measures(debate=debate)) - 1


@pytest.mark.django_db
def test_save_applies_the_teams_limits_before_anything_runs():
    from accounts.models import Team
    from debates.models import Debate

    Team.objects.create(name="Platform", monthly_budget_usd=20.0)
    with pytest.raises(CommandError) as refused:
        run(QUESTION, "--mode", "quick", "--model", "openai/no-such-model-anywhere",
            "--save", "--team", "Platform")
    assert refused.value.returncode == 2 and "Unpriced model" in str(refused.value)
    Team.objects.filter(name="Platform").update(debates_per_hour=0)
    with pytest.raises(CommandError, match="Rate limit"):
        run(QUESTION, "--mode", "quick", "--save", "--team", "Platform")
    assert not Debate.objects.exists()


def test_resume_stalled_command_reports_what_it_requeued(db):
    out = io.StringIO()
    call_command("resume_stalled", stdout=out)
    assert out.getvalue().strip() == "re-queued 0 debate(s)"


def test_help_documents_every_option_and_the_exit_codes():
    from debates.management.commands import debate as command

    parser = command.Command().create_parser("manage.py", "debate")
    text = parser.format_help()
    own = [a for a in parser._actions if a.dest not in (
        "help", "version", "verbosity", "settings", "pythonpath", "traceback", "no_color",
        "force_color", "skip_checks")]
    assert len(own) >= 18
    for action in own:
        assert action.help, f"{action.option_strings or action.dest} has no help text"
        for flag in action.option_strings:
            assert flag in text
    exit_codes = text.split("exit codes:")[1]
    for code in (0, command.EXIT_FAILED, command.EXIT_BAD_INPUT, command.EXIT_INTERRUPTED):
        assert f"\n  {code} " in exit_codes
    for mode, d in MODE_DEFAULTS.items():
        assert f"{mode.value} {d.agents}, {d.threshold:.2f}, {d.max_rounds}" in text
