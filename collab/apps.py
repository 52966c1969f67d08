from django.apps import AppConfig


class CollabConfig(AppConfig):
    name = "collab"
    verbose_name = "Comments and reviews"

    def ready(self) -> None:
        from collab.exports import actions_json, follow_up_markdown
        from debates import report_extras

        report_extras.register("collab.follow_up", follow_up_markdown)
        report_extras.register_json("actions", actions_json)
