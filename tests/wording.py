"""Every fixed string of a language as one ``{key: text}`` table (texts unformatted),
read from the compiled catalogues: the engine's and each protocol's (``engine_wording``,
no Django), plus the pages' own (``page_wording``). A plural entry is there by its form
for a count of 2 (``COUNTED``)."""

from __future__ import annotations

from debates.engine.i18n import translator
from debates.engine.protocols.registry import get_protocol, known_protocols

COUNTED = 2


def engine_wording(language: str) -> dict[str, str]:
    catalogues = [translator(language),
                  *(get_protocol(name).labels(language) for name in known_protocols())]
    return {key: catalogue.template(key, COUNTED) for catalogue in catalogues
            for key in catalogue.keys()}


def page_wording(language: str) -> dict[str, str]:
    from debates.page_words import PageWords, page_keys

    words = PageWords(language)
    return {**engine_wording(language),
            **{key: words.template(key, COUNTED) for key in page_keys()}}
