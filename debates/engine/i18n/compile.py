"""Compile the .po catalogues under the given directories (default: the installed
``debates`` package) into the .mo files gettext reads, with Babel, so a machine needs
no GNU gettext. Only a .mo older than its .po is written again.

    python -m debates.engine.i18n.compile [DIRECTORY ...]

``make install`` runs it, and the engine compiles a missing or stale catalogue on first
use (docs/engine.md, "Translations"). setup.py loads this file on its own, before the
package's dependencies are installed: it imports nothing but Babel and the standard
library.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from babel.core import UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DEBATES_PACKAGE = Path(__file__).resolve().parents[2]


def is_stale(po: Path) -> bool:
    mo = po.with_suffix(".mo")
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


def compiled_bytes(po: Path) -> bytes:
    """The .mo file's bytes for ``po``. A plural entry with an empty form is left out,
    as Babel leaves out an untranslated singular one, so English stands in for it
    rather than an empty string. Babel's PoFileError for a malformed .po."""
    with po.open("rb") as source:
        catalogue = read_po(source, abort_invalid=True)
    if catalogue.locale is None:
        # Babel writes a catalogue's Plural-Forms into the .mo only when it knows the
        # language; without a Language header, the folder (<lang>/LC_MESSAGES) names it.
        with contextlib.suppress(ValueError, UnknownLocaleError):
            catalogue.locale = po.parents[1].name
    for message in list(catalogue):
        if message.id and isinstance(message.string, tuple) and not all(message.string):
            catalogue.delete(message.id, message.context)
    target = io.BytesIO()
    write_mo(target, catalogue, use_fuzzy=False)
    return target.getvalue()


def write_atomically(path: Path, data: bytes) -> None:
    """``data`` as ``path``, never half written: several processes may compile the same
    catalogue on first use at once."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as target:
            target.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def compile_po(po: Path) -> Path:
    mo = po.with_suffix(".mo")
    write_atomically(mo, compiled_bytes(po))
    return mo


def compile_all(directories: Iterable[Path], *, force: bool = False) -> list[Path]:
    """The .mo files written, one per stale (or, with ``force``, every) .po."""
    sources = sorted(po for directory in directories for po in directory.rglob("*.po"))
    return [compile_po(po) for po in sources if force or is_stale(po)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directories", nargs="*", type=Path, default=[DEBATES_PACKAGE])
    parser.add_argument("--force", action="store_true", help="compile every catalogue")
    args = parser.parse_args(argv)
    written = compile_all(args.directories, force=args.force)
    print(f"{len(written)} catalogue(s) compiled")


if __name__ == "__main__":
    main()
