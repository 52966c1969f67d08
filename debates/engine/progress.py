"""Console progress for the CLI: one line per finished step on stderr, plus a live
status line while a step runs when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from .hooks import EngineEvent, EngineHooks
from .llm.capabilities import uses_simulator
from .protocols import get_protocol
from .schemas import CallRecord, EngineEventKind, Phase, Turn, TurnStatus
from .state import DebateState


class ConsoleProgress(EngineHooks):
    def __init__(self, state: DebateState, stream: TextIO | None = None) -> None:
        self.state = state
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.calls: list[CallRecord] = []
        self.started = time.monotonic()
        self._step_started = self.started
        self._done = 0
        self._notes: list[str] = []

    def header(self) -> None:
        cfg = self.state.config
        sim = "  [simulated model: placeholder content]" if uses_simulator(cfg) else ""
        self._print(get_protocol(cfg.protocol).summary_line(self.state) + sim)

    def _print(self, line: str) -> None:
        if self.live:
            self.stream.write("\r\x1b[2K")
        self.stream.write(line + "\n")
        self.stream.flush()

    def _status(self, text: str) -> None:
        if self.live:
            self.stream.write(f"\r\x1b[2K… {text}")
            self.stream.flush()

    async def on_call(self, record: CallRecord) -> None:
        self.calls.append(record)
        if not record.ok and 0 <= record.agent < len(self.state.personas):
            name = self.state.personas[record.agent].name
            self._status(f"{name}: {record.error_class} (attempt {record.attempt})")

    async def on_turn(self, turn: Turn) -> None:
        # Keeps names resolvable when the runner works on its own copy of the state.
        self.state.add(turn)
        if turn.status is TurnStatus.FAILED:
            who = self.state.personas[turn.agent].name if turn.agent >= 0 else turn.phase.value
            self._notes.append(f"{who}: failed ({(turn.error or '')[:80]})")

    async def on_event(self, event: EngineEvent) -> None:
        if event.kind is EngineEventKind.STEP_STARTED:
            self._step_started = time.monotonic()
            self._done = 0
            self._notes = []
            self._status(f"{event.step} …")
        elif event.kind in (EngineEventKind.TURN_COMPLETED, EngineEventKind.TURN_FAILED):
            self._done += 1
            self._status(f"{event.step}  {self._done} done")
        elif event.kind is EngineEventKind.STEP_COMPLETED:
            self._print(self._step_line(event))

    def _step_line(self, event: EngineEvent) -> str:
        elapsed = time.monotonic() - self._step_started
        data = event.data
        status = data.get("status")
        mark = "✗" if status == "failed" or data.get("ok") == 0 else "✓"
        detail = ""
        if event.phase == "compose":
            detail = f"{len(self.state.personas)} personas"
        elif event.phase in ("synthesis", "verify"):
            detail = "failed" if status == "failed" else "done"
            if event.phase == "synthesis" and status != "failed":
                turn = self.state.turn(Phase(event.phase))
                if turn is not None and turn.model:
                    detail += f" ({turn.model})"
        else:
            detail = f"{data.get('ok')}/{data.get('of')}"
        metrics = data.get("metrics")
        if metrics and event.round == 0:
            detail += (f"   mean {metrics['mean_confidence']:.2f}"
                       f"  dispersion {metrics['dispersion']:.3f}")
        elif metrics:
            detail += (
                f"   mean {metrics['mean_confidence']:.2f}  disp {metrics['dispersion']:.3f}"
                f"  new {metrics['new_arguments']}  conc {metrics['concessions']}"
                f"  → {metrics['decision']}"
            )
        if data.get("status_line"):  # a protocol's own round summary
            detail += f"   {data['status_line']}"
        notes = f"   ({'; '.join(self._notes)})" if self._notes else ""
        return f"{mark} {event.step:<12} {detail:<60} {elapsed:5.1f} s{notes}"

    def wall_time(self) -> float:
        return time.monotonic() - self.started
