from django.apps import AppConfig


class SourcesConfig(AppConfig):
    name = "sources"
    verbose_name = "Sources"

    def ready(self) -> None:
        # debates reaches a debate's sources through this port; it imports nothing from
        # sources (dependencies point debates <- sources).
        from debates import debate_sources
        from sources.debate_port import LibraryDebateSources

        debate_sources.register(LibraryDebateSources())
        # The exports' sources section (sources/exports.py).
        from debates.web import export_sections
        from sources.exports import sources_json, sources_markdown

        export_sections.register("sources.sources", sources_markdown)
        export_sections.register_json("sources", sources_json)
