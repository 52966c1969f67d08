"""litellm: imported once, on demand, with the settings every use needs and the
custom providers registered.

litellm takes seconds to import (most of it building pydantic classes). Nothing that
only reads debates needs it, so the gateway asks for it at its first call
(``litellm_module``). A process that knows it will call a model soon (the CLI) calls
``preload`` first thing: the import then runs while the main thread sets up Django and
builds the debate, and the first call only waits for whatever is left of it.

Custom providers (the simulator's ``sim/``) are registered with ``register_provider``
by the engine's plugins (``debates.engine.plugins``, loaded when litellm is first handed
out) as a factory, so this package never imports a provider; the factory runs then.
``imported_litellm`` is litellm with its settings but without the providers: what a
provider itself builds on (its classes and errors).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ..loading import plugins_needed

_preloading: threading.Thread | None = None
_lock = threading.Lock()
_providers: dict[str, Callable[[], Any]] = {}
_registered: set[str] = set()


def imported_litellm() -> ModuleType:
    """litellm with the settings every use needs (no custom providers yet)."""
    # litellm otherwise fetches the model cost map over the network at import time:
    # slow, and it fails (or hangs) on machines without internet access.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    # An import statement, not importlib: ``-X importtime`` (the CLI's tests) only
    # reports modules imported by statements.
    import litellm
    # On errors litellm prints a "Provider List" banner to stdout, which would corrupt
    # the CLI's machine-readable stdout.
    litellm.suppress_debug_info = True
    return litellm


def register_provider(name: str, handler: Callable[[], Any]) -> None:
    """Route ``name/...`` models to the custom handler ``handler()`` returns (called
    when litellm is first handed out, so registering imports nothing)."""
    with _lock:
        _providers[name] = handler
        _registered.discard(name)


def _install_providers(litellm: Any) -> None:
    plugins_needed()
    with _lock:
        pending = {n: f for n, f in _providers.items() if n not in _registered}
        _registered.update(pending)
    if not pending:
        return
    entries = [e for e in (litellm.custom_provider_map or []) if e.get("provider") not in pending]
    entries += [{"provider": name, "custom_handler": factory()}
                for name, factory in pending.items()]
    litellm.custom_provider_map = entries


def _load_tokenizer() -> None:
    """The default tokenizer (tiktoken's file, parsed): the other one-off cost, paid by
    the first prompt that needs an exact count (before a synthesis, mid-debate)."""
    try:
        from litellm.litellm_core_utils.default_encoding import encoding  # noqa: F401
    except Exception:  # noqa: BLE001 - only a head start; counting loads it again
        pass


def _import_in_background() -> None:
    try:
        imported_litellm()
    except Exception:  # noqa: BLE001 - the main thread imports again and raises it
        return
    _load_tokenizer()


def warm() -> ModuleType:
    """litellm and its tokenizer, loaded now in this thread: a worker process calls it
    before it takes work, so no debate step pays for either (docs/performance.md)."""
    litellm = litellm_module()
    _load_tokenizer()
    return litellm


def preload() -> None:
    """Start importing litellm on a daemon thread (once per process)."""
    global _preloading
    import sys

    with _lock:
        if _preloading is not None or "litellm" in sys.modules:
            return
        _preloading = threading.Thread(target=_import_in_background, name="litellm-preload",
                                       daemon=True)
        _preloading.start()


def litellm_module() -> ModuleType:
    """litellm, configured, with every registered provider; waits for a preload still
    in flight (a failed background import raises its error here)."""
    if _preloading is not None and _preloading.is_alive():
        _preloading.join()
    litellm = imported_litellm()
    _install_providers(litellm)
    return litellm
