"""Writes static/icons/sprite.svg, the one icon set of the pages (docs/web.md, "The
look"): the few Lucide icons the templates use, as <symbol>s of one file served from
our own static files (the CSP allows no CDN).

    npm pack lucide-static@0.468.0 && tar xzf lucide-static-0.468.0.tgz
    python scripts/icon_sprite.py package/icons

A template draws one with {% include "_icon.html" with icon="search" %}. Lucide is ISC
licensed; its licence is kept beside the sprite (static/icons/LICENSE).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ICONS = ["circle-check", "circle-x", "circle-dot", "clock", "circle-slash", "search", "menu",
         "chevron-down", "download", "file-text", "message-square", "git-compare", "user",
         "users", "bell", "log-out", "key-round", "plus", "triangle-alert", "refresh-cw",
         "scroll-text", "list", "contact", "scale", "square-check", "at-sign", "printer",
         "file-json", "flask-conical", "chart-line"]
OUT = Path(__file__).resolve().parents[1] / "static" / "icons" / "sprite.svg"


def symbol(name: str, source: str) -> str:
    body = source.split(">", 2)[2] if source.startswith("<!--") else source.split(">", 1)[1]
    body = body.rsplit("</svg>", 1)[0]
    shapes = re.sub(r"\s+/>", "/>", " ".join(line.strip() for line in body.splitlines()
                                            if line.strip()))
    return f'<symbol id="{name}" viewBox="0 0 24 24">{shapes}</symbol>'


def main(icons_dir: str) -> None:
    symbols = [symbol(name, (Path(icons_dir) / f"{name}.svg").read_text()) for name in ICONS]
    OUT.write_text('<svg xmlns="http://www.w3.org/2000/svg">\n<!-- Lucide v0.468.0, ISC: '
                   'see LICENSE beside this file -->\n' + "\n".join(symbols) + "\n</svg>\n")


if __name__ == "__main__":
    main(sys.argv[1])
