"""litellm, imported once with the settings every use needs.

Kept apart from ``llm_env`` (which also registers the simulated provider) so the
simulator can subclass litellm's classes without importing ``llm_env``: the two would
otherwise import each other. Everything else imports litellm from ``llm_env``.
"""

from __future__ import annotations

import os

# litellm otherwise fetches the model cost map over the network at import time: slow,
# and it fails (or hangs) on machines without internet access.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import litellm  # noqa: E402

# On errors litellm prints a "Provider List" banner to stdout, which would corrupt the
# CLI's machine-readable stdout.
litellm.suppress_debug_info = True

__all__ = ["litellm"]
