"""What ``/council`` says in Slack: the replies to a command (only its sender sees
them) and the finished debate's result (posted to the channel). Slack's mrkdwn; every
text from a user or a model is escaped (https://api.slack.com/reference/surfaces/formatting)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from accounts.services import site_link
from debates import selectors
from debates.models import Debate, DebateStatus

USAGE = (
    "*/council QUESTION [options]* starts a debate of your team's panel on QUESTION; "
    "the result is posted here when it ends.\n"
    "Options, as in the `council` command line: `--protocol council|adversarial|workflow`, "
    "`--mode quick|medium|deep`, `--deep`, `--agents N`, `--rounds N`, `--threshold X`, "
    '`--options "A, B"` (what the verdicts choose between), `--context "TEXT"`, '
    "`--model M`, `--panel-models A,B`, `--synthesis-model M`, `--fallback-model M`, "
    "`--anonymize`, `--seed N`.\n"
    "*/council link* links your Slack user to your Council account. "
    "*/council help* shows this."
)

QUALITY_WORDS = {
    "sound": "sound",
    "doubtful": "doubtful: read with care",
    "unusable": "unusable: the words carry no content, act on nothing in it",
}
LINE_CHARS = 300


def escape(text: str) -> str:
    """Slack's three control characters, so a question cannot ping @channel or forge
    a link."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def one_line(text: str, limit: int = LINE_CHARS) -> str:
    words = " ".join(text.split())
    return words if len(words) <= limit else words[:limit - 1].rstrip() + "…"


def ephemeral(text: str) -> dict[str, Any]:
    return {"response_type": "ephemeral", "text": text}


def debate_link(debate: Debate) -> str:
    url = site_link(reverse("debates:detail", args=[debate.code]))
    return f"<{url}|{escape(one_line(debate.question, 150))}>"


def not_linked_workspace(slack_team_id: str) -> dict[str, Any]:
    teams = site_link(reverse("accounts:team_list"))
    return ephemeral(
        f"This Slack workspace ({escape(slack_team_id)}) is not linked to a Council team. "
        f"A team owner links it on the team's Slack page ({teams} → your team → Slack), "
        "or the site operator runs "
        f"`manage.py slack_link TEAM {escape(slack_team_id)}`.")


def not_linked_user(url: str) -> dict[str, Any]:
    return ephemeral(
        "Your Slack user is not linked to a Council account yet. To link it, open this link "
        f"while signed in to Council (it works once, for 15 minutes): {url}\n"
        "Then run your command again. (`/council link` gives a new link at any time.)")


def link_offer(url: str) -> dict[str, Any]:
    return ephemeral(
        "Open this link while signed in to Council to link your Slack user to your account "
        f"(it works once, for 15 minutes): {url}")


def refused(reason: str) -> dict[str, Any]:
    return ephemeral(f"Not started: {escape(reason)}.\nSee `/council help`.")


def started(debate: Debate) -> dict[str, Any]:
    return ephemeral(
        f"Started a {escape(debate.protocol)} debate ({escape(debate.mode)}): "
        f"{debate_link(debate)}\nThe result will be posted here when it ends.")


def result(debate: Debate) -> dict[str, Any]:
    """The debate's end, for the channel: the decision in a line, the quality, what the
    debate changed, a link. Read through the protocol-neutral summary."""
    if debate.status != DebateStatus.SUCCEEDED:
        reason = one_line(debate.error or debate.stop_explanation or debate.status)
        return {"response_type": "in_channel", "text":
                f"*Council debate {escape(debate.status)}:* {debate_link(debate)}\n"
                f"{escape(reason)}"}
    typed = selectors.debate_result(debate=debate)
    summary = getattr(typed, "summary", None)
    lines = [f"*Council debate finished:* {debate_link(debate)}"]
    if summary is not None:
        if summary.decision:
            lines.append(f"*Decision:* {escape(one_line(summary.decision))}")
        else:
            lines.append("*No single recommendation:* "
                         + escape(one_line(summary.divergence or summary.stop_explanation)))
        lines.append(f"*Quality:* {QUALITY_WORDS.get(str(summary.quality), summary.quality)}")
    # What the debate changed, where the protocol's result says it (the council's
    # first vote against its final one; docs/engine.md): read by name, any protocol.
    change = getattr(getattr(typed, "debate_change", None), "words", "")
    if change:
        lines.append(f"*What the debate changed:* {escape(one_line(change))}")
    if debate.simulated:
        lines.append("_Simulated model: placeholder content, not advice._")
    elif debate.degraded:
        lines.append("_Degraded: some calls failed or fell back; a weaker result._")
    return {"response_type": "in_channel", "text": "\n".join(lines)}
