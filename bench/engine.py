"""Area "engine": a debate's wall time against its critical path, per mode, in one
process with the simulator (no database, no worker).

With a simulated latency L per call, a debate can finish no faster than one L per
sequential step (compose, premortem, position, each round, synthesis, verifier);
running the agents of a step one after another would cost agents x that. The ratio
wall / critical path shows how close the engine gets.
"""

from __future__ import annotations

import asyncio
import resource
import time
import tracemalloc
from dataclasses import dataclass

from bench.figures import Figure
from debates.engine import (
    CallRecord,
    DebateState,
    EngineHooks,
    Mode,
    SimulatorOptions,
    get_protocol,
    resolve_config,
    run_protocol,
)

AREA = "engine"
LATENCY_MS = 500
RATIO_TARGET = 1.05
QUESTION = ("Our 40-person B2B SaaS company runs a 6-year-old Django monolith. Should we "
            "split it into microservices during the next 12 months?")


class _Counter(EngineHooks):
    def __init__(self) -> None:
        self.calls: list[CallRecord] = []

    async def on_call(self, record: CallRecord) -> None:
        self.calls.append(record)


@dataclass(frozen=True)
class Run:
    mode: str
    agents: int
    rounds: int
    calls: int
    wall_s: float
    critical_path_s: float
    sequential_s: float
    peak_python_mib: float

    @property
    def ratio(self) -> float:
        return self.wall_s / self.critical_path_s if self.critical_path_s else float("nan")


def run_one(mode: Mode, latency_ms: int, seed: int = 7, *, trace_heap: bool = False) -> Run:
    """One debate. ``trace_heap`` measures the peak Python heap, but tracemalloc hooks
    every allocation and makes the engine's CPU work several times slower (0.12 s →
    0.69 s for a medium debate), so a timed run must not trace."""
    config = resolve_config(mode=mode, seed=seed,
                            simulator=SimulatorOptions(latency_ms=latency_ms, seed=seed))
    state = DebateState(question=QUESTION, config=config)
    hooks = _Counter()
    if trace_heap:
        tracemalloc.start()
    started = time.perf_counter()
    asyncio.run(run_protocol(state, hooks))
    wall = time.perf_counter() - started
    peak = 0
    if trace_heap:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    rounds = get_protocol(config.protocol).rounds_run(state)
    steps = 5 + rounds  # compose, premortem, position, rounds, synthesis, verify
    return Run(mode=mode.value, agents=len(state.personas), rounds=rounds,
               calls=len(hooks.calls), wall_s=wall, critical_path_s=steps * latency_ms / 1000,
               sequential_s=len(hooks.calls) * latency_ms / 1000, peak_python_mib=peak / 2**20)


def measure(latency_ms: int = LATENCY_MS,
            modes: tuple[Mode, ...] = (Mode.QUICK, Mode.MEDIUM, Mode.DEEP)) -> list[Figure]:
    run_one(Mode.QUICK, 0)  # warm-up: first-call imports and tokenizer loading
    figures = []
    for mode in modes:
        run = run_one(mode, latency_ms)
        # The heap in a separate run without latency: same calls and concurrency, untimed.
        heap = run_one(mode, 0, trace_heap=True)
        detail = (f"{run.agents} agents, {run.rounds} round(s), {run.calls} calls, "
                  f"L = {latency_ms} ms; critical path {run.critical_path_s:.2f} s, one call "
                  f"at a time {run.sequential_s:.2f} s, wall {run.wall_s:.2f} s, "
                  f"peak Python heap {heap.peak_python_mib:.1f} MiB")
        figures.append(Figure(AREA, f"{run.mode} debate, wall / critical path", run.ratio, "×",
                              f"≤ {RATIO_TARGET}", run.ratio <= RATIO_TARGET, detail))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures.append(Figure(AREA, "process max RSS (Django, litellm, engine)", rss, "MiB",
                          detail="the bench process itself"))
    return figures
