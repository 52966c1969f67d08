"""``manage.py bench``: wall time against the critical path, and memory, per mode.

With a simulated latency L per call, a debate can finish no faster than one L per
sequential step (compose, premortem, position, each round, synthesis, verifier);
running the agents of a step one after another would cost agents x that. The
ratio wall / critical path shows how close the engine gets. Results are recorded
in docs/benchmarks.md.
"""

from __future__ import annotations

import asyncio
import resource
import time
import tracemalloc
from typing import Any

from django.core.management.base import BaseCommand

from debates.engine.council import EngineHooks, run_debate
from debates.engine.schemas import CallRecord, DebateConfig, Mode, SimulatorOptions
from debates.engine.state import DebateState

QUESTION = ("Our 40-person B2B SaaS company runs a 6-year-old Django monolith. Should we "
            "split it into microservices during the next 12 months?")


class _Counter(EngineHooks):
    def __init__(self) -> None:
        self.calls: list[CallRecord] = []

    async def on_call(self, record: CallRecord) -> None:
        self.calls.append(record)


def measure(mode: Mode, latency_ms: int, seed: int = 7) -> dict[str, Any]:
    config = DebateConfig(mode=mode, seed=seed,
                          simulator=SimulatorOptions(latency_ms=latency_ms, seed=seed))
    state = DebateState(question=QUESTION, config=config)
    hooks = _Counter()
    tracemalloc.start()
    started = time.perf_counter()
    asyncio.run(run_debate(state, hooks))
    wall = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    steps = 5 + state.completed_rounds  # compose, premortem, position, rounds, synthesis, verify
    critical = steps * latency_ms / 1000
    sequential = len(hooks.calls) * latency_ms / 1000
    return {"mode": mode.value, "agents": len(state.personas), "rounds": state.completed_rounds,
            "calls": len(hooks.calls), "wall_s": wall, "critical_path_s": critical,
            "ratio": wall / critical if critical else float("nan"), "sequential_s": sequential,
            "peak_python_mib": peak / 2**20}


class Command(BaseCommand):
    help = "Measure debate wall time against its critical path with simulated latency."

    def add_arguments(self, parser):
        parser.add_argument("--latency-ms", type=int, default=500)
        parser.add_argument("--modes", default="quick,medium,deep")

    def handle(self, *args, **opts):
        measure(Mode.QUICK, 0)  # warm-up: first-call imports and tokenizer loading
        rows = [measure(Mode(m), opts["latency_ms"]) for m in opts["modes"].split(",")]
        out = self.stdout
        out.write(f"Simulated latency L = {opts['latency_ms']} ms per call\n\n")
        out.write("| mode | agents | rounds | calls | wall (s) | critical path (s) | "
                  "wall / critical | one-at-a-time (s) | peak Python heap (MiB) |\n")
        out.write("|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            out.write(f"| {r['mode']} | {r['agents']} | {r['rounds']} | {r['calls']} | "
                      f"{r['wall_s']:.2f} | {r['critical_path_s']:.2f} | {r['ratio']:.2f} | "
                      f"{r['sequential_s']:.2f} | {r['peak_python_mib']:.1f} |\n")
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        out.write(f"\nProcess max RSS: {rss:.0f} MiB (includes Django and litellm)\n")
