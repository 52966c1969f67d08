from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        # The producers (debates, decisions, evaluations, sources) only send signals;
        # this app listens, so none of them imports it.
        from webhooks import receivers

        receivers.connect()
