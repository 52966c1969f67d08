"""The one translation lookup: gettext catalogues chained by gettext's own
``add_fallback``, read as ``t(key, **values)``.

A chain holds, per domain in order of precedence (a page's own words, a protocol's, the
engine's shared wording), the language's catalogue and then the English one, and ends
in an error: a key no catalogue has is a KeyError, never the key shown as text. A key
that takes a count is a gettext plural entry (``msgid``/``msgid_plural``, one
``msgstr[i]`` per form) and is read with ``ngettext``, so each catalogue's own
``Plural-Forms`` picks the form: French says "0 tour", English "0 rounds", Japanese
has one form (docs/engine.md, "Translations").

The sources are .po files in git; gettext reads the .mo files compiled from them. A
catalogue whose .mo is missing or older than its .po is compiled on first use (written
beside it when the directory is writable, else kept in memory), so a checkout nobody
compiled still speaks every language; a .po that does not compile is an error that
says so, never English in disguise.
"""

from __future__ import annotations

import copy
import functools
import gettext
import io
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

Translator = Callable[..., str]

ENGLISH = "en"
COUNT = "n"  # the value that picks a plural entry's form
STALE_AFTER_S = 2.0
COMPILE_HINT = ("compile the catalogues with `make install` or "
                "`python -m debates.engine.i18n.compile`")


class CatalogueNotCompiled(RuntimeError):
    pass


class _Messages(gettext.GNUTranslations):
    """gettext's reading of one .mo file, which also tells its msgids (the keys) and
    which of them are plural entries."""

    _catalog: dict[str | tuple[str, int], str]
    language: str

    def keys(self) -> Iterator[str]:
        return (key if isinstance(key, str) else key[0] for key in self._catalog
                if key and (isinstance(key, str) or key[1] == 0))  # "" is the header

    def holds(self, key: str) -> bool:
        return key in self._catalog or (key, 0) in self._catalog

    def plural_keys(self) -> Iterator[str]:
        return (key[0] for key in self._catalog if isinstance(key, tuple) and key[1] == 0)


class _UnknownKey(gettext.NullTranslations):
    """The end of every chain: gettext would show an unknown msgid as the text."""

    def gettext(self, message: str) -> str:
        raise KeyError(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        raise KeyError(msgid1)


def mo_path(localedir: Path, language: str, domain: str) -> Path:
    return localedir / language / "LC_MESSAGES" / f"{domain}.mo"


@functools.cache
def read_messages(domain: str, localedir: Path, language: str) -> _Messages | None:
    """The language's catalogue of ``domain``, None for a language nobody translated.
    A .po without a current .mo is compiled now; a .po that does not compile, or an
    English catalogue that is not there at all, is CatalogueNotCompiled."""
    compiled = mo_path(localedir, language, domain)
    source = localedir / language / "LC_MESSAGES" / f"{domain}.po"
    if source.exists() and (not compiled.exists() or _stale(source, compiled)):
        return _read(io.BytesIO(_compile(source, compiled)), language)
    if not compiled.exists():
        if language == ENGLISH:
            raise CatalogueNotCompiled(f"{compiled} is missing: {COMPILE_HINT}")
        return None
    with compiled.open("rb") as fp:
        return _read(fp, language)


def _stale(source: Path, compiled: Path) -> bool:
    # Edited after it was compiled. Not by a hair: pip writes a wheel's files with the
    # time of the install, a .po a moment after its .mo.
    return compiled.stat().st_mtime + STALE_AFTER_S < source.stat().st_mtime


def _read(fp: io.BufferedIOBase, language: str) -> _Messages:
    messages = _Messages(fp)
    messages.language = language
    return messages


def _compile(source: Path, compiled: Path) -> bytes:
    # Imported here: Babel is needed only when a catalogue is compiled, and
    # ``python -m debates.engine.i18n.compile`` must not find the module imported.
    from babel.messages.pofile import PoFileError

    from .compile import compiled_bytes, write_atomically

    try:
        data = compiled_bytes(source)
    except (PoFileError, ValueError) as error:
        raise CatalogueNotCompiled(f"{source} does not compile ({error}): fix it, then "
                                   f"{COMPILE_HINT}") from error
    try:
        write_atomically(compiled, data)
    except OSError:
        pass  # a read-only install: this process keeps the compiled catalogue in memory
    return data


def domain_layers(domain: str, localedir: Path, language: str) -> list[_Messages]:
    """One domain's links of a chain: the language's catalogue (if any), then English."""
    english = read_messages(domain, localedir, ENGLISH)
    assert english is not None  # a missing English catalogue raised already
    native = None if language == ENGLISH else read_messages(domain, localedir, language)
    return [english] if native is None else [native, english]


@functools.cache
def _chain(layers: tuple[_Messages, ...]) -> gettext.NullTranslations:
    # Copies: add_fallback links the object itself, and one catalogue is a link of
    # many chains (a copy shares the messages, not the link).
    # The catalogues read_messages keeps are never linked themselves.
    head, *rest = [*(copy.copy(layer) for layer in layers), _UnknownKey()]
    for link in rest:
        head.add_fallback(link)
    return head


@functools.cache
def _plural_keys(layers: tuple[_Messages, ...]) -> frozenset[str]:
    return frozenset(key for layer in layers for key in layer.plural_keys())


class Catalogue:
    """``t(key, **values)``: the key's text in the language, formatted with ``values``;
    a plural entry's form is chosen by ``values["n"]`` with ``ngettext``.

    ``layers`` are the chain's catalogues in order of precedence (each domain's language
    then English: :func:`domain_layers`); a catalogue listed twice counts once."""

    def __init__(self, language: str, layers: Iterable[_Messages]) -> None:
        self.language = language
        self._layers = tuple(dict.fromkeys(layers))  # in order, without repeats
        self._messages = _chain(self._layers)
        self._counted = _plural_keys(self._layers)

    def layers(self) -> tuple[_Messages, ...]:
        """The chain's catalogues, to chain them behind another domain's."""
        return self._layers

    @property
    def has_translation(self) -> bool:
        """Whether the language has a catalogue of its own (English has none to add)."""
        return self.language != ENGLISH and any(
            layer.language == self.language for layer in self._layers)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and any(layer.holds(key) for layer in self._layers)

    def __call__(self, key: str, **values: object) -> str:
        text = self.template(key, values.get(COUNT))
        return text.format(**values) if values else text

    def template(self, key: str, n: object = None) -> str:
        """The key's text before formatting: for a plural entry, the form for ``n``."""
        if key in self._counted:
            if not isinstance(n, int):
                raise TypeError(f"{key} takes a count: pass {COUNT}=<int>")
            return self._messages.ngettext(key, key, n)
        return self._messages.gettext(key)

    def keys(self) -> frozenset[str]:
        """Every key of the chain."""
        return frozenset(key for layer in self._layers for key in layer.keys())
