"""The protocol registry: every debate protocol the engine can run, by name.

As ``llm`` registers model providers, the engine registers protocols: the built-ins
and any third-party plugin through the same hook (``debates.engine.plugins``), in the
order the plugins list gives. The plugins load the first time the registry is asked
(``loading.plugins_needed``), not when the engine is imported. Callers (the CLI, the
durable execution, pages, exports) ask the registry for the protocol of a debate and
never branch on its name. See docs/engine.md, "Protocols".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..loading import plugins_needed
from ..state import register_view

if TYPE_CHECKING:
    from ..schemas import ProtocolResult
    from .base import DebateProtocol

_REGISTRY: dict[str, DebateProtocol] = {}


class UnknownProtocol(ValueError):
    pass


def register(protocol: DebateProtocol) -> DebateProtocol:
    """The plugins' ``register`` for protocols (never asks for the plugins itself)."""
    if protocol.name in _REGISTRY and type(_REGISTRY[protocol.name]) is not type(protocol):
        raise ValueError(f"protocol {protocol.name!r} is already registered")
    _REGISTRY[protocol.name] = protocol
    register_view(protocol.name, protocol.state_view)
    return protocol


def _registered() -> dict[str, DebateProtocol]:
    plugins_needed()
    return _REGISTRY


def known_protocols() -> list[str]:
    return list(_registered())


def check_protocol(name: str) -> str:
    if name not in _registered():
        raise UnknownProtocol(
            f"unknown protocol {name!r}; known protocols: {', '.join(known_protocols())}")
    return name


def get_protocol(name: str) -> DebateProtocol:
    return _registered()[check_protocol(name)]


def choices() -> list[tuple[str, str]]:
    """(name, label) of every registered protocol, in registration order (forms, CLI)."""
    return [(p.name, p.label) for p in _registered().values()]


def result_models() -> list[type[ProtocolResult]]:
    """The typed result of every registered protocol (the API's result schema)."""
    return [p.result_model for p in _registered().values()]
