"""Compile the .po catalogues under the given directories (default: the installed
``debates`` package) into the .mo files gettext reads, with Babel, so a machine needs
no GNU gettext. Only a .mo older than its .po is written again.

    python -m debates.engine.i18n.compile [DIRECTORY ...]

``make install`` runs it (docs/engine.md, "Translations").
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DEBATES_PACKAGE = Path(__file__).resolve().parents[2]


def is_stale(po: Path) -> bool:
    mo = po.with_suffix(".mo")
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


def compile_po(po: Path) -> Path:
    mo = po.with_suffix(".mo")
    with po.open("rb") as source:
        catalogue = read_po(source, abort_invalid=True)
    with mo.open("wb") as target:
        write_mo(target, catalogue, use_fuzzy=False)
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
