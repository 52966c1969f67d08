"""The CLI figure: ``manage.py debate`` as a whole process against a local
OpenAI-compatible model (``model_stub``) at a fixed latency, and the engine alone.

The question is answered by 5 given personas in 4 rounds (the stub's varied answers
keep every round going), so the critical path is 8 sequential steps (premortem,
position, 4 rounds, synthesis, verifier) of one latency each. The whole process —
interpreter start, Django set-up, litellm's import, the debate, exit — is compared with
it (wall, CPU and peak RSS from ``wait4``). The engine figure runs the same debate in
this process, after a warm-up, from its first model call to the result.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from debates.bench.figures import Figure
from debates.bench.model_stub import ModelStub

ROOT = Path(__file__).resolve().parents[2]
MODEL = "openai/stub-model"
ROUNDS = 4
STEPS = 4 + ROUNDS  # premortem, position, the rounds, synthesis, verifier
QUESTION = "Should our 40-person SaaS company split its Django monolith into services?"
PERSONAS = [
    {"name": "Dana Reyes", "background": "CFO of two SaaS companies through acquisitions.",
     "expertise": "Unit economics, cash planning", "approach": "Models the downside first.",
     "bias": "Has watched two large rewrites burn a year of runway."},
    {"name": "Kenji Watanabe", "background": "Staff engineer who split a payments platform.",
     "expertise": "Distributed systems, operability", "approach": "Starts from failure modes.",
     "bias": "Believes most teams split too early."},
    {"name": "Amara Okafor", "background": "Product lead who grew a team from 3 to 60.",
     "expertise": "Team topology, delivery speed", "approach": "Thinks in lead time.",
     "bias": "Optimistic about reorganising around ownership."},
    {"name": "Lena Fischer", "background": "Head of customer support at a B2B SaaS company.",
     "expertise": "Escalations, service levels", "approach": "Asks what customers notice.",
     "bias": "Distrusts changes that risk uptime."},
    {"name": "Omar Haddad", "background": "Security architect for regulated fintech.",
     "expertise": "Threat modelling, compliance", "approach": "Lists an auditor's questions.",
     "bias": "Prefers fewer moving parts."},
]
TARGET_WALL_RATIO = 1.3
TARGET_ENGINE_RATIO = 1.05


def _models_setting(stub: ModelStub) -> dict[str, dict[str, str]]:
    return {MODEL: {"api_base": stub.api_base, "api_key_env": "COUNCIL_BENCH_STUB_KEY"}}


def run_cli(stub: ModelStub, *, root: Path = ROOT) -> dict[str, float]:
    """One ``manage.py debate`` process: wall, CPU, peak RSS and rounds run."""
    with tempfile.TemporaryDirectory(prefix="council-bench-cli-") as tmp:
        personas = Path(tmp) / "personas.json"
        personas.write_text(json.dumps(PERSONAS), encoding="utf-8")
        env = {**os.environ, "COUNCIL_MODELS": json.dumps(_models_setting(stub)),
               "COUNCIL_BENCH_STUB_KEY": "sk-bench", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        with open(Path(tmp) / "out.json", "w+b") as out, \
                open(Path(tmp) / "err.txt", "w+b") as err:
            started = time.monotonic()
            proc = subprocess.Popen(
                [sys.executable, "manage.py", "debate", QUESTION, "--personas", str(personas),
                 "--rounds", str(ROUNDS), "--model", MODEL, "--format", "json"],
                cwd=root, env=env, stdout=out, stderr=err)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.monotonic() - started
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode != 0:
                err.seek(0)
                raise RuntimeError(f"manage.py debate failed: {err.read()[-2000:]!r}")
            out.seek(0)
            result = json.loads(out.read())
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "rss_mib": usage.ru_maxrss / 1024, "rounds": result["rounds_completed"]}


# Where the whole process's time goes before the debate: each step alone, in a fresh
# interpreter (what the CLI pays before its first model call can start).
START_UP = {
    "interpreter start": "pass",
    "Django set-up": "import django; django.setup()",
    "litellm import": "import litellm",
}


def run_start_up(root: Path = ROOT) -> dict[str, float]:
    """Wall seconds of each ``START_UP`` step in its own interpreter."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "council_site.settings",
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    seconds = {}
    for step, code in START_UP.items():
        started = time.monotonic()
        subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=True)
        seconds[step] = time.monotonic() - started
    return seconds


def run_engine(stub: ModelStub) -> float:
    """Seconds from the engine's first model call to its result, in this process."""
    from debates.engine import capabilities
    from debates.engine.council import EngineHooks
    from debates.engine.persona_files import parse_personas
    from debates.engine.protocols import get_protocol, run_protocol
    from debates.engine.schemas import DebateConfig, usage_from_calls
    from debates.engine.state import DebateState

    os.environ.setdefault("COUNCIL_BENCH_STUB_KEY", "sk-bench")
    capabilities.configure({MODEL: capabilities.ModelSettings.model_validate(
        _models_setting(stub)[MODEL])})
    try:
        state = DebateState(question=QUESTION, given_personas=parse_personas(PERSONAS, "bench"),
                            config=DebateConfig(model=MODEL, max_rounds=ROUNDS))
        protocol = get_protocol(state.config.protocol)
        protocol.prepare(state)
        stub.first_request_at = None
        asyncio.run(run_protocol(state, EngineHooks()))
        failure = protocol.failure(state)
        if failure is not None:
            raise RuntimeError(f"the in-process debate failed: {failure}")
        protocol.build_result(state, usage_from_calls([], 0.0))
        finished = time.monotonic()
        if stub.first_request_at is None:
            raise RuntimeError("the engine called no model")
        return finished - stub.first_request_at
    finally:
        capabilities.configure(None)


def measure(latency_ms: int = 500, *, root: Path = ROOT) -> list[Figure]:
    latency = latency_ms / 1000
    critical = STEPS * latency
    with ModelStub(latency) as stub:
        cli = run_cli(stub, root=root)
        with ModelStub(0.0) as warm:
            run_engine(warm)  # litellm's import, learned output mode, first-call caches
        engine = run_engine(stub)
    start_up = run_start_up(root)
    if cli["rounds"] != ROUNDS:
        raise RuntimeError(f"the CLI debate ran {cli['rounds']} rounds, not {ROUNDS}")
    detail = (f"5 given personas, {ROUNDS} rounds, OpenAI-compatible stub at {latency_ms} ms, "
              f"critical path {critical:g} s")
    wall_ratio = cli["wall_s"] / critical
    engine_ratio = engine / critical
    return [
        Figure("cli", "CLI whole process: wall", cli["wall_s"], "s", detail=detail),
        Figure("cli", "CLI whole process: CPU", cli["cpu_s"], "s", detail=detail),
        Figure("cli", "CLI whole process: peak RSS", cli["rss_mib"], "MiB", detail=detail),
        Figure("cli", "CLI whole process: wall / critical path", wall_ratio, "×",
               target=f"≤ {TARGET_WALL_RATIO:g}×", ok=wall_ratio <= TARGET_WALL_RATIO,
               detail=detail),
        Figure("cli", "engine first call → result / critical path", engine_ratio, "×",
               target=f"≤ {TARGET_ENGINE_RATIO:g}×", ok=engine_ratio <= TARGET_ENGINE_RATIO,
               detail=f"{detail}; in-process, after a warm-up run"),
        *(Figure("cli", f"start-up alone: {step}", value, "s",
                 detail="wall, in a fresh interpreter (a step of the CLI's start-up)")
          for step, value in start_up.items()),
    ]
