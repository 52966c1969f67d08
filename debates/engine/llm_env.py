"""The single place litellm is configured: its settings and the ``sim/`` provider.

Import litellm as ``from debates.engine.llm_env import litellm`` so the settings
(``litellm_base``) are always applied and ``sim/`` models registered before first use.
"""

from __future__ import annotations

from typing import Any

from debates.engine.litellm_base import litellm

SIM_PROVIDER = "sim"


def register_sim_provider(handler: Any) -> None:
    """Route ``sim/...`` models to ``handler``, keeping other custom providers intact."""
    entries = [
        entry
        for entry in (litellm.custom_provider_map or [])
        if entry.get("provider") != SIM_PROVIDER
    ]
    entries.append({"provider": SIM_PROVIDER, "custom_handler": handler})
    litellm.custom_provider_map = entries


# Registered here, not by the simulator itself, so the simulator needs no import of this
# module (no cycle); any user of litellm gets ``sim/`` models.
from debates.engine.simulator import handler as _sim_handler  # noqa: E402

register_sim_provider(_sim_handler)

__all__ = ["litellm", "register_sim_provider", "SIM_PROVIDER"]
