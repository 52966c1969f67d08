"""Content checks (docs/engine.md, "Content checks"): whether a debate's words carry
content. Deterministic and cheap, no model call. Each rule has a name, a threshold and a
severity (``rules.py``), in a registry plugins add to; the text rules read every string
a turn holds (``text.py``, ``turns.py``), the panel rules read figures across turns
(``panel.py``), a plugin's rules bring their own check (``assess.py``), and
``verdict.py`` folds the reasons into one ``Quality``. The protocols say which turn is
the decision and hand over their figures; nothing here knows a protocol."""

from collections.abc import Callable

from ..hookspec import hookimpl
from .rules import BUILTIN_RULES, Finding, Rule, all_rules
from .turns import TextPolicy, TurnText, turn_reasons
from .verdict import verdict

__all__ = ["BUILTIN_RULES", "Finding", "Rule", "TextPolicy", "TurnText", "all_rules",
           "turn_reasons", "verdict"]


@hookimpl
def register_quality_rules(register: Callable[[Rule], None]) -> None:
    """The built-in rules, through the hook a plugin's rules use."""
    for rule in BUILTIN_RULES:
        register(rule)
