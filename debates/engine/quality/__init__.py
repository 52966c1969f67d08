"""Content checks (docs/engine.md, "Content checks"): whether a debate's words carry
content. Deterministic and cheap, no model call. Each rule has a name, a threshold and a
severity (``rules.py``); the text rules read every string a turn holds (``text.py``,
``turns.py``), the panel rules read figures across turns (``panel.py``), and
``verdict.py`` folds the reasons into one ``Quality``. The protocols say which turn is
the decision and hand over their figures; nothing here knows a protocol."""

from .rules import RULES, Rule
from .turns import TextPolicy, TurnText, turn_reasons
from .verdict import verdict

__all__ = ["RULES", "Rule", "TextPolicy", "TurnText", "turn_reasons", "verdict"]
