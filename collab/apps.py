from django.apps import AppConfig


class CollabConfig(AppConfig):
    name = "collab"
    verbose_name = "Comments and reviews"

    def ready(self) -> None:
        from collab.exports import actions_json, follow_up_markdown, threads_markdown
        from debates.web import export_sections

        # Sections in export order; the threads only when the export asks for them.
        export_sections.register("collab.follow_up", follow_up_markdown)
        export_sections.register("collab.threads", threads_markdown, option=export_sections.THREADS)
        export_sections.register_json("actions", actions_json)
