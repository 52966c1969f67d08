"""A source file's reading is bounded per file, with a refusal that says what to do:
cells of a workbook, pages of a PDF, paragraphs and table cells of a document, and the
seconds it may take in all; a text file with a NUL anywhere is refused at upload naming
its line, and a converter's NUL or lone surrogate never reaches the database (issue 39;
docs/engine.md, "Sources" and "Uploaded text"). The caps are lowered here so the hostile
files stay small; the real ones are the module's constants."""

from __future__ import annotations

import base64
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from debates.engine import SourceRefused, check_source_file, extract_text
from debates.engine.sources import extract
from sources.models import Source
from tests.source_files import docx_bytes, pdf_bytes, xlsx_bytes

LATE_NUL = ("line\n" * 3000 + "a\x00b\n").encode()  # past the 8 KB the binary sniff reads


def test_a_workbook_past_the_cell_cap_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(extract, "MAX_SHEET_CELLS", 1_000)
    data = xlsx_bytes({"Big": [[f"{r}.{c}" for c in range(10)] for r in range(101)]})
    with pytest.raises(SourceRefused, match="more than 1,000 cells"):
        extract_text(data, "big.xlsx")
    small = xlsx_bytes({"Small": [[f"{r}.{c}" for c in range(10)] for r in range(100)]})
    assert "99.9" in extract_text(small, "small.xlsx").text


def test_a_workbook_declaring_no_size_is_counted_row_by_row(monkeypatch) -> None:
    import openpyxl

    monkeypatch.setattr(extract, "MAX_SHEET_CELLS", 1_000)
    workbook = openpyxl.Workbook(write_only=True)  # writes no <dimension>
    sheet = workbook.create_sheet()
    for r in range(101):
        sheet.append([f"{r}.{c}" for c in range(10)])
    out = io.BytesIO()
    workbook.save(out)
    with pytest.raises(SourceRefused, match="more than 1,000 cells"):
        extract_text(out.getvalue(), "undeclared.xlsx")


def test_a_pdf_past_the_page_cap_is_refused_before_a_page_is_read(monkeypatch) -> None:
    monkeypatch.setattr(extract, "MAX_PDF_PAGES", 3)
    with pytest.raises(SourceRefused, match="4 pages, more than the 3"):
        extract_text(_pages(4), "long.pdf")
    assert "Page 3" in extract_text(_pages(3), "short.pdf").text


def _pages(count: int) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for number in range(1, count + 1):
        writer.add_page(PdfReader(io.BytesIO(pdf_bytes([f"Page {number}"]))).pages[0])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_document_past_the_block_cap_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(extract, "MAX_DOCUMENT_BLOCKS", 50)
    data = docx_bytes("Minutes", [f"Paragraph {n}" for n in range(60)])
    with pytest.raises(SourceRefused, match="more than 50 paragraphs and table cells"):
        extract_text(data, "long.docx")


def test_a_file_that_takes_too_long_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(extract, "MAX_READ_SECONDS", -1.0)
    with pytest.raises(SourceRefused, match="reading it took more than"):
        extract_text(xlsx_bytes({"S": [["a", "b"]]}), "slow.xlsx")


def test_a_nul_anywhere_in_a_text_file_is_refused_naming_its_line() -> None:
    with pytest.raises(SourceRefused, match=r"notes.md: line 3001: a NUL character"):
        check_source_file(LATE_NUL, "notes.md")


def test_a_converters_surrogate_or_nul_is_not_stored(monkeypatch) -> None:
    monkeypatch.setitem(extract._CONVERTERS, "html", lambda data, name: "a\ud800b\x00c")
    assert extract_text(b"<p>x</p>", "page.html").text == "a\ufffdbc"


def test_the_api_answers_400_for_a_late_nul(owner_client, team) -> None:
    answer = owner_client.post("/api/sources/", json.dumps({
        "filename": "notes.md", "content_base64": base64.b64encode(LATE_NUL).decode()}),
        content_type="application/json")
    assert answer.status_code == 400
    assert "notes.md: line 3001: a NUL character" in answer.json()["message"]
    assert not Source.objects.exists()


def test_the_page_refuses_a_late_nul(owner_client, team) -> None:
    response = owner_client.post(reverse("sources:upload"), {
        "files": [SimpleUploadedFile("notes.md", LATE_NUL)]}, follow=True)
    assert "notes.md: line 3001: a NUL character" in response.content.decode()
    assert not Source.objects.exists()
