"""The debate engine: plain Python, no Django (docs/engine.md).

Importing any part of it loads the engine's plugins first (``plugins``): the built-in
protocols, their simulated answers and the ``sim/`` provider, then third-party ones,
the way ``llm`` loads its plugins when it is imported.
"""

from .plugins import load_plugins

load_plugins()
