"""Text out of an uploaded file, refusing what is not text we can read.

Two steps (docs/web.md, "Sources"):

- ``check_source_file(data, filename)`` is cheap and reads no document: the kind from
  the name, the bytes checked against it (``%PDF-``, a zip with the parts a DOCX or XLSX
  has, UTF-8 text without NUL bytes), the size limit, and a zip's entries (their total
  uncompressed size, their count and each one's compression ratio) before anything
  opens it. An upload runs it before a byte is stored.
- ``extract_text(data, filename)`` runs the check, then the converter (pypdf,
  python-docx, openpyxl, the csv module, inscriptis for HTML); it refuses an encrypted
  PDF and one with no text layer (scanned pages). A worker runs it, once per file.

Both raise ``SourceRefused`` with a message a user can act on; nothing is written
anywhere. The converters are imported when a file of their kind comes, so the engine's
start-up does not pay for them.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass
from pathlib import PurePath

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
    """A file that gives no text: the message says why and what to do."""


@dataclass(frozen=True)
class ExtractedText:
    text: str
    kind: str  # "text", "markdown", "pdf", "docx", "xlsx", "csv", "html"


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB"


def kind_of(filename: str) -> str:
    suffix = PurePath(filename).suffix.lower()
    if suffix not in KINDS:
        readable = ", ".join(sorted({k.lstrip(".").upper() for k in KINDS} - {"HTM", "MARKDOWN"}))
        raise SourceRefused(f"{filename}: this kind of file is not read "
                            f"(readable: {readable})")
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
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SourceRefused(f"{filename}: not UTF-8 text (save it as UTF-8 and upload "
                            "it again)") from None


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
        pages = [page.extract_text() or "" for page in reader.pages]
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
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises its own and lxml's errors
        raise SourceRefused(f"{filename}: the document is damaged ({exc})") from None
    blocks: list[str] = []
    for block in document.iter_inner_content():
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
    sheets = []
    for sheet in workbook.worksheets:
        rows = [_cells(r) for r in sheet.iter_rows(values_only=True)
                if any(v is not None for v in r)]
        if rows:
            sheets.append(f"## {sheet.title}\n\n" + "\n".join(rows))
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
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").strip()
    if not text:
        raise SourceRefused(f"{filename}: the file holds no text")
    if len(text) > MAX_TEXT_CHARS:
        raise SourceRefused(f"{filename}: {len(text):,} characters of text is past the "
                            f"limit of {MAX_TEXT_CHARS:,} a file")
    return ExtractedText(text, kind)
