"""The pages' fixed wording: the web app's own catalogue (``debates/locale/<lang>/
LC_MESSAGES/django.po``) chained in front of the engine's shared wording and each
protocol's own, so one ``t(key)`` serves a page's every key: ``{% tr %}``, the page
builders, the exports (docs/engine.md, "Translations"). It is the engine's one lookup
(``debates.engine.Catalogue``) with one more domain; Django adds only the active
language, for a caller that names none.

Only what pages alone say lives here; a string the engine's report also uses stays in
the engine, so the Django-free engine writes it the same.
"""

from __future__ import annotations

import functools
from pathlib import Path

from django.utils import translation

from debates.engine import (
    ENGLISH,
    Catalogue,
    domain_layers,
    get_protocol,
    known_protocols,
    translator,
)
from view_kit import site_words

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "django"


@functools.cache
def page_keys() -> frozenset[str]:
    """The pages' own keys (the English catalogue's msgids)."""
    return Catalogue(ENGLISH, domain_layers(DOMAIN, LOCALE_DIR, ENGLISH)).keys()


@functools.cache
def _page_words(language: str) -> Catalogue:
    # The pages' words first, then the engine's, then every protocol's: a page may show
    # any protocol's labels (the compare page shows two debates side by side).
    return Catalogue(language, [
        *domain_layers(DOMAIN, LOCALE_DIR, language),
        # The site's own words (view_kit/site_words.py): a page may show them too.
        *domain_layers(site_words.DOMAIN, site_words.LOCALE_DIR, language),
        *translator(language).layers(),
        *(layer for name in known_protocols()
          for layer in get_protocol(name).labels(language).layers())])


class PageWords(Catalogue):
    """``t(key, **values)`` in ``language`` (Django's active language when None) for a
    page: its own words, else the engine's and the protocols'; a language without a
    catalogue reads English; an unknown key is a KeyError."""

    def __init__(self, language: str | None = None) -> None:
        # Django's active code names a variant ("zh-hans", "en-us"); the catalogues, the language.
        language = language or (translation.get_language() or ENGLISH).split("-")[0].lower()
        super().__init__(language, _page_words(language).layers())


def plain_outcome(protocol: str, reason: str, rounds: int, t: PageWords) -> str:
    """How a debate ended, as a sentence a manager reads ("The panel stayed split after
    2 rounds: ..."): the protocol's own wording of its stop reason
    (``outcome.<protocol>.<reason>``), else the shared one; "" for a reason no
    catalogue words (the page then names the reason). The rule and its figures are the
    stop explanation, which the page folds behind "why"."""
    if not reason:
        return ""
    if (own := f"outcome.{protocol}.{reason}") in t:
        return t(own, n=rounds)
    if reason == "converged" and rounds == 0:
        return t("outcome.converged_at_once")
    return t(f"outcome.{reason}", n=rounds) if f"outcome.{reason}" in t else ""
