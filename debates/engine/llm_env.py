"""The single place litellm is imported and configured.

Import litellm as ``from debates.engine.llm_env import litellm`` so the settings below
are always applied before first use.
"""

from __future__ import annotations

import os
from typing import Any

# litellm otherwise fetches the model cost map over the network at import time: slow,
# and it fails (or hangs) on machines without internet access.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import litellm  # noqa: E402

# On errors litellm prints a "Provider List" banner to stdout, which would corrupt the
# CLI's machine-readable stdout.
litellm.suppress_debug_info = True

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


# The simulator registers itself at the end of its own import; importing it here makes
# sure that any user of litellm gets ``sim/`` models, whichever module was imported first.
from debates.engine import simulator as _simulator  # noqa: E402, F401

__all__ = ["litellm", "register_sim_provider", "SIM_PROVIDER"]
