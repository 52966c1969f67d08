"""Text out of an uploaded file, refusing what is not text we can read.

Two steps (docs/web.md, "Sources"):

- ``check_source_file(data, filename)`` is cheap and reads no document: the kind from
  the name, the bytes checked against it (``%PDF-``, a zip with the parts a DOCX or XLSX
  has, UTF-8 text without NUL bytes), the size limit, and a zip's entries (their total
  uncompressed size, their count and each one's compression ratio) before anything
  opens it. An upload runs it before a byte is stored.
  A text file's NUL anywhere is refused there, naming its line (docs/engine.md,
  "Uploaded text").
- ``extract_text(data, filename)`` runs the check, then the converter (pypdf,
  python-docx, openpyxl, the csv module, inscriptis for HTML); it refuses an encrypted
  PDF and one with no text layer (scanned pages), and bounds each file's work: pages,
  cells, paragraphs, and ``MAX_READ_SECONDS`` in all. A worker runs it, once per file.

Both raise ``SourceRefused`` with a message a user can act on; nothing is written
anywhere. The converters are imported when a file of their kind comes, so the engine's
start-up does not pay for them.
"""

from __future__ import annotations

import csv
import io
import time
import zipfile
from dataclasses import dataclass
from pathlib import PurePath

from ..text_checks import character_problem, printable

# One file's bytes at most (docs/web.md, "Sources"): a 300-page text PDF is about 2 MB,
# and 8 MiB sent base64 in a JSON body (the API, MCP) stays under the site's 12 MiB.
MAX_SOURCE_BYTES = 8 * 1024 * 1024
# What a DOCX or XLSX may unpack to, in all, and how far one entry may expand: an
# office file's XML compresses about 5-20x; a bomb's runs of zeros reach 1000x.
MAX_UNPACKED_BYTES = 100 * 1024 * 1024
MAX_ZIP_RATIO = 200
MAX_ZIP_ENTRIES = 5_000
# Text kept from one file: far past what a debate's prompts can offer.
MAX_TEXT_CHARS = 2_000_000
# One file's work on a worker (docs/engine.md, "Sources"): 100,000 cells took 4 s of a
# loaded 2-core machine and 300,000 held a worker 52 s; a 300-page report is far under
# the page cap; a paragraph or a table cell is one of a document's blocks (3,000 table
# cells took 0.9 s).
MAX_SHEET_CELLS = 100_000
MAX_PDF_PAGES = 2_000
MAX_DOCUMENT_BLOCKS = 50_000
MAX_READ_SECONDS = 60.0

# The kind of each file name ending we read.
KINDS = {
    ".pdf": "pdf", ".docx": "docx", ".xlsx": "xlsx", ".csv": "csv",
    ".html": "html", ".htm": "html", ".md": "markdown", ".markdown": "markdown",
    ".txt": "text",
}
_ZIP_PARTS = {"docx": "word/document.xml", "xlsx": "xl/workbook.xml"}
_KIND_NAMES = {"pdf": "a PDF", "docx": "a Word document (DOCX)",
               "xlsx": "an Excel workbook (XLSX)"}


class SourceRefused(ValueError):
    """A file that gives no text: the message says why and what to do. ``field`` is
    "filename" when its name is at fault (a kind not read), None when its content is."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class ExtractedText:
    text: str
    kind: str  # "text", "markdown", "pdf", "docx", "xlsx", "csv", "html"


class _Budget:
    """One file's work: at most ``limit`` units (pages, cells...) and ``MAX_READ_SECONDS``,
    refused with what to do instead of holding a worker."""

    def __init__(self, filename: str, limit: int, unit: str) -> None:
        self.filename, self.limit, self.unit = filename, limit, unit
        self.used = 0
        self.deadline = time.monotonic() + MAX_READ_SECONDS

    def spend(self, units: int = 1) -> None:
        self.used += units
        if self.used > self.limit:
            raise SourceRefused(f"{self.filename}: more than {self.limit:,} {self.unit}, the "
                                "most read from one file; split it or upload the part "
                                "the debate needs")
        if time.monotonic() > self.deadline:
            raise SourceRefused(f"{self.filename}: reading it took more than "
                                f"{MAX_READ_SECONDS:.0f} s; split it or upload the part "
                                "the debate needs")


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB"


def kind_of(filename: str) -> str:
    suffix = PurePath(filename).suffix.lower()
    if suffix not in KINDS:
        readable = ", ".join(sorted({k.lstrip(".").upper() for k in KINDS} - {"HTM", "MARKDOWN"}))
        raise SourceRefused(f"{filename}: this kind of file is not read "
                            f"(readable: {readable})", field="filename")
    return KINDS[suffix]


def _check_zip(data: bytes, filename: str, kind: str) -> None:
    not_it = f"{filename}: this is not {_KIND_NAMES[kind]}, whatever its name says"
    if not data.startswith(b"PK\x03\x04"):
        raise SourceRefused(not_it)
    try:
        entries = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except zipfile.BadZipFile:
        raise SourceRefused(f"{filename}: the file is damaged (not a readable zip)") from None
    names = {e.filename for e in entries}
    if "[Content_Types].xml" not in names or _ZIP_PARTS[kind] not in names:
        raise SourceRefused(not_it)
    bomb = f"{filename}: refused, it unpacks to far more than it holds (a zip bomb?)"
    if len(entries) > MAX_ZIP_ENTRIES:
        raise SourceRefused(f"{filename}: refused, it holds {len(entries):,} parts "
                            f"(at most {MAX_ZIP_ENTRIES:,})")
    if sum(e.file_size for e in entries) > MAX_UNPACKED_BYTES:
        raise SourceRefused(bomb)
    for entry in entries:
        if entry.file_size > 1024 * 1024 and (
                entry.compress_size == 0 or entry.file_size / entry.compress_size > MAX_ZIP_RATIO):
            raise SourceRefused(bomb)


def _decode(data: bytes, filename: str) -> str:
    if b"\x00" in data[:8192]:
        raise SourceRefused(f"{filename}: this is not text, whatever its name says")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SourceRefused(f"{filename}: not UTF-8 text (save it as UTF-8 and upload "
                            "it again)") from None
    if problem := character_problem(text):  # a NUL past the first 8 KB
        raise SourceRefused(f"{filename}: {problem}")
    return text


def check_source_file(data: bytes, filename: str) -> str:
    """The file's kind, or ``SourceRefused``: cheap, reads no document (see above)."""
    kind = kind_of(filename)
    if not data:
        raise SourceRefused(f"{filename}: the file is empty")
    if len(data) > MAX_SOURCE_BYTES:
        raise SourceRefused(f"{filename}: the file is past the limit of "
                            f"{_mb(MAX_SOURCE_BYTES)} a file")
    if kind == "pdf":
        if b"%PDF-" not in data[:1024]:
            raise SourceRefused(f"{filename}: this is not a PDF, whatever its name says")
    elif kind in _ZIP_PARTS:
        _check_zip(data, filename, kind)
    else:
        _decode(data, filename)
    return kind


def _pdf_text(data: bytes, filename: str) -> str:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise SourceRefused(f"{filename}: the PDF is encrypted (password-protected); "
                                "upload an unprotected copy")
        if len(reader.pages) > MAX_PDF_PAGES:
            raise SourceRefused(f"{filename}: {len(reader.pages):,} pages, more than the "
                                f"{MAX_PDF_PAGES:,} read from one file; split it or upload "
                                "the part the debate needs")
        budget = _Budget(filename, MAX_PDF_PAGES, "pages")
        pages = []
        for page in reader.pages:
            budget.spend()
            pages.append(page.extract_text() or "")
    except (FileNotDecryptedError, DependencyError):
        raise SourceRefused(f"{filename}: the PDF is encrypted (password-protected); "
                            "upload an unprotected copy") from None
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise SourceRefused(f"{filename}: the PDF is damaged ({exc})") from None
    text = "\n\n".join(p.strip() for p in pages if p.strip())
    if not text:
        raise SourceRefused(f"{filename}: the PDF has no text layer (scanned pages or "
                            "images only); run it through OCR and upload the result")
    return text


def _cells(values: object) -> str:
    return " | ".join("" if v is None else str(v).strip() for v in values)  # type: ignore[attr-defined]


def _docx_text(data: bytes, filename: str) -> str:
    import docx
    from docx.oxml.ns import qn
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises its own and lxml's errors
        raise SourceRefused(f"{filename}: the document is damaged ({exc})") from None
    budget = _Budget(filename, MAX_DOCUMENT_BLOCKS, "paragraphs and table cells")
    # Counted in the XML first (cheap, C), before python-docx walks them (slow, Python).
    budget.spend(sum(1 for _ in document.element.body.iter(qn("w:p"), qn("w:tc"))))
    blocks: list[str] = []
    for block in document.iter_inner_content():
        budget.spend(0)  # the clock
        if isinstance(block, Table):
            blocks.append("\n".join(_cells(c.text for c in row.cells) for row in block.rows))
            continue
        text = block.text.strip()
        style = (block.style.name if block.style is not None else "") or ""
        if text and style.startswith("Heading") and style[-1:].isdigit():
            text = "#" * min(int(style[-1]), 6) + " " + text
        if text:
            blocks.append(text)
    return "\n\n".join(blocks)


def _xlsx_text(data: bytes, filename: str) -> str:
    import openpyxl

    try:
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds on a bad workbook
        raise SourceRefused(f"{filename}: the workbook is damaged ({exc})") from None
    budget = _Budget(filename, MAX_SHEET_CELLS, "cells")
    sheets = []
    try:
        for sheet in workbook.worksheets:
            # The size the sheet declares (its <dimension>), refused before a row is
            # read; a sheet declaring less is still counted row by row below.
            declared = (sheet.max_row or 0) * (sheet.max_column or 0)
            if budget.used + declared > MAX_SHEET_CELLS:
                budget.spend(declared)
            rows = []
            for row in sheet.iter_rows(values_only=True):
                budget.spend(len(row))  # empty cells too: a sparse sheet is work as well
                if any(v is not None for v in row):
                    rows.append(_cells(row))
            if rows:
                sheets.append(f"## {sheet.title}\n\n" + "\n".join(rows))
    finally:
        workbook.close()
    return "\n\n".join(sheets)


def _csv_text(data: bytes, filename: str) -> str:
    text = _decode(data, filename)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    return "\n".join(_cells(row) for row in csv.reader(io.StringIO(text), dialect) if row)


def _html_text(data: bytes, filename: str) -> str:
    from inscriptis import get_text

    return get_text(_decode(data, filename))


_CONVERTERS = {"pdf": _pdf_text, "docx": _docx_text, "xlsx": _xlsx_text, "csv": _csv_text,
               "html": _html_text, "markdown": _decode, "text": _decode}


def extract_text(data: bytes, filename: str) -> ExtractedText:
    kind = check_source_file(data, filename)
    text = _CONVERTERS[kind](data, filename)
    # A converter may give what no database stores (a PDF's NUL, an unpaired surrogate
    # from its character map): dropped and replaced, as the file's own text cannot be.
    text = printable(text.replace("\r\n", "\n").replace("\r", "\n")).strip()
    if not text:
        raise SourceRefused(f"{filename}: the file holds no text")
    if len(text) > MAX_TEXT_CHARS:
        raise SourceRefused(f"{filename}: {len(text):,} characters of text is past the "
                            f"limit of {MAX_TEXT_CHARS:,} a file")
    return ExtractedText(text, kind)
