"""The template loader that finds each registered protocol's page partials in the
protocol's own package (``DebateProtocol.page_templates``), a plugin's the same way
as the built-ins' (docs/web.md, "Templates")."""

from __future__ import annotations

from pathlib import Path

from django.template.loaders.filesystem import Loader as FilesystemLoader

from debates.engine import get_protocol, known_protocols


def protocol_template_dirs() -> list[Path]:
    """Every registered protocol's template folder, in registration order."""
    folders = (get_protocol(name).page_templates() for name in known_protocols())
    return [folder for folder in folders if folder is not None]


class ProtocolTemplateLoader(FilesystemLoader):
    def get_dirs(self) -> list[str | Path]:
        return list(protocol_template_dirs())
