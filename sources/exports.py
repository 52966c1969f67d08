"""A debate's sources in its exports (registered in sources/apps.py): the Markdown
export's "Sources" section (each source's id, title, file and version, and the passages
the debate cited from it) and the JSON export's ``sources`` key. The evidence itself
(used, contested, claims on none, citations that do not check out, with passage ids and
quotes) is the protocol report's own section and the result's ``evidence`` (docs/web.md,
"Sources")."""

from __future__ import annotations

from typing import Any

from debates.engine import inline
from debates.models import Debate
from debates.page_words import PageWords
from debates.selectors import debate_result
from sources import selectors
from sources.models import DebateSource


def _cited(debate: Debate) -> tuple[str, dict[str, list[str]]]:
    """The result's language and, by source id, the passages its evidence used."""
    result = debate_result(debate=debate)
    language = str(getattr(result, "language", "") or "en")
    evidence = getattr(result, "evidence", None)
    cited: dict[str, list[str]] = {}
    for use in getattr(evidence, "used", None) or []:
        cited.setdefault(use.passage.split(".", 1)[0], []).append(use.passage)
    return language, cited


def _entry(link: DebateSource, cited: list[str]) -> dict[str, Any]:
    version = link.version
    return {
        "id": link.source_id, "title": link.title,
        "filename": version.filename if version else None,
        "kind": version.kind if version else None,
        "version": version.number if version else None,
        "sha256": version.sha256 if version else None,
        "status": version.status if version else "deleted",
        "cited": cited,
    }


def sources_json(debate: Debate) -> list[dict[str, Any]] | None:
    """The JSON export's ``sources``: each of the debate's sources and the passages
    cited from it; None (no key) for a debate without sources."""
    links = selectors.debate_links(debate=debate)
    if not links:
        return None
    _, cited = _cited(debate)
    return [_entry(link, cited.get(link.source_id, [])) for link in links]


def sources_markdown(debate: Debate) -> str:
    """"## Sources": a line per source, in the debate's language; "" without any."""
    links = selectors.debate_links(debate=debate)
    if not links:
        return ""
    language, cited = _cited(debate)
    t = PageWords(language)
    out = [f"## {t('sources.export.title')}", ""]
    for link in links:
        entry = _entry(link, cited.get(link.source_id, []))
        line = f"- **{link.source_id}** {inline(link.title)}"
        if link.version is None:
            line += f" — {t('sources.export.deleted')}"
        else:
            line += " — " + t("sources.export.file", filename=inline(entry["filename"]),
                              version=entry["version"], sha=entry["sha256"][:12])
        if entry["cited"]:
            line += " · " + t("sources.export.cited", passages=", ".join(entry["cited"]))
        out.append(line)
    return "\n".join(out)
