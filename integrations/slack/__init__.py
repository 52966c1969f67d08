"""The Slack slash command ``/council`` (docs/integrations.md, "Slack")."""
