"""The adversarial protocol's own wording (its report, stop explanations, built-in
domains and simulated answers), from its catalogue ``locale/<lang>/LC_MESSAGES/
adversarial.po``, with the engine's shared wording behind it (docs/engine.md,
"Translations")."""

from __future__ import annotations

from pathlib import Path

from ...i18n import Catalogue, catalogue

LOCALE_DIR = Path(__file__).parent / "locale"


def labels(language: str) -> Catalogue:
    return catalogue("adversarial", LOCALE_DIR, language)


def known_or_as_is(language: str, key: str, text: str) -> str:
    """``key`` in ``language`` when the catalogue names it, else ``text`` as it is (a
    team's own domain, role or focus area is shown as the team wrote it)."""
    t = labels(language)
    return t(key) if key in t else text
