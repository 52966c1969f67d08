from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # The producers (debates, collab, accounts) only send signals; this app
        # listens, so they never import it.
        from notifications import receivers

        receivers.connect()
