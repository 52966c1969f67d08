"""A toy debate protocol, as a third-party plugin would ship it (docs/engine.md,
"Protocols"): one oracle answers in one step of a phase of its own, the simulator
answers its schema, and its page part is a template in its own folder.

It imports the engine's modules, not ``debates.engine`` itself: the engine loads its
plugins while that module is still being imported."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .protocol import ToyAnswer, ToyProtocol, simulated_answer


def register_protocols(register: Callable[[Any], Any]) -> None:
    register(ToyProtocol())


def register_sim_generators(register: Callable[[type, Any], None]) -> None:
    register(ToyAnswer, simulated_answer)
