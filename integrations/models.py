"""What the Slack command keeps (docs/integrations.md, "Slack"): which team a Slack
workspace speaks for, which Council user each Slack user acts as, and where a
command's debate posts its result."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SlackWorkspace(models.Model):
    """A Slack workspace linked to a team: its slash commands start the team's debates.
    One workspace per team and one team per workspace."""

    team = models.OneToOneField("accounts.Team", on_delete=models.CASCADE,
                                related_name="slack_workspace")
    # Slack's id of the workspace ("T" and letters), as its commands send it (team_id).
    slack_team_id = models.CharField(max_length=32, unique=True)
    linked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.slack_team_id} -> {self.team}"


class SlackUser(models.Model):
    """A Slack user of a linked workspace and the Council account they act as."""

    workspace = models.ForeignKey(SlackWorkspace, on_delete=models.CASCADE,
                                  related_name="users")
    slack_user_id = models.CharField(max_length=32)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="slack_users")
    # When the link was made: a link page issued before it cannot be used again.
    linked_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace", "slack_user_id"],
                                               name="one_account_per_slack_user")]

    def __str__(self) -> str:
        return f"{self.slack_user_id}@{self.workspace.slack_team_id} -> {self.user}"


class SlackCommand(models.Model):
    """A debate started by ``/council``: where its result goes when it ends, and how
    that post went."""

    debate = models.OneToOneField("debates.Debate", on_delete=models.CASCADE,
                                  related_name="slack_command")
    slack_team_id = models.CharField(max_length=32)
    slack_user_id = models.CharField(max_length=32)
    channel_id = models.CharField(max_length=32, blank=True)
    # Slack's per-command webhook (valid 30 minutes, for 5 posts).
    response_url = models.URLField(max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)
    posted_at = models.DateTimeField(null=True, blank=True)
    # Slack's answer to the post (HTTP status; 0 when none came) and its first bytes.
    post_status = models.IntegerField(null=True, blank=True)
    post_answer = models.CharField(max_length=500, blank=True)

    def __str__(self) -> str:
        return f"/council for {self.debate_id}"
