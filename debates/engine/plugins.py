"""The one registration point: the engine's plugins, built-in and third-party, loaded
through the same hooks, the way simonw/llm loads its default plugins.

A plugin is a module with any of these hooks, each given the function to register with:

- ``register_protocols(register)``: debate protocols, for ``protocols.registry``;
- ``register_sim_generators(register)``: the simulated model's answers to the
  plugin's schemas (``register(schema_class, generator)``), for ``sim.generate``;
- ``register_llm_providers(register)``: litellm custom providers
  (``register(name, handler_factory)``), for ``llm.loader``.

The built-ins are listed below, in the order they register (the council first: it is
the default protocol, and forms list protocols in this order); nothing depends on
import order. Third-party plugins are found by the entry-point group
``council.engine`` and load after them. ``debates/engine/__init__.py`` loads them all
once per process. This module is the only one that brings protocols, the simulator
and ``llm`` together: protocols and ``llm`` never import ``sim`` (import contract).
"""

from __future__ import annotations

import threading
from importlib.metadata import entry_points
from types import ModuleType

from . import sim
from .llm import loader
from .protocols import adversarial, council, registry, workflow
from .sim import generate

BUILTIN_PLUGINS: tuple[ModuleType, ...] = (council, adversarial, workflow, sim)
ENTRY_POINT_GROUP = "council.engine"

_lock = threading.Lock()
_loaded = False


def load_plugins() -> None:
    """Registers every plugin's protocols, generators and providers (once)."""
    global _loaded
    with _lock:
        if _loaded:
            return
        _loaded = True
        for plugin in (*BUILTIN_PLUGINS, *_installed()):
            load_plugin(plugin)


def load_plugin(plugin: object) -> None:
    """Calls whichever hooks ``plugin`` has."""
    hooks = (("register_protocols", registry.register),
             ("register_sim_generators", generate.register_generator),
             ("register_llm_providers", loader.register_provider))
    for hook, register in hooks:
        if hasattr(plugin, hook):
            getattr(plugin, hook)(register)


def _installed() -> list[object]:
    return [entry.load() for entry in entry_points(group=ENTRY_POINT_GROUP)]
