"""Plugins load the first time a registry is asked (docs/engine.md, "Plugins").

The registries (protocols, simulated answers, model providers, content rules, phases,
state views) call ``plugins_needed()`` before they answer. They sit below
``plugins.py``, which imports the built-ins that fill them, so they cannot import it
(import contract: no cycle); the face hands the loader in (``load_with``) when it is
imported, before anything can ask.
"""

from __future__ import annotations

from collections.abc import Callable

_load: Callable[[], None] | None = None


def load_with(load: Callable[[], None]) -> None:
    """``load`` runs on every ask and must itself do its work once (``load_plugins``)."""
    global _load
    _load = load


def plugins_needed() -> None:
    if _load is not None:
        _load()
