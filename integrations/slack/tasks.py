"""The worker's half of ``/council``: post the ended debate to the command's
``response_url`` (docs/integrations.md, "Slack"). Run by django-q2, never in a request
or a debate step; one attempt with a bounded timeout (Slack takes at most 5 posts to a
response_url, within 30 minutes of the command), its answer kept on the command."""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils import timezone
from slack_sdk.webhook import WebhookClient

from integrations.models import SlackCommand
from integrations.slack import messages

logger = logging.getLogger(__name__)

ANSWER_CHARS = 500


def post_result(debate_id: int) -> int:
    """Posts the debate's result once; returns Slack's HTTP status (0: no answer)."""
    command = (SlackCommand.objects.select_related("debate")
               .filter(debate_id=debate_id, posted_at__isnull=True).first())
    if command is None:
        return 0
    client = WebhookClient(command.response_url,
                           timeout=settings.COUNCIL_SLACK_POST_TIMEOUT_SECONDS)
    try:
        response = client.send_dict(messages.result(command.debate))
        status, answer = response.status_code, str(response.body or "")
    except OSError as exc:  # refused, unreachable, timed out (URLError is an OSError)
        status, answer = 0, f"{type(exc).__name__}: {exc}"
    SlackCommand.objects.filter(pk=command.pk).update(
        posted_at=timezone.now(), post_status=status, post_answer=answer[:ANSWER_CHARS])
    if status != 200:
        logger.warning("slack result for debate %s not taken: %s %s", debate_id, status,
                       answer[:200])
    return status
