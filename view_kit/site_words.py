"""The site's own words (navigation, account and team pages, the comments panel,
messages and mails) in a language: ``ui(key, **values)`` (docs/web.md, "Languages").

Their catalogue is ``view_kit/locale/<lang>/LC_MESSAGES/site.po``, keyed like the
pages' (``debates/locale``): the English catalogue holds the English text, a language
without a catalogue or a key reads English. It lives here, below accounts and debates,
so the views and messages of every app can speak it; ``debates.page_words`` chains it
into the pages' words, so ``{% tr %}`` and ``{% ui %}`` read the same text. The .po is
read here (compiled in memory by Babel, cached per language): no .mo to keep current.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.utils import translation
from django.utils.functional import lazy

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "site"
ENGLISH = "en"


def language_of(code: str | None) -> str:
    """The catalogues' name of a Django language code: "zh-hans" → "zh", "en-us" → "en"."""
    return (code or ENGLISH).split("-")[0].lower()


def _read(language: str) -> gettext.GNUTranslations | None:
    po = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not po.exists():
        return None
    with po.open("rb") as source:
        catalogue = read_po(source, locale=language, abort_invalid=True)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@functools.cache
def _words(language: str) -> gettext.NullTranslations:
    english = _read(ENGLISH)
    assert english is not None, "the English site catalogue is missing"
    native = None if language == ENGLISH else _read(language)
    if native is None:
        return english
    native.add_fallback(english)
    return native


def ui(key: str, language: str | None = None, **values: object) -> str:
    """``key`` in ``language`` (the active one when None), its {placeholders} filled; a
    counted key takes the form ``n`` calls for in that language."""
    words = _words(language_of(language or translation.get_language()))
    text = words.gettext(key)
    if text == key:
        # A counted key read without ``n``: its one form. Python 3.11.7's gettext falls
        # back to it, Debian's 3.11.2 does not; read here, every 3.11 answers alike.
        text = words.ngettext(key, key, 1)
    if "n" in values:
        counted = words.ngettext(key, key, int(values["n"]))  # type: ignore[call-overload]
        text = counted if counted != key else text
    if text == key:
        raise KeyError(f"no site words for {key!r}")
    return text.format(**values) if values else text


# A form's label or help, read when the form renders (in the request's language).
ui_lazy = lazy(ui, str)


Words = tuple[str, dict[str, object]]
"""A site key and its values, which a service's refusal carries for the pages (its
message stays English for the API); a value may be Words itself ("2 problems")."""


def said(refusal: Exception) -> str:
    """A service's refusal in the request's language: the ``words`` it carries, else
    its own message (a refusal the catalogue has no words for, an engine's detail)."""
    words: Words | None = getattr(refusal, "words", None)
    return _say(words) if words else str(getattr(refusal, "detail", None) or refusal)


def _say(words: Words) -> str:
    key, values = words
    return ui(key, **{name: _say(value) if isinstance(value, tuple) else value  # type: ignore[arg-type]
                      for name, value in values.items()})
