"""litellm on demand, optionally imported ahead of time on a background thread.

litellm takes seconds to import (most of it building pydantic classes). Nothing that
only reads debates needs it, so the gateway asks for it at its first call
(``litellm_module``). A process that knows it will call a model soon (the CLI) calls
``preload`` first thing: the import then runs while the main thread sets up Django and
builds the debate, and the first call only waits for whatever is left of it.
"""

from __future__ import annotations

import importlib
import sys
import threading
from types import ModuleType

_MODULE = "debates.engine.llm_env"
_preloading: threading.Thread | None = None
_lock = threading.Lock()


def _import_in_background() -> None:
    try:
        importlib.import_module(_MODULE)
    except Exception:  # noqa: BLE001 - the main thread imports again and raises it
        return
    try:
        # The default tokenizer (tiktoken's file, parsed) is the first call's other
        # one-off cost when a prompt needs an exact count.
        from litellm.litellm_core_utils.default_encoding import encoding  # noqa: F401
    except Exception:  # noqa: BLE001 - only a head start; counting loads it again
        pass


def preload() -> None:
    """Start importing litellm on a daemon thread (once per process)."""
    global _preloading
    with _lock:
        if _preloading is not None or _MODULE in sys.modules:
            return
        _preloading = threading.Thread(target=_import_in_background, name="litellm-preload",
                                       daemon=True)
        _preloading.start()


def litellm_module() -> ModuleType:
    """litellm, configured by ``llm_env``; waits for a preload still in flight."""
    env = sys.modules.get(_MODULE)
    if env is None or _preloading is not None and _preloading.is_alive():
        if _preloading is not None:
            _preloading.join()
        # A failed background import left no module behind: this raises its error here.
        env = importlib.import_module(_MODULE)
    return env.litellm
