"""What a plugin can register, as pluggy hook specifications (docs/engine.md, "Plugins").

A plugin is a module whose functions carry ``@hookimpl`` (exported by the engine's
face) under these names. The built-ins (the three protocols, the simulated model, the
content rules) register through the same hooks. Every hook is given the function to
register with, the way simonw/llm's ``register_models(register)`` is; the hooks are
historic, so a plugin registered after the first load is called at once with the same
``register``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

PROJECT = "council"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec(historic=True)
def register_protocols(register: Callable[[Any], Any]) -> None:
    """``register(protocol)``: a ``DebateProtocol`` instance, under its ``name``."""


@hookspec(historic=True)
def register_sim_generators(register: Callable[[type, Callable[..., Any]], None]) -> None:
    """``register(schema_class, generator)``: the simulated model's answer to a schema
    (``generator(call_context) -> dict``)."""


@hookspec(historic=True)
def register_llm_providers(register: Callable[[str, Callable[[], Any]], None]) -> None:
    """``register(name, handler_factory)``: a litellm custom provider for ``name/...``
    models; the factory runs when litellm is first handed out."""


@hookspec(historic=True)
def register_quality_rules(register: Callable[[Any], None]) -> None:
    """``register(rule)``: a content rule (``QualityRule``: name, severity, threshold,
    why and, for a plugin's, the check over a result and its state)."""
