from django.apps import AppConfig


class PersonasConfig(AppConfig):
    name = "personas"
    verbose_name = "Personas"

    def ready(self) -> None:
        # debates offers library personas through this port; it imports nothing from
        # personas (dependencies point debates <- personas).
        from debates import persona_sources
        from personas.debate_source import LibraryPersonaSource

        persona_sources.register(LibraryPersonaSource())
