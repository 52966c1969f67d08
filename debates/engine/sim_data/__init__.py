"""The simulated model's text banks, kept as YAML files so wording is data, not code.

``banks.yaml`` holds the sentence templates, ``personas.yaml`` the names and archetypes
of composed personas, ``words.yaml`` the word lists that find a question's own phrases.
Each file is read once per process, on first use (not at import: every process that
imports litellm imports the simulator). The files ship as package data
(pyproject.toml ``[tool.setuptools.package-data]``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

import yaml

_ROOT = Path(__file__).parent
LANGUAGES = ("en", "zh")

Bank = dict[str, list[str]]  # language -> templates
ClaimBank = dict[str, list[list[str]]]  # language -> claims, each a list of phrasings
SectionBank = dict[str, dict[str, list[str]]]  # language -> section -> templates


@dataclass(frozen=True)
class TextBanks:
    aspects: Bank
    stances: SectionBank
    reasons: Bank
    assumptions: Bank
    premortem_open: Bank
    premortem_middle: Bank
    premortem_close: Bank
    root_causes: Bank
    signals: Bank
    disagreements: ClaimBank
    concessions: ClaimBank
    evidence: ClaimBank
    reflections: Bank
    updated_positions: Bank
    consensus: Bank
    topics: Bank
    views: Bank
    follow_up_notes: dict[str, dict[str, str]]
    path: SectionBank
    divergence: SectionBank
    verifier_why: dict[str, str]
    junk_replies: list[str]


@dataclass(frozen=True)
class Archetype:
    key: str
    kind: str  # "skeptic", "frame" or "expert"
    expertise: dict[str, str]
    background: dict[str, str]
    approach: dict[str, str]
    bias: dict[str, str]


@dataclass(frozen=True)
class PersonaBanks:
    en_first: list[str]
    en_last: list[str]
    zh_surname: list[str]
    zh_given: list[str]
    archetypes: list[Archetype]


@dataclass(frozen=True)
class WordLists:
    en_stop: frozenset[str]
    zh_split: list[str]  # in file order


def _load(name: str) -> dict[str, Any]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available
    data = yaml.load((_ROOT / name).read_text(encoding="utf-8"), Loader=loader)
    if not isinstance(data, dict):
        raise ValueError(f"simulator data {name}: expected a mapping at the top level")
    return data


@cache
def text_banks() -> TextBanks:
    data = _load("banks.yaml")
    banks = TextBanks(**data)  # a missing or unknown bank is a TypeError naming it
    for spec in fields(TextBanks):
        value = getattr(banks, spec.name)
        if isinstance(value, dict) and set(value) != set(LANGUAGES):
            raise ValueError(f"simulator data banks.yaml: {spec.name} needs exactly {LANGUAGES}")
    return banks


@cache
def persona_banks() -> PersonaBanks:
    data = _load("personas.yaml")
    names = data["names"]
    return PersonaBanks(
        en_first=list(names["en"]["first"]),
        en_last=list(names["en"]["last"]),
        zh_surname=list(names["zh"]["surname"]),
        zh_given=list(names["zh"]["given"]),
        archetypes=[Archetype(**entry) for entry in data["archetypes"]],
    )


@cache
def word_lists() -> WordLists:
    data = _load("words.yaml")
    return WordLists(en_stop=frozenset(data["en_stop"].split()), zh_split=data["zh_split"].split())
