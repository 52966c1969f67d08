"""Every gettext catalogue (the engine's, each protocol's, the pages') is complete in
every language the product speaks, keeps the English placeholders, shows translators
the English, gives a counted key the language's plural forms, and is compiled from its
current .po (docs/engine.md, "Translations")."""

from __future__ import annotations

import os
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from debates.engine.i18n import catalogue, translator
from debates.engine.i18n.catalogues import CatalogueNotCompiled, read_messages
from debates.engine.i18n.compile import compile_all

DEBATES = Path(__file__).parents[2] / "debates"
LANGUAGES = ("zh", "ja", "fr")
# The English of every domain: <localedir>/en/LC_MESSAGES/<domain>.po.
ENGLISH = sorted(DEBATES.rglob("en/LC_MESSAGES/*.po"))
# Texts a Chinese or Japanese catalogue keeps in Latin letters on purpose.
LATIN_ON_PURPOSE = {"protocol_line"}


def read(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source)


def texts(catalogue: Catalog) -> dict[str, str | tuple[str, ...]]:
    """``{key: text}``; a plural entry (msgid/msgid_plural) by its msgid, with its forms."""
    return {key_of(m.id): m.string if isinstance(m.string, str) else tuple(m.string or ())
            for m in catalogue if m.id}


def key_of(message_id: object) -> str:
    return message_id if isinstance(message_id, str) else str(message_id[0])  # type: ignore[index]


def forms(text: object) -> tuple[str, ...]:
    return tuple(text) if isinstance(text, (tuple, list)) else (str(text),)


def placeholders(text: str) -> set[tuple[str, str]]:
    return {(name, spec) for _, name, spec, _ in string.Formatter().parse(text)
            if name is not None}


def test_every_domain_is_found():
    assert {p.stem for p in ENGLISH} == {"engine", "council", "adversarial", "workflow",
                                         "django"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("english_po", ENGLISH, ids=lambda p: p.stem)
def test_every_message_is_translated_with_the_same_placeholders(english_po, language):
    english = texts(read(english_po))
    path = english_po.parents[2] / language / "LC_MESSAGES" / english_po.name
    catalogue = read(path)
    assert set(texts(catalogue)) == set(english), "msgids differ from the English catalogue"
    for message in catalogue:
        if not message.id:
            continue
        key, source = key_of(message.id), forms(english[key_of(message.id)])
        # A counted key is a plural entry in every language, with the language's forms.
        assert isinstance(message.id, tuple) == (len(source) > 1), f"{key}: plural or not"
        assert len(forms(message.string)) == (catalogue.num_plurals if message.pluralizable
                                              else 1), f"{key}: forms in {language}"
        for text in forms(message.string):
            assert text, f"{key} is not translated in {language}"
            assert placeholders(text) == placeholders(source[-1]), key
        # The English as the extracted comment, wrapped over #. lines as gettext's tools do
        # (a plural entry's English forms one after the other).
        shown = " ".join(" ".join(message.auto_comments).split())
        assert shown == " ".join(" ".join(source).split()), f"{key}: #. is not the English"
        # Babel's reader drops the flag (the msgid, a key, has no braces): read the text.
        flagged = f'#, python-brace-format\nmsgid "{key}"' in path.read_text()
        assert flagged == bool(placeholders(source[-1])), f"{key}: python-brace-format flag"
        if language in ("zh", "ja") and key not in LATIN_ON_PURPOSE \
                and re.search(r"[A-Za-z]{4,}", source[-1]):
            assert forms(message.string)[-1] not in source, \
                f"{key} is still English in {language}"


@pytest.mark.parametrize("po", sorted(DEBATES.rglob("*.po")),
                         ids=lambda p: f"{p.parents[1].name}-{p.stem}")
def test_every_compiled_catalogue_matches_its_source(po):
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run `make install`"
    with mo.open("rb") as compiled:
        assert texts(read_mo(compiled)) == texts(read(po)), f"{mo} is stale: run `make install`"


PLURAL_FORMS = {"en": "nplurals=2; plural=(n != 1);", "fr": "nplurals=2; plural=(n > 1);",
                "ja": "nplurals=1; plural=0;", "zh": "nplurals=1; plural=0;"}


@pytest.mark.parametrize("po", sorted(DEBATES.rglob("*.po")),
                         ids=lambda p: f"{p.parents[1].name}-{p.stem}")
def test_every_catalogue_states_its_languages_plural_forms_and_has_no_home_made_plural(po):
    language = po.parents[1].name
    catalogue = read(po)
    assert catalogue.mime_headers and \
        dict(catalogue.mime_headers)["Plural-Forms"] == PLURAL_FORMS[language]
    assert not [key for key in texts(catalogue) if key.endswith(".one")]
    compiled = read_messages(po.stem, po.parents[2], language)  # what ngettext reads
    assert compiled is not None and compiled.info()["plural-forms"] == PLURAL_FORMS[language]


def test_a_catalogue_in_git_but_not_compiled_is_compiled_on_first_use(tmp_path):
    _po(tmp_path / "en" / "LC_MESSAGES" / "plugin.po", "Hello {name}")
    _po(tmp_path / "fr" / "LC_MESSAGES" / "plugin.po", "Bonjour {name}")
    french = catalogue("plugin", tmp_path, "fr")
    assert french("plugin.hello", name="Ann") == "Bonjour Ann"  # never English in disguise
    assert (tmp_path / "fr" / "LC_MESSAGES" / "plugin.mo").exists()  # written beside it
    assert compile_all([tmp_path]) == []  # and current
    assert read_messages("plugin", tmp_path, "de") is None  # nobody translated German


def test_a_catalogue_that_cannot_be_written_is_compiled_in_memory(tmp_path, monkeypatch):
    from debates.engine.i18n import compile as compile_module

    def read_only(path, data):
        raise PermissionError(path)

    monkeypatch.setattr(compile_module, "write_atomically", read_only)
    _po(tmp_path / "en" / "LC_MESSAGES" / "plugin.po", "Hello {name}")
    assert catalogue("plugin", tmp_path, "en")("plugin.hello", name="Ann") == "Hello Ann"
    assert not (tmp_path / "en" / "LC_MESSAGES" / "plugin.mo").exists()


def test_a_catalogue_that_does_not_compile_fails_and_says_how_to_compile(tmp_path):
    source = tmp_path / "en" / "LC_MESSAGES" / "plugin.po"
    source.parent.mkdir(parents=True)
    source.write_text('msgid ""\nmsgstr ""\n\nmsgid "plugin.hello"\nHello\n')
    with pytest.raises(CatalogueNotCompiled, match="make install"):
        read_messages("plugin", tmp_path, "en")
    with pytest.raises(CatalogueNotCompiled, match="make install"):  # no English at all
        read_messages("plugin", tmp_path / "elsewhere", "en")


def test_a_stale_compiled_catalogue_is_compiled_again_on_first_use(tmp_path):
    source = tmp_path / "en" / "LC_MESSAGES" / "plugin.po"
    _po(source, "Hello {name}")
    compile_all([tmp_path])
    _po(source, "Hi {name}")
    compiled = source.with_suffix(".mo").stat().st_mtime
    os.utime(source, (compiled + 0.01, compiled + 0.01))  # as pip installs a wheel
    assert read_messages("plugin", tmp_path, "en").gettext("plugin.hello") == "Hello {name}"
    read_messages.cache_clear()
    os.utime(source.with_suffix(".mo"), (0, 0))  # edited long after it was compiled
    assert catalogue("plugin", tmp_path, "en")("plugin.hello", name="Ann") == "Hi Ann"


def _plural_po(path: Path, plural_forms: str, *texts: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
                    f'"Plural-Forms: {plural_forms}\\n"\n\n'
                    'msgid "plugin.rounds"\nmsgid_plural "plugin.rounds"\n'
                    + "".join(f'msgstr[{i}] "{text}"\n' for i, text in enumerate(texts)))


def test_a_counted_key_takes_each_languages_plural_forms(tmp_path):
    _plural_po(tmp_path / "en" / "LC_MESSAGES" / "plugin.po", PLURAL_FORMS["en"],
               "{n} round", "{n} rounds")
    _plural_po(tmp_path / "fr" / "LC_MESSAGES" / "plugin.po", PLURAL_FORMS["fr"],
               "{n} tour", "{n} tours")
    _plural_po(tmp_path / "ja" / "LC_MESSAGES" / "plugin.po", PLURAL_FORMS["ja"],
               "{n} ラウンド")
    compile_all([tmp_path])  # Babel writes the forms gettext's ngettext reads
    said = {language: [catalogue("plugin", tmp_path, language)("plugin.rounds", n=n)
                       for n in (0, 1, 2)] for language in ("en", "fr", "ja", "de")}
    assert said["en"] == ["0 rounds", "1 round", "2 rounds"]
    assert said["fr"] == ["0 tour", "1 tour", "2 tours"]  # 0 is singular in French
    assert said["ja"] == ["0 ラウンド", "1 ラウンド", "2 ラウンド"]  # one form
    assert said["de"] == said["en"]  # English, by English's rule, for the rest
    with pytest.raises(TypeError, match="count"):
        catalogue("plugin", tmp_path, "en")("plugin.rounds")


def test_a_plural_form_left_empty_reads_english(tmp_path):
    _plural_po(tmp_path / "en" / "LC_MESSAGES" / "plugin.po", PLURAL_FORMS["en"],
               "{n} round", "{n} rounds")
    _plural_po(tmp_path / "fr" / "LC_MESSAGES" / "plugin.po", PLURAL_FORMS["fr"],
               "{n} tour", "")
    assert catalogue("plugin", tmp_path, "fr")("plugin.rounds", n=3) == "3 rounds"


def _po(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
                    f'msgid "plugin.hello"\nmsgstr "{text}"\n')


def test_a_plugin_protocol_ships_its_own_catalogue_beside_the_shared_one(tmp_path):
    _po(tmp_path / "en" / "LC_MESSAGES" / "plugin.po", "Hello {name}")
    _po(tmp_path / "fr" / "LC_MESSAGES" / "plugin.po", "Bonjour {name}")
    assert len(compile_all([tmp_path])) == 2 and compile_all([tmp_path]) == []
    french = catalogue("plugin", tmp_path, "fr")
    assert french("plugin.hello", name="Ann") == "Bonjour Ann"
    assert french("title") == translator("fr")("title")  # the engine's shared wording
    assert catalogue("plugin", tmp_path, "de")("plugin.hello", name="Ann") == "Hello Ann"


def test_the_engines_counted_sentences_take_the_languages_plural_forms():
    said = {language: [translator(language)("explain.stopped_by_user", n=n) for n in (0, 1, 2)]
            for language in ("en", "fr", "ja")}
    assert said["en"] == ["stopped by a user after 0 rounds", "stopped by a user after 1 round",
                          "stopped by a user after 2 rounds"]
    assert said["fr"] == ["arrêté par un utilisateur après 0 tour",
                          "arrêté par un utilisateur après 1 tour",
                          "arrêté par un utilisateur après 2 tours"]
    assert len({text.replace(str(n), "") for n, text in enumerate(said["ja"])}) == 1
