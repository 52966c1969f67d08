"""Small real files of each kind a source may be, built here with the libraries (no
binary fixtures in git): PDFs with and without a text layer, encrypted ones, DOCX,
XLSX, and zip bombs dressed as office files."""

from __future__ import annotations

import io
import zipfile

from pypdf import PdfWriter
from pypdf.generic import (
    DecodedStreamObject,
    DictionaryObject,
    NameObject,
)


def pdf_bytes(lines: list[str] | None = None, *, password: str | None = None) -> bytes:
    """A one-page PDF showing ``lines`` in Helvetica (no lines: a page with no text,
    as a scan without OCR is)."""
    writer = PdfWriter()
    page = writer.add_blank_page(width=612, height=792)
    if lines:
        font = DictionaryObject({
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        })
        page[NameObject("/Resources")] = DictionaryObject({
            NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)}),
        })
        ops = ["BT", "/F1 12 Tf", "72 720 Td", "14 TL"]
        for line in lines:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"({escaped}) '")
        ops.append("ET")
        stream = DecodedStreamObject()
        stream.set_data("\n".join(ops).encode("latin-1"))
        page[NameObject("/Contents")] = writer._add_object(stream)
    if password is not None:
        writer.encrypt(user_password=password, owner_password=password + "-owner",
                       algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def docx_bytes(heading: str, paragraphs: list[str], table: list[list[str]] | None = None) -> bytes:
    import docx

    document = docx.Document()
    document.add_heading(heading, level=1)
    for text in paragraphs:
        document.add_paragraph(text)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def xlsx_bytes(sheets: dict[str, list[list[object]]]) -> bytes:
    import openpyxl

    workbook = openpyxl.Workbook()
    first = True
    for title, rows in sheets.items():
        sheet = workbook.active if first else workbook.create_sheet()
        first = False
        assert sheet is not None
        sheet.title = title
        for row in rows:
            sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def zip_bomb(kind: str = "docx", unpacked: int = 200 * 1024 * 1024) -> bytes:
    """An office-looking zip whose one part expands ``unpacked`` bytes of zeros (written
    in chunks, so building it holds little memory)."""
    part = {"docx": "word/document.xml", "xlsx": "xl/workbook.xml"}[kind]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open(part, "w", force_zip64=True) as member:
            chunk = b"\0" * (1024 * 1024)
            for _ in range(unpacked // len(chunk)):
                member.write(chunk)
    return out.getvalue()
