"""A notification's words in its reader's language: a site-catalogue key and the
values that fill it, stored with the notification and worded when it is shown or
mailed (docs/web.md, "Languages"). Values named ``role`` or ``reason`` are words of
the catalogues themselves (a team role, a debate's stop reason), and an action
``about`` the debate as a whole says "general", all worded in the same language;
the rest (names, questions, dates) are shown as written."""

from __future__ import annotations

from typing import Any

from debates.page_words import PageWords
from view_kit.site_words import language_of, ui


def _value(name: str, value: Any, language: str | None) -> Any:
    if name == "about" and value == "general":  # an action on the debate as a whole
        return ui("site.collab.general", language)
    if name == "role":
        return ui(f"site.role.{value}", language)
    if name == "reason":
        words = PageWords(language_of(language) if language else None)
        key = f"reason.{value}"
        return words(key) if key in words else str(value).replace("_", " ")
    return value


def worded(key: str, values: dict[str, Any], language: str | None = None) -> str:
    """``key`` filled with ``values`` in ``language``; "" when there is no key or the
    catalogue has none of that name (the caller shows the stored English instead)."""
    if not key:
        return ""
    try:
        return ui(key, language, **{n: _value(n, v, language) for n, v in values.items()})
    except (KeyError, IndexError, ValueError):
        return ""
