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
