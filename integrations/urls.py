"""The integrations' HTML and webhook routes (the MCP server has none: it runs on stdio)."""

from django.urls import path

from integrations.slack import commands, pages

app_name = "integrations"

urlpatterns = [
    path("integrations/slack/commands", commands.slack_command, name="slack_command"),
    path("integrations/slack/link/<str:token>/", pages.slack_link, name="slack_link"),
    path("teams/<uuid:code>/slack/", pages.team_slack, name="team_slack"),
    path("teams/<uuid:code>/slack/unlink", pages.team_slack_unlink, name="team_slack_unlink"),
]
