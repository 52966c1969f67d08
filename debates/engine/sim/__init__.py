"""The built-in simulated model, a litellm custom provider (``sim/<name>`` models):
``simulator`` (the provider), ``generate`` (the generators protocols register, and
the kit they write with), ``phrases``, ``faults``, ``config`` (settings and scripts)
and ``data/`` (the wording, as YAML). See docs/simulator.md.

Importing this package imports neither litellm nor the provider: the hook below hands
``llm`` a factory, called when litellm is first used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..hookspec import hookimpl

PROVIDER = "sim"


def _handler() -> Any:
    # Imported when litellm is first handed out: the provider subclasses litellm's
    # classes, and litellm takes seconds to import.
    from .simulator import handler

    return handler


@hookimpl
def register_llm_providers(register: Callable[[str, Callable[[], Any]], None]) -> None:
    """The plugin hook ``debates.engine.plugins`` calls: ``sim/...`` models."""
    register(PROVIDER, _handler)
