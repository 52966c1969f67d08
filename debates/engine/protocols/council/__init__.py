"""The council protocol (docs/protocols.md 1): a panel composed for the question argues
through premortems, positions and cross-examination rounds until the stopping rule
(``convergence``) ends it; a synthesis and a verifier close it.

``steps`` runs one step, ``synthesis`` builds the result, ``report`` and
``transcript`` write it out, ``protocol`` presents all of it to the registry, and
``simulated`` holds the simulated model's answers to its schemas. The hooks below are
the plugin hooks ``debates.engine.plugins`` calls (third-party protocols have the same).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...hookspec import hookimpl
from .protocol import CouncilProtocol
from .simulated import GENERATORS


@hookimpl
def register_protocols(register: Callable[[Any], Any]) -> None:
    register(CouncilProtocol())


@hookimpl
def register_sim_generators(register: Callable[[type, Any], None]) -> None:
    for schema, generator in GENERATORS.items():
        register(schema, generator)
