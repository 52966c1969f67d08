"""Every gettext catalogue (the engine's, each protocol's, the pages') is complete in
every language the product speaks, keeps the English placeholders, shows translators
the English, and is compiled from its current .po (docs/engine.md, "Translations")."""

from __future__ import annotations

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


def texts(catalogue: Catalog) -> dict[str, str]:
    return {str(m.id): str(m.string) for m in catalogue if m.id}


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
        key, source = str(message.id), english[str(message.id)]
        assert message.string, f"{key} is not translated in {language}"
        assert placeholders(str(message.string)) == placeholders(source), key
        # The English as the extracted comment, wrapped over #. lines as gettext's tools do.
        shown = " ".join(" ".join(message.auto_comments).split())
        assert shown == " ".join(source.split()), f"{key}: #. is not the English"
        # Babel's reader drops the flag (the msgid, a key, has no braces): read the text.
        flagged = f'#, python-brace-format\nmsgid "{key}"' in path.read_text()
        assert flagged == bool(placeholders(source)), f"{key}: python-brace-format flag"
        if language in ("zh", "ja") and key not in LATIN_ON_PURPOSE \
                and re.search(r"[A-Za-z]{4,}", source):
            assert message.string != source, f"{key} is still English in {language}"


@pytest.mark.parametrize("po", sorted(DEBATES.rglob("*.po")),
                         ids=lambda p: f"{p.parents[1].name}-{p.stem}")
def test_every_compiled_catalogue_matches_its_source(po):
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run `make install`"
    with mo.open("rb") as compiled:
        assert texts(read_mo(compiled)) == texts(read(po)), f"{mo} is stale: run `make install`"


def test_a_catalogue_in_git_but_not_compiled_fails_and_says_how_to_compile(tmp_path):
    source = tmp_path / "en" / "LC_MESSAGES" / "plugin.po"
    source.parent.mkdir(parents=True)
    source.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n')
    with pytest.raises(CatalogueNotCompiled, match="make install"):
        read_messages("plugin", tmp_path, "en")
    assert read_messages("plugin", tmp_path, "de") is None  # nobody translated German


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
