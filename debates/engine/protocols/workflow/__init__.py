"""The workflow protocol (docs/protocols.md 3): researcher, critic and synthesizer write
typed phase 1 analyses, discuss under checked contracts, a convergence check decides
on a phase 2b, and a synthesis closes it; ``report`` writes it out, ``simulated``
holds the simulated model's answers to its schemas. The hooks below are the plugin
hooks ``debates.engine.plugins`` calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...hookspec import hookimpl
from .protocol import WorkflowProtocol
from .simulated import GENERATORS


@hookimpl
def register_protocols(register: Callable[[Any], Any]) -> None:
    register(WorkflowProtocol())


@hookimpl
def register_sim_generators(register: Callable[[type, Any], None]) -> None:
    for schema, generator in GENERATORS.items():
        register(schema, generator)
