"""``python -m debates.engine "QUESTION"``: the ``council`` command without installing it."""

from .cli import main

raise SystemExit(main(prog="python -m debates.engine"))
