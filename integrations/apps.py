from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    """Ways for programs to use Council (the MCP server): they sit above every app."""

    name = "integrations"
