"""A source version's kind and note as a page shows them, in the page's language (docs/web.md,
"Languages"): ``{{ version.kind|source_kind }}``, ``{{ version.note|source_note }}``."""

from __future__ import annotations

from django import template

from view_kit.site_words import ui

register = template.Library()

# The services' own notes on a version (sources/services.py, ``sources_upload``); a note a
# person wrote is shown as written.
_SERVICE_NOTES = {"Uploaded": "site.sources.note.uploaded",
                  "New version": "site.sources.note.new_version"}


@register.filter(name="source_kind")
def source_kind(kind: object) -> str:
    """The file's kind: a format's name (PDF, DOCX, MARKDOWN...) as it is, plain text in words."""
    return ui("site.sources.kind.text") if kind == "text" else str(kind or "").upper()


@register.filter(name="source_note")
def source_note(note: object) -> str:
    text = str(note or "")
    return ui(_SERVICE_NOTES[text]) if text in _SERVICE_NOTES else text
