"""``/council QUESTION --mode quick ...``: the command's text read with the engine
CLI's own options (``debates.engine.add_cli_arguments``), so Slack takes what
``council`` takes, spelled the same, minus what names a file on the server or shapes
only the CLI's output (docs/integrations.md, "Slack")."""

from __future__ import annotations

import re
import shlex
from argparse import ArgumentParser
from typing import Any, NoReturn

from debates.engine import (
    add_cli_arguments,
    check_agents,
    check_decision_rule,
    parse_options,
    parse_panel_models,
)
from debates.services import DebateSpec

# The CLI's options that Slack refuses: they read files on the server (--personas,
# --source, --sim-script), shape the CLI's own output or exit code, or save elsewhere.
NOT_FROM_SLACK = ("personas", "source", "sim_script", "format", "verbose", "save", "team",
                  "fail_on_quality", "judge_model")

# Where the options start: the first " --word" (a question may hold apostrophes and
# dashes, so only the options are split like a shell line).
FIRST_OPTION = re.compile(r"(?:^|\s)(--[a-z])")
# Phones and Macs type curly quotes; shell-like splitting knows only straight ones. In
# the question a curly apostrophe stays as typed.
STRAIGHT_DOUBLE = str.maketrans({"“": '"', "”": '"'})
STRAIGHT_SINGLE = str.maketrans({"‘": "'", "’": "'"})


class UsageError(Exception):
    """The command's text cannot be read; ``str(exc)`` says why, for the user."""


class _Parser(ArgumentParser):
    """The CLI's parser, refusing by exception instead of exiting the process."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise UsageError(message or "")


def _parser() -> _Parser:
    parser = _Parser(prog="/council", add_help=False)
    add_cli_arguments(parser)
    # No fixed draw: each debate gets a fresh seed, as from the page and the API.
    parser.set_defaults(seed=None, team=None)
    return parser


def split_text(text: str) -> tuple[str, list[str]]:
    """The question and the option words: a question in double quotes is what they
    hold (it may contain "--"), else everything before the first ``--option``."""
    text = text.strip().translate(STRAIGHT_DOUBLE)
    closing = text.find('"', 1) if text.startswith('"') else -1
    if closing > 0:
        question, rest = text[1:closing].strip(), text[closing + 1:]
    else:
        found = FIRST_OPTION.search(text)
        question, rest = (text[:found.start(1)], text[found.start(1):]) if found else (text, "")
        question = question.strip()
    try:
        words = shlex.split(rest.translate(STRAIGHT_SINGLE))
    except ValueError as exc:  # an unclosed quote
        raise UsageError(f"the options: {exc}") from None
    return question, words


def read_command(text: str) -> DebateSpec:
    """The debate ``text`` asks for, checked as the CLI checks its options; the team's
    limits and the rest are ``debate_start``'s. Raises UsageError."""
    question, words = split_text(text)
    # "--" first: a question that starts with a dash is still the question.
    opts: dict[str, Any] = vars(_parser().parse_args([*words, "--", question]))
    refused = [f"--{name.replace('_', '-')}" for name in NOT_FROM_SLACK
               if opts.get(name) not in (None, False, [], "md")]
    if refused:
        raise UsageError(f"{', '.join(refused)} cannot be used from Slack")
    try:
        check_agents(opts["protocol"], opts["agents"])
        check_decision_rule(opts["protocol"], opts["decision_rule"])
        options = parse_options(opts["options"])
        panel_models = parse_panel_models(opts["panel_models"]) or None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    synthesis = opts["synthesis_model"]
    return DebateSpec(
        question=question, context=opts["context"],
        mode="deep" if opts["deep"] else opts["mode"], protocol=opts["protocol"],
        model=opts["model"], panel_models=panel_models, agents=opts["agents"],
        max_rounds=opts["rounds"],
        threshold=opts["threshold"], anonymize_peers=opts["anonymize"] or None,
        options=options, fallback_model=opts["fallback_model"], seed=opts["seed"],
        phase_models={"synthesis": synthesis, "verify": synthesis} if synthesis else None,
        decision_rule=opts["decision_rule"],
    )
