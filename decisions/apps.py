from django.apps import AppConfig


class DecisionsConfig(AppConfig):
    name = "decisions"
    verbose_name = "Decisions and follow-through"

    def ready(self) -> None:
        from debates.web import export_sections
        from decisions.exports import decision_json, decision_markdown

        export_sections.register("decisions.decision", decision_markdown)
        export_sections.register_json("decision", decision_json)
