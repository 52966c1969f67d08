"""``manage.py debate --options``: the options verdicts choose from, from the CLI."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError

from debates.engine.protocols.council.schemas import DebateResult
from tests.cli.test_debate_command import run

QUESTION = "Should we split our Django monolith into microservices within 12 months?"


def test_options_are_used_and_recorded():
    out, _ = run(QUESTION, "--mode", "quick", "--options", "Split now, Split later, Never",
                 "--format", "json")
    result = DebateResult.model_validate_json(out)
    assert result.options == ["Split now", "Split later", "Never"]
    assert result.config.options == result.options
    assert {a.initial_verdict for a in result.agents} <= set(result.options)
    assert sum(result.verdicts_before.counts.values()) == len(result.agents)


def test_without_options_a_question_naming_alternatives_gets_them():
    out, _ = run("Kafka or SQS for our event bus?", "--mode", "quick", "--format", "json")
    assert DebateResult.model_validate_json(out).options == ["Kafka", "SQS", "conditional"]


def test_the_markdown_report_opens_with_the_split():
    out, _ = run(QUESTION, "--mode", "quick", "--options", "yes, no")
    head = out.split("## ")[0]
    assert "**Verdicts:** before the debate" in head and "**Options:** yes · no" in head


def test_a_single_option_exits_2():
    with pytest.raises(CommandError, match="--options: give at least 2") as exc:
        run(QUESTION, "--options", "only this")
    assert exc.value.returncode == 2
