"""At 390 px the synthesis and metrics tables stack (every cell labelled by its
column, none hidden) and tap targets are at least 44 px; the browser test measures
it in chromium, this checks the markup and the stylesheet it relies on."""

from __future__ import annotations

import re
from pathlib import Path

CSS = (Path(__file__).resolve().parents[2] / "static/css/app.css").read_text()


def _tables(html: str) -> list[str]:
    return re.findall(r"<table class=\"[^\"]*stack-table[^\"]*\">.*?</table>", html, re.S)


def test_every_cell_of_the_synthesis_tables_names_its_column(member_client, finished):
    html = member_client.get(f"/debates/{finished.code}/synthesis").content.decode()
    tables = _tables(html)
    assert len(tables) >= 3  # panel, risks, metrics
    for table in tables:
        headers = re.findall(r"<th>(.*?)</th>", table)
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.split("</thead>", 1)[1], re.S):
            cells = re.findall(r"<td([^>]*)>", row)
            assert len(cells) == len(headers)
            # An id cell (R1) speaks for itself; every other cell names its column.
            labels = [re.search(r'data-label="([^"]+)"', c) for c in cells]
            assert [m.group(1) if m else "id" for m in labels] == headers, (cells, headers)


def test_the_stylesheet_stacks_and_enlarges_on_phones():
    phone = CSS[CSS.index("/* --- phones: stacked tables"):]
    assert "@media (max-width: 600px)" in phone
    assert "content: attr(data-label)" in phone
    assert "min-height: 44px" in phone
    # The header row is hidden from view only; screen readers keep it.
    assert "display: none" not in phone.split(".stack-table td[data-label]")[0]
