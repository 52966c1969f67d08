"""The pages' own wording reaches a page through Django's i18n exactly as its
catalogue writes it: no other app's catalogue shadows a key (Django merges them all),
and a language without one gets the English (docs/engine.md, "Translations")."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from debates.page_words import LOCALE_DIR, PageWords, page_keys


def written(language: str) -> dict[str, str]:
    with (LOCALE_DIR / language / "LC_MESSAGES" / "django.po").open("rb") as source:
        return {str(m.id): str(m.string) for m in read_po(source) if m.id}


@pytest.mark.parametrize("language", ["en", "zh", "ja", "fr"])
def test_every_page_key_reads_as_its_catalogue_writes_it(language):
    words, expected = PageWords(language), written(language)
    assert set(expected) == page_keys()
    assert {key: words(key) for key in expected} == expected


def test_a_language_without_a_catalogue_reads_english():
    assert PageWords("de")("nav.debates") == written("en")["nav.debates"]


def test_an_unknown_key_is_an_error():
    with pytest.raises(KeyError):
        PageWords("en")("no.such.key")


def test_a_key_from_a_template_gives_text_the_page_escapes():
    from django.template import Context, Template

    html = Template('{% load council %}{% tr "decision.record" %}').render(Context({}))
    assert html == "Record the team&#x27;s decision"
