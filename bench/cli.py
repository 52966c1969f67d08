"""The CLI figures: each command-line entry point as a whole process against a local
OpenAI-compatible model (``model_stub``) at a fixed latency, and the engine alone.

The question is answered by 5 given personas in 4 rounds (the stub's varied answers
keep every round going), so the critical path is 8 sequential steps (premortem,
position, 4 rounds, synthesis, verifier) of one latency each. Each entry point —
``manage.py debate`` (Django's set-up first) and ``python -m debates.engine`` (the
``council`` script: no Django) — runs as a whole process (wall, CPU and peak RSS from
``wait4``). Its start-up overhead is what the process spends outside its model calls:
wall minus first call → last reply (the stub's clock), split into start → first call
and last reply → exit. Agent Council (the reference) is measured the same way when
``COUNCIL_BENCH_AC_PYTHON`` names a Python that has ``agent_council`` installed. The
engine figure runs the same debate in this process, after a warm-up, from its first
model call to the result.
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

from bench.figures import Figure
from bench.model_stub import ModelStub

ROOT = Path(__file__).resolve().parents[1]
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
TARGET_ENGINE_RATIO = 1.05
# Issue 39: start → first model call at most this many times Agent Council's, in the
# same run (docs/performance.md, "Start → first call beside Agent Council").
TARGET_START_RATIO = 1.5
# Runs of each whole process; the figures are the run with the least overhead.
REPEATS = 2


def _models_setting(stub: ModelStub) -> dict[str, dict[str, str]]:
    return {MODEL: {"api_base": stub.api_base, "api_key_env": "COUNCIL_BENCH_STUB_KEY"}}


ENTRY_POINTS = {
    "manage.py debate": ["manage.py", "debate"],
    "council (python -m debates.engine)": ["-m", "debates.engine"],
}
AC = "Agent Council (reference)"
AC_PYTHON_ENV = "COUNCIL_BENCH_AC_PYTHON"


def _timed_process(stub: ModelStub, argv: list[str], env: dict[str, str], cwd: Path,
                   tmp: Path) -> dict[str, float | str]:
    """Runs ``argv`` to its end: wall, CPU, peak RSS, and where the wall went around
    the model calls; ``stdout`` holds what it printed, ``stub.bodies`` what it sent."""
    stub.first_request_at = stub.last_reply_at = None
    stub.bodies.clear()
    with open(tmp / "out.txt", "w+b") as out, open(tmp / "err.txt", "w+b") as err:
        started = time.monotonic()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        ended = time.monotonic()
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise RuntimeError(f"{argv[:4]} failed: {err.read()[-2000:]!r}")
        out.seek(0)
        stdout = out.read().decode()
    first, last = stub.first_request_at, stub.last_reply_at
    if first is None or last is None:
        raise RuntimeError(f"{argv[:4]} called no model")
    wall = ended - started
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "rss_mib": usage.ru_maxrss / 1024, "to_first_call_s": first - started,
            "after_last_reply_s": ended - last, "overhead_s": wall - (last - first),
            "stdout": stdout}


def run_cli(stub: ModelStub, entry: list[str] | None = None, *, root: Path = ROOT,
            output_mode: str = "auto", composed: bool = False) -> dict[str, float | str]:
    """One debate process of ``entry`` (default ``manage.py debate``): its timings and
    the rounds it ran (``output_mode``: the model's setting; ``composed``: the panel
    composed by the model, not given)."""
    with tempfile.TemporaryDirectory(prefix="council-bench-cli-") as tmp:
        personas = Path(tmp) / "personas.json"
        personas.write_text(json.dumps(PERSONAS), encoding="utf-8")
        setting = {MODEL: {**_models_setting(stub)[MODEL], "output_mode": output_mode}}
        env = {**os.environ, "COUNCIL_MODELS": json.dumps(setting),
               "COUNCIL_BENCH_STUB_KEY": "sk-bench", "LITELLM_LOCAL_MODEL_COST_MAP": "True",
               "PYTHONPATH": str(root)}
        panel = [] if composed else ["--personas", str(personas)]
        figures = _timed_process(
            stub, [sys.executable, *(entry or ENTRY_POINTS["manage.py debate"]), QUESTION,
                   *panel, "--rounds", str(ROUNDS), "--model", MODEL,
                   "--format", "json"], env, root, Path(tmp))
    figures["rounds"] = json.loads(str(figures.pop("stdout")))["rounds_completed"]
    return figures


def run_ac(stub: ModelStub, python: str, *, composed: bool = False
           ) -> dict[str, float | str]:
    """Agent Council's CLI on the same question and personas (its medium mode), through
    the same stub: it speaks to an OpenAI-compatible endpoint through pydantic-ai
    (``composed``: it composes its own panel of 5, one call)."""
    with tempfile.TemporaryDirectory(prefix="council-bench-ac-") as tmp:
        personas = Path(tmp) / "personas.json"
        personas.write_text(json.dumps(PERSONAS), encoding="utf-8")
        env = {**os.environ, "AGENT_COUNCIL_API_KEY": "sk-bench",
               "AGENT_COUNCIL_MODEL": "openai-chat:stub-model",
               "AGENT_COUNCIL_BASE_URL": stub.api_base}
        panel = [] if composed else ["--persona-file", str(personas)]
        figures = _timed_process(
            stub, [python, "-m", "agent_council", QUESTION, *panel, "--json"], env,
            Path(tmp), Path(tmp))
    figures.pop("stdout")
    return figures


# Where the whole process's time goes before the debate: each step alone, in a fresh
# interpreter (what the CLI pays before its first model call can start).
START_UP = {
    "interpreter start": "pass",
    "Django set-up": "import django; django.setup()",
    "the engine's command-line modules": "import debates.engine.cli",
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


def run_engine(stub: ModelStub, sources: list | None = None, *,
               output_mode: str = "auto", composed: bool = False,
               mode: str = "medium") -> float:
    """Seconds from the engine's first model call to its result, in this process
    (``sources``: the debate's SourceDocuments, for the ``sources`` area;
    ``output_mode``: the model's setting, ``auto`` probes as for any unknown model;
    ``composed``: the panel composed by the model instead of the given personas;
    ``mode``: the debate's mode, e.g. ``deep`` for 7 agents with a composed panel)."""
    from debates.engine import (
        DebateState,
        EngineHooks,
        ModelSettings,
        configure_models,
        get_protocol,
        parse_personas,
        resolve_config,
        run_protocol,
        usage_from_calls,
    )

    os.environ.setdefault("COUNCIL_BENCH_STUB_KEY", "sk-bench")
    configure_models({MODEL: ModelSettings.model_validate(
        {**_models_setting(stub)[MODEL], "output_mode": output_mode})})
    try:
        given = [] if composed else parse_personas(PERSONAS, "bench")
        state = DebateState(question=QUESTION, given_personas=given,
                            config=resolve_config(model=MODEL, max_rounds=ROUNDS, mode=mode),
                            sources=list(sources or []))
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
        configure_models(None)


def _least_overhead(runs: list[dict[str, float | str]]) -> dict[str, float | str]:
    """The run with the least time outside its calls: the others lost time to the
    machine's other work, not to the process."""
    return min(runs, key=lambda run: float(run["overhead_s"]))


def _process_figures(label: str, run: dict[str, float | str], detail: str) -> list[Figure]:
    def value(key: str) -> float:
        return float(run[key])

    return [
        Figure("cli", f"{label}: start-up overhead (wall − first call → last reply)",
               value("overhead_s"), "s", detail=detail),
        Figure("cli", f"{label}: start → first call", value("to_first_call_s"), "s",
               detail=detail),
        Figure("cli", f"{label}: last reply → exit", value("after_last_reply_s"), "s",
               detail=detail),
        Figure("cli", f"{label}: wall", value("wall_s"), "s", detail=detail),
        Figure("cli", f"{label}: CPU", value("cpu_s"), "s", detail=detail),
        Figure("cli", f"{label}: peak RSS", value("rss_mib"), "MiB", detail=detail),
    ]


def _start_ratios(runs: dict[str, dict[str, float | str]], ac: dict[str, float | str],
                  best: str) -> list[Figure]:
    """Each entry point's start → first call against Agent Council's, same run."""
    reference = float(ac["to_first_call_s"])
    load = os.getloadavg()[0]
    figures = []
    for label, run in runs.items():
        ratio = float(run["to_first_call_s"]) / reference
        figures.append(Figure(
            "cli", f"{label}: start → first call ÷ Agent Council's", ratio, "×",
            target=f"≤ {TARGET_START_RATIO:g}×", ok=ratio <= TARGET_START_RATIO,
            detail=f"{float(run['to_first_call_s']):.2f} s against {reference:.2f} s; {best}; "
                   f"load {load:.1f} when measured"))
    return figures


def measure(latency_ms: int = 500, *, root: Path = ROOT) -> list[Figure]:
    latency = latency_ms / 1000
    critical = STEPS * latency
    ac_python = os.environ.get(AC_PYTHON_ENV)
    tries: dict[str, list[dict[str, float | str]]] = {label: [] for label in ENTRY_POINTS}
    ac_tries: list[dict[str, float | str]] = []
    with ModelStub(latency) as stub:
        # Interleaved, so a busy moment of the machine does not fall on one of them only.
        for _ in range(REPEATS):
            for label, entry in ENTRY_POINTS.items():
                tries[label].append(run_cli(stub, entry, root=root))
            if ac_python:
                ac_tries.append(run_ac(stub, ac_python))
        with ModelStub(0.0) as warm:
            run_engine(warm)  # litellm's import, learned output mode, first-call caches
        engine = run_engine(stub)
    start_up = run_start_up(root)
    runs = {label: _least_overhead(runs) for label, runs in tries.items()}
    ac = _least_overhead(ac_tries) if ac_tries else None
    for label, run in runs.items():
        if run["rounds"] != ROUNDS:
            raise RuntimeError(f"{label} ran {run['rounds']} rounds, not {ROUNDS}")
    detail = (f"5 given personas, {ROUNDS} rounds, OpenAI-compatible stub at {latency_ms} ms, "
              f"critical path {critical:g} s")
    engine_ratio = engine / critical
    best = f"least overhead of {REPEATS} interleaved runs"
    return [
        *(figure for label, run in runs.items()
          for figure in _process_figures(label, run, f"{detail}; {best}")),
        *(_process_figures(AC, ac, f"the same stub and personas, its medium mode "
                                   f"(its own rounds and calls), {latency_ms} ms a call; {best}")
          if ac else []),
        *(_start_ratios(runs, ac, best) if ac else []),
        Figure("cli", "engine first call → result / critical path", engine_ratio, "×",
               target=f"≤ {TARGET_ENGINE_RATIO:g}×", ok=engine_ratio <= TARGET_ENGINE_RATIO,
               detail=f"{detail}; in-process, after a warm-up run"),
        *(Figure("cli", f"start-up alone: {step}", value, "s",
                 detail="wall, in a fresh interpreter (a step of the CLI's start-up)")
          for step, value in start_up.items()),
    ]
