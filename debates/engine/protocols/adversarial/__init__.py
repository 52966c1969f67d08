"""The adversarial protocol (docs/protocols.md 2): a proposer revises a solution under a
critic's issues (ids, severities, resolutions: ``issues``) in a domain detected from
the question (``domains``) until no red and at most one yellow issue stays open;
``report`` writes it out, ``simulated`` holds the simulated model's answers to its
schemas. The hooks below are the plugin hooks ``debates.engine.plugins`` calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...hookspec import hookimpl
from .protocol import AdversarialProtocol
from .simulated import GENERATORS


@hookimpl
def register_protocols(register: Callable[[Any], Any]) -> None:
    register(AdversarialProtocol())


@hookimpl
def register_sim_generators(register: Callable[[type, Any], None]) -> None:
    for schema, generator in GENERATORS.items():
        register(schema, generator)
