"""The workflow protocol's own wording (its report, convergence check, phase 2
contracts), from its catalogue ``locale/<lang>/LC_MESSAGES/workflow.po``, with the
engine's shared wording behind it (docs/engine.md, "Translations")."""

from __future__ import annotations

from pathlib import Path

from ...i18n import Catalogue, catalogue

LOCALE_DIR = Path(__file__).parent / "locale"


def labels(language: str) -> Catalogue:
    return catalogue("workflow", LOCALE_DIR, language)
