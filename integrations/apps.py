from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    """Ways for programs and chat to use Council (the MCP server, the Slack command):
    they sit above every app."""

    name = "integrations"

    def ready(self) -> None:
        # The debates app only sends signals; the Slack command listens.
        from integrations.slack import receivers

        receivers.connect()
