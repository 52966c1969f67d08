"""A debate's Markdown export, the one the web download, the print view and the API's
``export.md`` all serve, the sections other apps add to it, and the keys they add to
its JSON export.

debates must not import the apps above it (collab, personas), yet the team's work on a
synthesis (actions, checked claims, comment threads) belongs in the export. An app
registers a writer when it is ready (collab/apps.py); each returns Markdown, or "" when
it has nothing. A writer registered with ``option`` is written only when the caller asks
for that option (the comment threads: ``?threads=1``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from debates.engine import get_protocol

if TYPE_CHECKING:
    from pydantic import BaseModel

    from debates.models import Debate

ReportSection = Callable[["Debate"], str]
# Returns a JSON-ready value for the export's key of the same name, or None to leave
# the key out.
JsonSection = Callable[["Debate"], Any]


@dataclass(frozen=True)
class _Registered:
    write: ReportSection
    option: str | None


_sections: dict[str, _Registered] = {}
_json_sections: dict[str, JsonSection] = {}

# Export options a caller may ask for, each naming the sections it adds.
THREADS = "threads"


def register(name: str, section: ReportSection, *, option: str | None = None) -> None:
    """Adds (or, under the same name, replaces) a section writer; with ``option`` it
    is written only into exports that ask for that option."""
    _sections[name] = _Registered(section, option)


def extra_sections(debate: Debate, options: Collection[str] = ()) -> list[str]:
    """Every registered section for ``debate`` that has something to say, in
    registration order."""
    texts = (entry.write(debate) for entry in _sections.values()
             if entry.option is None or entry.option in options)
    return [text.strip() for text in texts if text and text.strip()]


def export_markdown(debate: Debate, result: BaseModel, *,
                    options: Collection[str] = ()) -> str:
    """The report: the protocol's own sections, then what the apps add (the team's
    follow-up, the comment threads when ``THREADS`` is in ``options``), as a list of
    sections joined by a blank line. A doubtful or unusable result's quality lines are
    the protocol report's own, right under its title (report_parts.quality_lines)."""
    report = get_protocol(debate.protocol).render_markdown(result).strip()
    return "\n\n".join([report, *extra_sections(debate, options)]) + "\n"


# Question openings that say nothing about the subject ("Should we use Kafka or SQS?").
_FILLER = re.compile(
    r"^(?:(?:should|shall|can|could|would|do|does|did|is|are|was|will|what|which|how|why|"
    r"when|where|who|we|i|you|our|the|a|an|to|use|it|be|there|whether)\b[\s,]*)+",
    re.IGNORECASE)
_SLUG_CHARS = 60


def export_filename(debate: Debate, extension: str, *, options: Collection[str] = ()) -> str:
    """``2026-12-01-kafka-or-sqs-for-events.md``: the day the debate was asked and the
    subject of its question's first sentence, readable in a downloads folder; with the
    comment threads, ``...-with-comments.md``, so it does not replace the plain one."""
    first = re.split(r"(?<=[.?!。？！])\s*", debate.question.strip(), maxsplit=1)[0]
    slug = slugify(_FILLER.sub("", first) or first, allow_unicode=True)
    if len(slug) > _SLUG_CHARS:
        slug = slug[:_SLUG_CHARS].rsplit("-", 1)[0] or slug[:_SLUG_CHARS]
    day = timezone.localtime(debate.created_at).date().isoformat()
    variant = "-with-comments" if THREADS in options else ""
    return f"{day}-{slug or 'debate'}{variant}.{extension}"


def attachment(filename: str) -> str:
    """The Content-Disposition header of a download named ``filename`` (RFC 6266, with
    ``filename*`` for a non-ASCII name)."""
    return content_disposition_header(True, filename) or "attachment"


def register_json(key: str, section: JsonSection) -> None:
    """Adds (or replaces) the writer of the JSON export's top-level ``key``."""
    _json_sections[key] = section


def extra_json(debate: Debate) -> dict[str, Any]:
    """Every registered JSON key for ``debate`` whose writer has something."""
    found = ((key, write(debate)) for key, write in _json_sections.items())
    return {key: value for key, value in found if value is not None}
