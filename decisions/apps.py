from django.apps import AppConfig


class DecisionsConfig(AppConfig):
    name = "decisions"
    verbose_name = "Decisions and follow-through"

    def ready(self) -> None:
        from debates import report_extras
        from decisions.exports import decision_json, decision_markdown

        report_extras.register("decisions.decision", decision_markdown)
        report_extras.register_json("decision", decision_json)
