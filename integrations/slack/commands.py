"""``POST /integrations/slack/commands``: Slack's slash command ``/council``
(docs/integrations.md, "Slack").

Slack signs each request with the app's signing secret; an unsigned, wrongly signed or
stale one (over 5 minutes) is a 401 and nothing is created. Slack waits 3 s for the
answer, so this only creates the debate (its first step is queued for the workers)
and answers at once; the result is posted to the command's ``response_url`` by a
worker when the debate ends (``integrations.slack.tasks``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from slack_sdk.signature import SignatureVerifier

from accounts.access import Need, require_role
from debates.engine import InputError
from debates.limits import RateLimited
from debates.services import debate_start
from integrations.models import SlackWorkspace
from integrations.slack import messages
from integrations.slack.links import command_record, link_url, linked_user, workspace_for
from integrations.slack.options import UsageError, read_command

logger = logging.getLogger(__name__)

# A slash command's form is a few hundred bytes plus the text (Slack caps that at a
# few thousand characters); anything far larger is not from Slack.
MAX_BODY_BYTES = 64 * 1024
MAX_RESPONSE_URL_CHARS = 2000


def _refusal(status: int, message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _signed_body(request: HttpRequest) -> bytes | JsonResponse:
    """The body, once its size and Slack's signature are checked; else the refusal."""
    secret = settings.COUNCIL_SLACK_SIGNING_SECRET
    if not secret.strip():
        return _refusal(503, "Slack is not set up on this site (COUNCIL_SLACK_SIGNING_SECRET)")
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = MAX_BODY_BYTES + 1
    if declared > MAX_BODY_BYTES:
        return _refusal(413, f"the body is over {MAX_BODY_BYTES} bytes")
    body = request.body
    if len(body) > MAX_BODY_BYTES:
        return _refusal(413, f"the body is over {MAX_BODY_BYTES} bytes")
    # slack-sdk compares in constant time and refuses a timestamp over 5 minutes off.
    verifier = SignatureVerifier(secret)
    try:
        valid = verifier.is_valid(body=body,
                                  timestamp=request.headers.get("X-Slack-Request-Timestamp", ""),
                                  signature=request.headers.get("X-Slack-Signature", ""))
    except ValueError:  # a timestamp that is not a number
        valid = False
    if not valid:
        return _refusal(401, "invalid or stale Slack signature")
    return body


@csrf_exempt  # Slack cannot hold a CSRF token: its signature authenticates the request
@require_POST
def slack_command(request: HttpRequest) -> HttpResponse:
    body = _signed_body(request)
    if isinstance(body, JsonResponse):
        return body
    fields = QueryDict(body.decode("utf-8", errors="replace"))
    return JsonResponse(answer(fields))


def answer(fields: QueryDict) -> dict[str, Any]:
    """The reply to a verified command: usage, a link, a refusal or "started"."""
    text = fields.get("text", "").strip()
    slack_team_id, slack_user_id = fields.get("team_id", ""), fields.get("user_id", "")
    if text in ("", "help", "--help", "-h"):
        return messages.ephemeral(messages.USAGE)
    workspace = workspace_for(slack_team_id=slack_team_id)
    if workspace is None:
        return messages.not_linked_workspace(slack_team_id)
    if text == "link":
        return messages.link_offer(link_url(workspace=workspace, slack_user_id=slack_user_id))
    user = linked_user(workspace=workspace, slack_user_id=slack_user_id)
    if user is None:
        return messages.not_linked_user(
            link_url(workspace=workspace, slack_user_id=slack_user_id))
    return start(workspace, user, text, fields)


def start(workspace: SlackWorkspace, user: User, text: str,
          fields: QueryDict) -> dict[str, Any]:
    team = workspace.team
    try:
        require_role(team=team, user=user, noun="team", need=Need.WRITE)
    except Http404:
        return messages.refused(f"your account {user.get_username()} is no longer a member "
                                f"of {team.name}")
    except PermissionDenied as exc:
        return messages.refused(str(exc).rstrip("."))
    response_url = fields.get("response_url", "")
    if (not response_url.startswith(("https://", "http://"))
            or len(response_url) > MAX_RESPONSE_URL_CHARS):
        return messages.refused("the command came without a usable response_url")
    try:
        spec = read_command(text)
        with transaction.atomic():  # the debate and where its result goes, together
            debate = debate_start(team=team, user=user, spec=spec)
            command_record(debate=debate, slack_team_id=workspace.slack_team_id,
                           slack_user_id=fields.get("user_id", ""),
                           channel_id=fields.get("channel_id", "")[:32],
                           response_url=response_url)
    except UsageError as exc:
        return messages.refused(str(exc))
    except RateLimited as exc:
        return messages.refused(f"{str(exc).rstrip('.')} (retry in {exc.retry_after_s} s)")
    except InputError as exc:  # bad input, a cost cap or the budget: nothing was saved
        return messages.refused(str(exc).rstrip("."))
    logger.info("slack command started debate %s for %s", debate.code, user.pk)
    return messages.started(debate)
