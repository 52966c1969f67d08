"""scripts/real_model_run.sh and scripts/record_transcript.py (docs/models.md's real-model
runs): the shell script runs in any clone with that clone's own venv and passes the
protocol on; the recorder runs the command line's debate and keeps every turn.

The shell script runs for real, from a copy of scripts/ in a temporary "clone", with a
fake python, node and curl first on PATH: no model, server or download is involved.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAKE_PYTHON = """#!/bin/sh
echo "$PWD|$*" >> "$FAKE_LOG"
if [ "$1" = "-" ]; then cat > /dev/null; exit 0; fi
echo '{}'
"""


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A checkout elsewhere: scripts/ copied, a venv python that logs how it was run."""
    root = tmp_path / "elsewhere"
    shutil.copytree(ROOT / "scripts", root / "scripts")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("node", "curl"):  # the server "starts" and "answers" at once
        (bin_dir / tool).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / tool).chmod(0o755)
    # node-llama-cpp counts as installed, so npm is never run.
    (tmp_path / "work" / "server" / "node_modules" / "node-llama-cpp").mkdir(parents=True)
    return root


def add_venv(root: Path) -> Path:
    python = root / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    return python


def run_script(root: Path, **env: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    tmp = root.parent
    log = tmp / "python.log"
    environ = {k: v for k, v in os.environ.items() if k != "PYTHON"}
    environ.update(PATH=f"{tmp / 'bin'}:{os.environ['PATH']}", WORK=str(tmp / "work"),
                   GGUF=str(tmp / "model.gguf"), FAKE_LOG=str(log), **env)
    done = subprocess.run(["bash", str(root / "scripts" / "real_model_run.sh"), "Why?"],
                          env=environ, capture_output=True, text=True, timeout=120)
    return done, log.read_text().splitlines() if log.exists() else []


def test_runs_the_debate_with_the_clones_own_venv_and_the_chosen_protocol(clone: Path):
    add_venv(clone)
    done, runs = run_script(clone, PROTOCOL="workflow")
    assert done.returncode == 0, done.stderr
    debate = [r for r in runs if "manage.py debate" in r]
    assert len(debate) == 1
    workdir, args = debate[0].split("|")
    assert workdir == str(clone)
    assert "--protocol workflow --mode quick" in args


def test_the_protocol_defaults_to_council(clone: Path):
    add_venv(clone)
    _, runs = run_script(clone)
    assert any("manage.py debate Why? --protocol council" in r for r in runs)


def test_a_clone_without_its_venv_is_told_where_the_python_should_be(clone: Path):
    done, runs = run_script(clone)
    assert done.returncode == 2
    assert f"no python at {clone}/.venv/bin/python" in done.stderr
    assert runs == []


def test_an_unknown_protocol_is_refused_before_anything_runs(clone: Path):
    add_venv(clone)
    done, runs = run_script(clone, PROTOCOL="tournament")
    assert done.returncode == 2
    assert "PROTOCOL must be council, adversarial or workflow" in done.stderr
    assert runs == []


def test_record_runs_the_recorder_with_the_same_debate_arguments(clone: Path):
    add_venv(clone)
    done, runs = run_script(clone, RECORD="out/rec.json", PROTOCOL="adversarial")
    assert done.returncode == 0, done.stderr
    recorder = [r for r in runs if "record_transcript.py" in r]
    assert len(recorder) == 1
    args = recorder[0].split("|")[1]
    assert f"{clone}/scripts/record_transcript.py --out " in args
    assert "rec.json --model-label smollm2 --server-label node Why? --protocol adversarial" \
        in args


def test_the_recorder_keeps_every_turn_and_prints_the_clis_result(tmp_path: Path):
    out = tmp_path / "rec.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "record_transcript.py"), "--out", str(out),
         "--model-label", "sim", "--server-label", "none", "Should we adopt Kafka?",
         "--protocol", "adversarial", "--mode", "quick", "--format", "json"],
        env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    recording = json.loads(out.read_text())
    assert recording["recorded"]["protocol"] == "adversarial"
    assert recording["config"]["mode"] == "quick"  # --mode is not taken for --model-label
    assert recording["result"] == json.loads(done.stdout)
    phases = {turn["phase"] for turn in recording["turns"]}
    assert {"propose", "critique"} <= phases
    assert recording["personas"] and recording["calls"]
