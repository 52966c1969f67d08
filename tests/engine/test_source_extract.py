"""Text out of each kind of file, and each bad file refused with a message that says why
(docs/web.md, "Sources")."""

from __future__ import annotations

import io
import zipfile

import pytest

from debates.engine import MAX_SOURCE_BYTES, SourceRefused, check_source_file, extract_text
from tests.source_files import docx_bytes, pdf_bytes, xlsx_bytes, zip_bomb


def test_pdf_text_comes_out():
    got = extract_text(pdf_bytes(["Kafka costs 4,200 USD a month.", "SQS costs less."]),
                       "costs.pdf")
    assert got.kind == "pdf"
    assert "Kafka costs 4,200 USD a month." in got.text
    assert "SQS costs less." in got.text


def test_docx_keeps_headings_paragraphs_and_tables():
    data = docx_bytes("Incident review", ["The broker fell over twice."],
                      [["Date", "Minutes down"], ["2026-03-01", "42"]])
    got = extract_text(data, "review.docx")
    assert got.kind == "docx"
    assert got.text.splitlines()[0] == "# Incident review"
    assert "The broker fell over twice." in got.text
    assert "2026-03-01 | 42" in got.text


def test_xlsx_names_each_sheet_and_its_rows():
    data = xlsx_bytes({"Costs": [["Item", "USD"], ["Kafka", 4200]], "Empty": []})
    got = extract_text(data, "costs.xlsx")
    assert got.kind == "xlsx"
    assert "## Costs" in got.text
    assert "Kafka | 4200" in got.text
    assert "Empty" not in got.text


def test_csv_html_markdown_and_text():
    assert "a | b" in extract_text(b"a;b\n1;2\n", "t.csv").text
    html = b"<html><script>evil()</script><body><h1>Title</h1><p>Body text</p></body></html>"
    got = extract_text(html, "page.html")
    assert got.kind == "html" and "Body text" in got.text and "evil" not in got.text
    assert extract_text(b"# Head\n\ntext", "n.md").kind == "markdown"
    assert extract_text("\ufeffplain é".encode(), "n.txt").text == "plain é"


@pytest.mark.parametrize(("data", "name", "says"), [
    (b"x", "run.exe", "not read"),
    (b"hello", "fake.pdf", "not a PDF"),
    (b"%PDF-1.7 nothing else", "broken.pdf", "damaged"),
    (b"plain words", "fake.docx", "not a Word document"),
    (pdf_bytes(["x"]), "fake.xlsx", "not an Excel workbook"),
    (b"", "empty.txt", "empty"),
    (b"\xff\xfe\x00b\x00i\x00n", "bin.txt", "not text"),
    (b"caf\xe9", "latin.txt", "not UTF-8"),
])
def test_bad_files_are_refused_with_a_reason(data, name, says):
    with pytest.raises(SourceRefused, match=says):
        extract_text(data, name)


def test_a_docx_without_a_document_part_is_not_a_docx():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
    with pytest.raises(SourceRefused, match="not a Word document"):
        check_source_file(out.getvalue(), "book.docx")


def test_encrypted_pdf_is_refused_but_an_owner_only_lock_is_read():
    with pytest.raises(SourceRefused, match="encrypted"):
        extract_text(pdf_bytes(["secret"], password="pw"), "locked.pdf")
    # An empty user password opens it: readers show it without asking, so do we.
    assert "open" in extract_text(pdf_bytes(["open"], password=""), "owner.pdf").text


def test_image_only_pdf_says_it_has_no_text():
    with pytest.raises(SourceRefused, match="no text layer"):
        extract_text(pdf_bytes(), "scan.pdf")


@pytest.mark.parametrize("kind", ["docx", "xlsx"])
def test_zip_bomb_is_refused_before_it_is_opened(kind):
    bomb = zip_bomb(kind)
    assert len(bomb) < MAX_SOURCE_BYTES
    with pytest.raises(SourceRefused, match="zip bomb"):
        check_source_file(bomb, f"bomb.{kind}")


def test_a_file_past_the_limit_is_refused():
    with pytest.raises(SourceRefused, match="past the limit"):
        check_source_file(b"a" * (MAX_SOURCE_BYTES + 1), "big.txt")
