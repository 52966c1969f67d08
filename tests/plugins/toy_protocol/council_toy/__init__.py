"""A toy debate protocol, as a third-party plugin would ship it (docs/engine.md,
"Plugins"): one oracle answers in one step of a phase of its own, with a prompt file of
its own (``prompts/oracle.md``), the simulator answers its schema, a content rule of its
own judges its result, its phase is worded in its own catalogue (``locale/``) and its
page part is a template in its own folder.

It imports nothing but the engine's face, ``debates.engine``: the engine loads its
plugins the first time it is asked for one, after the face is imported."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from debates.engine import hookimpl

from .protocol import UNHEDGED, ToyAnswer, ToyProtocol, simulated_answer


@hookimpl
def register_protocols(register: Callable[[Any], Any]) -> None:
    register(ToyProtocol())


@hookimpl
def register_sim_generators(register: Callable[[type, Any], None]) -> None:
    register(ToyAnswer, simulated_answer)


@hookimpl
def register_quality_rules(register: Callable[[Any], None]) -> None:
    register(UNHEDGED)
