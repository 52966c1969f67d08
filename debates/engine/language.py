"""Which language a question is in: the answer language of agents and reports."""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def detect_language(text: str) -> str:
    """``zh`` when more than 20 % of the letters are CJK ideographs, else ``en``."""
    letters = [c for c in text if c.isalpha()]
    if letters and sum(1 for c in letters if CJK.match(c)) / len(letters) > 0.2:
        return "zh"
    return "en"
