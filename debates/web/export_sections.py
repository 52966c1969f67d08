"""Sections other apps add to a debate's Markdown export (and so to its print view).

debates must not import the apps above it (collab, personas), yet the team's work on a
synthesis (actions, checked claims) belongs in the export. An app registers a writer
when it is ready (collab/apps.py); each returns Markdown, or "" when it has nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from debates.models import Debate

ReportSection = Callable[["Debate"], str]

_sections: dict[str, ReportSection] = {}


def register(name: str, section: ReportSection) -> None:
    """Adds (or, under the same name, replaces) a section writer."""
    _sections[name] = section


def extra_sections(debate: Debate) -> str:
    """Every registered section for ``debate``, in registration order, blank-line
    separated; "" when none has anything."""
    parts = [text.strip() for text in (write(debate) for write in _sections.values()) if text]
    return "\n\n".join(p for p in parts if p)
