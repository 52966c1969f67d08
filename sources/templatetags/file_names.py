"""``{{ name|file_name }}``: an uploaded file's name as a page shows it (view_kit.file_names)."""

from __future__ import annotations

from django import template

from view_kit.file_names import shown_file_name

register = template.Library()


@register.filter(name="file_name")
def file_name(value: object) -> str:
    return shown_file_name(str(value or ""))
