"""``council`` / ``python -m debates.engine``: the debate command without Django.

The same report, progress and exit codes as ``manage.py debate`` (one implementation,
debates/engine/cli.py), no Django module loaded, and litellm's HTTP path to an
OpenAI-compatible server.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from debates.engine import cli
from debates.engine.protocols.council.schemas import DebateResult
from tests.engine.openai_stub import StubServer

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "fixtures" / "cases"
PERSONAS = str(CASES / "personas" / "valid_list.yaml")
QUESTION = "Should we split our Django monolith into microservices within 12 months?"


def engine(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(args), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def manage(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("debate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def run_module(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``python -X importtime -m debates.engine ARGS``: stderr also lists every import."""
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "debates.engine", *args],
                          cwd=ROOT, env={**os.environ, **(env or {})}, capture_output=True,
                          text=True, timeout=600)


def imported(stderr: str) -> set[str]:
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines()
            if line.startswith("import time:") and "|" in line}


def progress_lines(stderr: str) -> list[str]:
    """Progress without the timings and without -X importtime's lines."""
    return [re.sub(r"\s+[\d.]+ s$", "", line) for line in stderr.splitlines()
            if not line.startswith("import time:")]


def without_wall_time(markdown: str) -> str:
    return re.sub(r"· [\d.]+ s ·", "· N s ·", markdown)


@pytest.mark.parametrize("fmt", ["json", "md"])
def test_the_engine_entry_point_reports_what_manage_py_debate_reports(fmt):
    args = [QUESTION, "--mode", "quick", "--personas", PERSONAS, "--options",
            "split, stay, conditional", "--format", fmt, "--verbose", "--anonymize"]
    code, engine_out, engine_err = engine(*args)
    manage_out, manage_err = manage(*args)
    assert code == 0, engine_err
    if fmt == "json":
        ours, theirs = json.loads(engine_out), json.loads(manage_out)
        # The only difference a rerun makes: how long it took.
        ours["usage"].pop("wall_time_s"), theirs["usage"].pop("wall_time_s")
        assert ours == theirs
        assert DebateResult.model_validate(ours).agents[0].persona.name == "Dana Reyes"
    else:
        assert without_wall_time(engine_out) == without_wall_time(manage_out)
        assert engine_out.startswith("# Council synthesis\n")
    assert progress_lines(engine_err) == progress_lines(manage_err)
    assert "✓ verify" in engine_err


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["   "], "the question is empty"),
        ([QUESTION, "--agents", "13"], "--agents"),
        ([QUESTION, "--model", "nonsense-provider/x"], "unknown model 'nonsense-provider/x'"),
        ([QUESTION, "--personas", str(CASES / "personas" / "invalid_unknown_field.json")],
         "unknown field 'salary'"),
        ([QUESTION, "--options", "only-one"], "--options"),
        ([QUESTION, "--panel-models", "sim/a,nonsense-provider/x"],
         "--panel-models: unknown model 'nonsense-provider/x'"),
        ([QUESTION, "--save"], "python manage.py debate --save"),
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr_and_nothing_on_stdout(args, fragment):
    code, out, err = engine(*args)
    assert code == cli.EXIT_BAD_INPUT
    assert out == ""
    assert err.startswith("council: error: ") and fragment in err and err.count("\n") == 1


def test_the_same_bad_input_is_refused_by_manage_py_debate_with_the_same_reason():
    code, _, err = engine(QUESTION, "--agents", "13")
    with pytest.raises(CommandError) as info:
        manage(QUESTION, "--agents", "13")
    assert code == info.value.returncode == 2
    assert err.removeprefix("council: error: ").strip() == str(info.value)


def test_a_bad_model_settings_variable_exits_2_naming_it(monkeypatch):
    monkeypatch.setenv("COUNCIL_MODELS", '{"openai/x": {"output_mode": "yaml"}}')
    code, out, err = engine(QUESTION, "--mode", "quick")
    assert (code, out) == (2, "")
    assert "COUNCIL_MODELS" in err


def test_a_debate_below_quorum_exits_1_naming_who_failed(tmp_path):
    script = tmp_path / "script.yaml"
    script.write_text(
        "agents:\n"
        "  - {name: Ann, position_confidence: 0.5, fail_in: [premortem]}\n"
        "  - {name: Bo, position_confidence: 0.6, fail_in: [premortem]}\n"
        "  - {name: Cy, position_confidence: 0.7}\n"
    )
    code, out, err = engine(QUESTION, "--mode", "quick", "--sim-script", str(script))
    assert (code, out) == (cli.EXIT_FAILED, "")
    assert "below quorum" in err and "Ann" in err


def test_ctrl_c_during_the_debate_exits_130(monkeypatch):
    async def interrupted(state, hooks):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run_protocol", interrupted)
    code, out, err = engine(QUESTION, "--mode", "quick", "--personas", PERSONAS)
    assert (code, out) == (cli.EXIT_INTERRUPTED, "")
    assert "interrupted" in err


def test_a_real_process_runs_the_debate_without_importing_django():
    proc = run_module(QUESTION, "--mode", "quick", "--personas", PERSONAS, "--format", "json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert DebateResult.model_validate_json(proc.stdout).rounds_completed >= 1
    modules = imported(proc.stderr)
    assert "debates.engine.cli" in modules and "litellm" in modules
    project_outside_the_engine = ("council_site", "accounts", "view_kit", "site_edge", "api_kit")
    assert not {m for m in modules if m.split(".")[0] in ("django", *project_outside_the_engine)}
    assert "✓ synthesis" in proc.stderr


def test_a_bad_input_process_exits_2_before_importing_litellm_or_django():
    proc = run_module("   ")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "python -m debates.engine: error: the question is empty" in proc.stderr
    modules = imported(proc.stderr)
    assert not {m for m in modules if m.split(".")[0] in ("django", "litellm")}


def test_an_unknown_option_value_exits_2_with_argparse_usage():
    proc = subprocess.run([sys.executable, "-m", "debates.engine", QUESTION, "--mode", "huge"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "invalid choice: 'huge'" in proc.stderr


def test_a_debate_through_an_openai_compatible_server_goes_through_litellms_http_path():
    model = "openai/stub-model"
    server = StubServer("fills_optional").start()
    settings = {model: {"api_base": server.api_base, "api_key_env": "COUNCIL_TEST_KEY"}}
    try:
        proc = run_module(QUESTION, "--mode", "quick", "--rounds", "1", "--personas",
                          PERSONAS, "--model", model, "--format", "json",
                          env={"COUNCIL_MODELS": json.dumps(settings),
                               "COUNCIL_TEST_KEY": "sk-test"})
    finally:
        server.stop()
    requests = list(server.requests)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = DebateResult.model_validate_json(proc.stdout)
    assert not result.simulated and result.config.model == model
    assert requests and all(r["path"].rstrip("/") == "/v1/chat/completions" for r in requests)
    assert {r["body"]["model"] for r in requests} == {"stub-model"}
    assert not {m for m in imported(proc.stderr) if m.split(".")[0] == "django"}


def test_the_council_console_script_is_the_engine_command_line():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, name = scripts["council"].partition(":")
    assert getattr(importlib.import_module(module), name) is cli.entry


def test_the_entry_point_skips_teardown_but_runs_exit_handlers_and_keeps_the_exit_code():
    code = ("import atexit, sys; atexit.register(lambda: print('handler ran', file=sys.stderr))"
            "; from debates.engine.cli import entry; entry(['   '])")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "council: error: the question is empty" in proc.stderr
    assert proc.stderr.rstrip().endswith("handler ran")


def test_help_lists_every_option_of_manage_py_debate():
    from debates.management.commands import debate as command

    ours = cli.build_parser("council")
    theirs = command.Command().create_parser("manage.py", "debate")
    django_only = {"--version", "--verbosity", "--settings", "--pythonpath", "--traceback",
                   "--no-color", "--force-color", "--skip-checks", "-v"}
    assert set(ours._option_string_actions) == set(theirs._option_string_actions) - django_only
    text = ours.format_help()
    assert "exit codes:" in text and "python manage.py debate" not in text
    assert "manage.py debate only" in text


def test_a_mixed_panel_from_the_command_line_names_each_agent_s_model():
    code, out, _ = engine(QUESTION, "--mode", "quick", "--agents", "3",
                          "--panel-models", "sim/alpha, sim/beta", "--format", "json")
    assert code == 0
    result = DebateResult.model_validate_json(out)
    assert [a.persona.model for a in result.agents] == ["sim/alpha", "sim/beta", "sim/alpha"]
    assert result.config.panel_models == ["sim/alpha", "sim/beta"]

