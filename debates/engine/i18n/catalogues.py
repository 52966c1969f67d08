"""Reading a gettext catalogue: one domain's messages in one language, with English for
what a language lacks and the engine's shared wording behind a protocol's own.

The sources are .po files in git; gettext reads the .mo files ``make install`` compiles
from them (``python -m debates.engine.i18n.compile``). A catalogue that is in git but not
compiled is an error that says so, never English in disguise (docs/engine.md,
"Translations").
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterator
from pathlib import Path

Translator = Callable[..., str]

ENGLISH = "en"
COMPILE_HINT = ("compile the catalogues with `make install` or "
                "`python -m debates.engine.i18n.compile`")


class CatalogueNotCompiled(RuntimeError):
    pass


class _Messages(gettext.GNUTranslations):
    """gettext's reading of a .mo file, which also lists its msgids (the keys)."""

    _catalog: dict[str, str]

    def keys(self) -> Iterator[str]:
        return (key for key in self._catalog if key)  # "" is the header

    def text(self, key: str) -> str | None:
        return self._catalog.get(key)


def mo_path(localedir: Path, language: str, domain: str) -> Path:
    return localedir / language / "LC_MESSAGES" / f"{domain}.mo"


def read_messages(domain: str, localedir: Path, language: str) -> _Messages | None:
    """The compiled catalogue, None for a language nobody translated; an error for one
    whose .po is there but not compiled."""
    compiled = mo_path(localedir, language, domain)
    if not compiled.exists():
        if compiled.with_suffix(".po").exists() or language == ENGLISH:
            raise CatalogueNotCompiled(f"{compiled} is missing: {COMPILE_HINT}")
        return None
    found = gettext.translation(domain, localedir, languages=[language], class_=_Messages)
    assert isinstance(found, _Messages)
    return found


class Catalogue:
    """``t(key, **values)``: the key's text in the language, formatted with ``values``.

    English stands in for a key the language lacks (and for a language without a
    catalogue); ``shared`` (the engine's catalogue) answers the keys this domain does
    not have; an unknown key is a KeyError. With ``n=1`` a key's ``.one`` form is used
    when there is one (English says "1 round")."""

    def __init__(self, domain: str, localedir: Path, language: str,
                 shared: Catalogue | None = None) -> None:
        self.language = language
        self.shared = shared
        english = read_messages(domain, localedir, ENGLISH)
        assert english is not None  # a missing English catalogue raised already
        self._english = english
        self._native = self._english if language == ENGLISH else \
            read_messages(domain, localedir, language)
        self._keys = frozenset(self._english.keys())

    @property
    def has_translation(self) -> bool:
        """Whether the language has a catalogue of its own (English has none to add)."""
        return self.language != ENGLISH and self._native is not None

    def __contains__(self, key: object) -> bool:
        return key in self._keys or (self.shared is not None and key in self.shared)

    def __call__(self, key: str, **values: object) -> str:
        if key not in self._keys:
            if self.shared is None:
                raise KeyError(key)
            return self.shared(key, **values)
        if values.get("n") == 1 and f"{key}.one" in self._keys:
            key = f"{key}.one"
        text = self._text(key)
        return text.format(**values) if values else text

    def _text(self, key: str) -> str:
        native = self._native.text(key) if self._native is not None else None
        return native or self._english.text(key) or ""

    def keys(self) -> frozenset[str]:
        """This domain's keys (not the shared catalogue's)."""
        return self._keys
