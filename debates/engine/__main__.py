"""``python -m debates.engine "QUESTION"``: the ``council`` command without installing it."""

from .cli import entry

entry(prog="python -m debates.engine")
