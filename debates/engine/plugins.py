"""The one registration point: the engine's plugins, built-in and third-party, through
pluggy's hooks (``hookspec.py``), the way simonw/llm loads its plugins.

A plugin is a module with ``@hookimpl`` functions named after the hooks:
``register_protocols``, ``register_sim_generators``, ``register_llm_providers``,
``register_quality_rules`` (docs/engine.md, "Plugins"). The built-ins are listed below
in the order they register (the council first: it is the default protocol, and forms
list protocols in this order); third-party plugins are found by the entry-point group
``council.engine`` and register after them.

Nothing loads when the engine is imported: the registries ask for the plugins the first
time they are asked themselves (``loading.plugins_needed``), once per process, under a
lock. By then the engine's face is imported, so a plugin imports only the face. This
module is the only one that brings protocols, the simulator and ``llm`` together:
protocols and ``llm`` never import ``sim`` (import contract).
"""

from __future__ import annotations

import threading
from types import ModuleType

import pluggy

from . import hookspec, quality, sim
from .llm import loader
from .protocols import adversarial, council, registry, workflow
from .quality.rules import register_rule
from .sim import generate

BUILTIN_PLUGINS: tuple[ModuleType, ...] = (council, adversarial, workflow, sim, quality)
ENTRY_POINT_GROUP = "council.engine"

_lock = threading.RLock()
_manager: pluggy.PluginManager | None = None
_loading = False


def load_plugins() -> None:
    """Registers every plugin's protocols, generators, providers and rules (once; a
    call made while they load, from a hook, returns at once)."""
    global _manager, _loading
    if _manager is not None:
        return
    with _lock:
        if _manager is not None or _loading:
            return
        _loading = True
        try:
            _manager = _loaded_manager()
        finally:
            _loading = False


def _loaded_manager() -> pluggy.PluginManager:
    manager = pluggy.PluginManager(hookspec.PROJECT)
    manager.add_hookspecs(hookspec)
    manager.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    # pluggy calls the last registered first: the built-ins register after the
    # installed plugins, in reverse, so their hooks run first and in the listed order.
    for plugin in reversed(BUILTIN_PLUGINS):
        manager.register(plugin)
    hook = manager.hook
    hook.register_protocols.call_historic(kwargs={"register": registry.register})
    hook.register_sim_generators.call_historic(
        kwargs={"register": generate.register_generator})
    hook.register_llm_providers.call_historic(kwargs={"register": loader.register_provider})
    hook.register_quality_rules.call_historic(kwargs={"register": register_rule})
    return manager


def load_plugin(plugin: object) -> None:
    """Registers one more plugin: its hooks run at once (the hooks are historic)."""
    load_plugins()
    assert _manager is not None
    _manager.register(plugin)


def installed() -> list[object]:
    """The third-party plugins, loaded through the entry points."""
    load_plugins()
    assert _manager is not None
    return [plugin for plugin, _distribution in _manager.list_plugin_distinfo()]
