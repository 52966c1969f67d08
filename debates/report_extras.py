"""Sections other apps add to a debate's Markdown export (and so to its print view),
and keys they add to its JSON export.

debates must not import the apps above it (collab, personas), yet the team's work on a
synthesis (actions, checked claims) belongs in the export. An app registers a writer
when it is ready (collab/apps.py); each returns Markdown, or "" when it has nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from debates.models import Debate

ReportSection = Callable[["Debate"], str]
# Returns a JSON-ready value for the export's key of the same name, or None to leave
# the key out.
JsonSection = Callable[["Debate"], Any]

_sections: dict[str, ReportSection] = {}
_json_sections: dict[str, JsonSection] = {}


def register(name: str, section: ReportSection) -> None:
    """Adds (or, under the same name, replaces) a section writer."""
    _sections[name] = section


def extra_sections(debate: Debate) -> str:
    """Every registered section for ``debate``, in registration order, blank-line
    separated; "" when none has anything."""
    parts = [text.strip() for text in (write(debate) for write in _sections.values()) if text]
    return "\n\n".join(p for p in parts if p)


def register_json(key: str, section: JsonSection) -> None:
    """Adds (or replaces) the writer of the JSON export's top-level ``key``."""
    _json_sections[key] = section


def extra_json(debate: Debate) -> dict[str, Any]:
    """Every registered JSON key for ``debate`` whose writer has something."""
    found = ((key, write(debate)) for key, write in _json_sections.items())
    return {key: value for key, value in found if value is not None}
