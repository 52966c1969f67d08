"""The pages' own wording reaches a page exactly as its catalogue writes it, a counted
key in the form the language's plural rule picks, and a language without one gets the
English (docs/engine.md, "Translations")."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from debates.page_words import LOCALE_DIR, PageWords, page_keys


def written(language: str) -> dict[str, str]:
    """``{key: text}``; a plural entry's forms as ``key[0]``, ``key[1]``..."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / "django.po").open("rb") as source:
        messages = [m for m in read_po(source) if m.id]
    return {**{m.id: str(m.string) for m in messages if isinstance(m.id, str)},
            **{f"{m.id[0]}[{i}]": form for m in messages if not isinstance(m.id, str)
               for i, form in enumerate(m.string or ())}}


# Which form a count takes (each catalogue's Plural-Forms): French counts 0 as one.
FORM_OF = {"en": {0: 1, 1: 0, 2: 1}, "fr": {0: 0, 1: 0, 2: 1},
           "ja": {0: 0, 1: 0, 2: 0}, "zh": {0: 0, 1: 0, 2: 0}}


@pytest.mark.parametrize("language", ["en", "zh", "ja", "fr"])
def test_every_page_key_reads_as_its_catalogue_writes_it(language):
    words, expected = PageWords(language), written(language)
    assert {key.partition("[")[0] for key in expected} == page_keys()
    plain = {key: text for key, text in expected.items() if "[" not in key}
    assert {key: words(key) for key in plain} == plain
    for key in page_keys() - set(plain):
        for n, form in FORM_OF[language].items():
            assert words.template(key, n) == expected[f"{key}[{form}]"], (key, n)


def test_french_counts_zero_rounds_as_one_and_english_as_many():
    counted = {language: [PageWords(language)("page.after_rounds", n=n) for n in (0, 1, 2)]
               for language in ("en", "fr", "ja")}
    assert counted["en"] == ["after 0 discussion rounds", "after 1 discussion round",
                             "after 2 discussion rounds"]
    assert counted["fr"] == ["après 0 tour de discussion", "après 1 tour de discussion",
                             "après 2 tours de discussion"]
    assert counted["ja"] == ["議論 0 ラウンドの後", "議論 1 ラウンドの後", "議論 2 ラウンドの後"]


def test_the_tag_counts_with_the_pages_language():
    from django.template import Context, Template

    class Page:
        language = "fr"

    template = Template('{% load council %}{% tr "evidence.page.passages" n=n %}')
    said = [template.render(Context({"page": Page(), "n": n})) for n in (0, 1, 2)]
    assert said == ["0 passage", "1 passage", "2 passages"]


def test_a_language_without_a_catalogue_reads_english():
    assert PageWords("de")("nav.debates") == written("en")["nav.debates"]


def test_a_caller_naming_no_language_reads_djangos_active_one():
    from django.utils import translation

    with translation.override("fr"):
        assert PageWords()("nav.debates") == written("fr")["nav.debates"]


def test_an_unknown_key_is_an_error():
    with pytest.raises(KeyError):
        PageWords("en")("no.such.key")


def test_a_key_from_a_template_gives_text_the_page_escapes():
    from django.template import Context, Template

    html = Template('{% load council %}{% tr "decision.record" %}').render(Context({}))
    assert html == "Record the team&#x27;s decision"
