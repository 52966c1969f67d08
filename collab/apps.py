from django.apps import AppConfig


class CollabConfig(AppConfig):
    name = "collab"
    verbose_name = "Comments and reviews"

    def ready(self) -> None:
        from collab.exports import follow_up_markdown
        from debates.web import export_sections

        export_sections.register("collab.follow_up", follow_up_markdown)
