"""The pages' fixed wording: the web app's own catalogue (``debates/locale/<lang>/
LC_MESSAGES/django.po``, read through Django's i18n), then the engine's shared wording
and each protocol's own (``debates.engine.i18n``), so one ``t(key)`` serves a page's
every key: ``{% tr %}``, the page builders, the exports (docs/engine.md,
"Translations").

Only what pages alone say lives here; a string the engine's report also uses stays in
the engine, so the Django-free engine writes it the same.
"""

from __future__ import annotations

import functools
from pathlib import Path

from django.utils import translation

from debates.engine import (
    COMPILE_HINT,
    ENGLISH,
    Catalogue,
    CatalogueNotCompiled,
    get_protocol,
    known_protocols,
    translator,
)
from debates.engine import read_catalogue_messages as read_messages

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "django"


@functools.cache
def page_keys() -> frozenset[str]:
    """The pages' keys (the English catalogue's msgids). A language's catalogue that is
    in git but not compiled fails here, loudly: Django would quietly show English."""
    for source in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"):
        if not source.with_suffix(".mo").exists():
            raise CatalogueNotCompiled(f"{source.with_suffix('.mo')} is missing: {COMPILE_HINT}")
    english = read_messages(DOMAIN, LOCALE_DIR, ENGLISH)
    assert english is not None  # a missing English catalogue raised already
    return frozenset(english.keys())


class PageWords:
    """``t(key, **values)`` in ``language`` for a page: its own words through Django's
    gettext (English where the language has none), else the engine's and the
    protocols'; an unknown key is a KeyError. With ``n=1`` a key's ``.one`` form."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.engine = translator(language)

    def __contains__(self, key: object) -> bool:
        return key in page_keys() or key in self.engine or any(
            key in labels for labels in self._protocol_labels())

    def __call__(self, key: str, **values: object) -> str:
        if key in page_keys():
            return self._page_text(key, values)
        if key in self.engine:
            return self.engine(key, **values)
        for labels in self._protocol_labels():
            if key in labels:
                return labels(key, **values)
        raise KeyError(key)

    def _page_text(self, key: str, values: dict[str, object]) -> str:
        if values.get("n") == 1 and f"{key}.one" in page_keys():
            key = f"{key}.one"
        # A template's string literal is a SafeString, for which Django's gettext marks
        # the translation safe too: asked as a plain str, the tag's output is escaped.
        with translation.override(self.language):
            text = translation.gettext(str.__str__(key))
        return text.format(**values) if values else text

    def _protocol_labels(self) -> list[Catalogue]:
        return [get_protocol(name).labels(self.language) for name in known_protocols()]
