from django.apps import AppConfig


class DecisionsConfig(AppConfig):
    name = "decisions"
    verbose_name = "Decisions and follow-through"

    def ready(self) -> None:
        from debates.web import export_sections, page_cache
        from decisions.calibration import persona_api_records
        from decisions.exports import decision_json, decision_markdown
        from decisions.selectors import decision_fingerprint
        from personas import records

        export_sections.register("decisions.decision", decision_markdown)
        export_sections.register_json("decision", decision_json)
        # The debate page's cached body holds the decision (its answer block).
        page_cache.register_shown("decisions.decision", decision_fingerprint)
        # The persona API carries each library persona's record; personas cannot import
        # decisions (the layers point decisions -> personas), so it is handed over here.
        records.register(persona_api_records)
