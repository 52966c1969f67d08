"""skills/council/SKILL.md is an installable agent skill (agentskills.io format)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

SKILL = Path(__file__).resolve().parents[2] / "skills" / "council" / "SKILL.md"


def test_frontmatter_names_the_skill_and_says_when_to_use_it():
    text = SKILL.read_text(encoding="utf-8")
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert match, "SKILL.md must start with YAML frontmatter"
    meta = yaml.safe_load(match.group(1))
    # The spec: name is lowercase letters, digits and hyphens, equal to the folder name;
    # the description (at most 1024 characters) says what it does and when to use it.
    assert meta["name"] == SKILL.parent.name and re.fullmatch(r"[a-z0-9-]{1,64}", meta["name"])
    assert 0 < len(meta["description"]) <= 1024 and "Use when" in meta["description"]
    body = text[match.end():]
    for must in ("stop_reason", "degraded", "unverified_claims", "/api/debates/",
                 "manage.py debate"):
        assert must in body, must
