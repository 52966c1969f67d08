"""The simulated model's text banks, kept as YAML files so wording is data, not code.

``banks.yaml`` holds the sentence templates, ``personas.yaml`` the names and archetypes
of composed personas, ``words.yaml`` the word lists that find a question's own phrases,
all in English and Chinese. ``lang_<code>.yaml`` adds one more language (Japanese,
Korean, French, German): the same banks in fewer phrasings, persona names, the
archetypes' expertise with a background/approach/bias template per kind, and stop
words — the simulator answers in the question's language, as a real model does.
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
# The languages the banks are written in; a question in another language is answered
# in English (a Chinese-script one in Chinese).
BASE_LANGUAGES = ("en", "zh")
EXTRA_LANGUAGES = ("ja", "ko", "fr", "de")
LANGUAGES = BASE_LANGUAGES + EXTRA_LANGUAGES

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
class NameParts:
    """A language's persona names: ``first`` and ``last`` parts, written family name
    first (and without a space) where the language does so."""

    first: list[str]
    last: list[str]
    family_first: bool = False
    separator: str = " "

    def compose(self, first: str, last: str) -> str:
        return self.separator.join((last, first) if self.family_first else (first, last))


@dataclass(frozen=True)
class PersonaBanks:
    en_first: list[str]
    en_last: list[str]
    zh_surname: list[str]
    zh_given: list[str]
    archetypes: list[Archetype]
    names: dict[str, NameParts]


@dataclass(frozen=True)
class WordLists:
    en_stop: frozenset[str]
    zh_split: list[str]  # in file order
    # Per extra language: words that never make a phrase on their own (fr, de, ko) or,
    # for Japanese, the particles a question is split at.
    stop: dict[str, frozenset[str]]


def _load(name: str) -> dict[str, Any]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available
    data = yaml.load((_ROOT / name).read_text(encoding="utf-8"), Loader=loader)
    if not isinstance(data, dict):
        raise ValueError(f"simulator data {name}: expected a mapping at the top level")
    return data


@cache
def _extra_language(code: str) -> dict[str, Any]:
    return _load(f"lang_{code}.yaml")


@cache
def text_banks() -> TextBanks:
    data = _load("banks.yaml")
    for code in EXTRA_LANGUAGES:
        extra = _extra_language(code)["banks"]
        unknown = set(extra) - set(data)
        if unknown:
            raise ValueError(f"simulator data lang_{code}.yaml: unknown banks {sorted(unknown)}")
        for name, value in extra.items():
            if isinstance(data[name], dict):
                data[name][code] = value
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
    archetypes = [Archetype(**entry) for entry in data["archetypes"]]
    native: dict[str, NameParts] = {
        "en": NameParts(first=list(names["en"]["first"]), last=list(names["en"]["last"])),
        "zh": NameParts(first=list(names["zh"]["given"]), last=list(names["zh"]["surname"]),
                        family_first=True, separator=""),
    }
    for code in EXTRA_LANGUAGES:
        extra = _extra_language(code)
        native[code] = NameParts(**extra["names"])
        # One template per kind of archetype; {e} is the archetype's expertise in this
        # language, {t} and {a} are filled per debate as in the English text.
        texts = extra["persona_text"]
        for archetype in archetypes:
            expertise = extra["expertise"][archetype.key]
            archetype.expertise[code] = expertise
            for field in ("background", "approach", "bias"):
                template = texts[archetype.kind][field]
                getattr(archetype, field)[code] = template.replace("{e}", expertise)
    return PersonaBanks(
        en_first=list(names["en"]["first"]),
        en_last=list(names["en"]["last"]),
        zh_surname=list(names["zh"]["surname"]),
        zh_given=list(names["zh"]["given"]),
        archetypes=archetypes,
        names=native,
    )


@cache
def word_lists() -> WordLists:
    data = _load("words.yaml")
    return WordLists(
        en_stop=frozenset(data["en_stop"].split()),
        zh_split=data["zh_split"].split(),
        stop={code: frozenset(str(_extra_language(code)["stop"]).split())
              for code in EXTRA_LANGUAGES},
    )
