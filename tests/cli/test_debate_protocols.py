"""``manage.py debate --protocol adversarial|workflow`` end to end on the simulator."""

from __future__ import annotations

import io
import json

import jsonschema
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from debates.engine.protocols.adversarial.schemas import AdversarialResult
from debates.engine.protocols.workflow.schemas import WorkflowResult


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("debate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_adversarial_json_and_markdown():
    question = "Design the API and database schema for a multi-tenant rate limiter"
    out, err = run(question, "--protocol", "adversarial", "--format", "json", "--rounds", "4")
    data = json.loads(out)
    jsonschema.validate(data, AdversarialResult.model_json_schema())
    assert data["protocol"] == "adversarial" and data["max_rounds"] == 4
    assert "Round 1/4  red×" in err  # the status line after each round, on stderr
    out, _ = run(question, "--protocol", "adversarial", "--verbose")
    assert out.startswith("# Adversarial review")
    assert "## Final solution" in out and "## Remaining risks" in out
    assert "# Rounds in full" in out  # --verbose: every proposal and critique


def test_workflow_deep_json_and_markdown():
    question = "Should we adopt a four-day week for the support team?"
    out, err = run(question, "--protocol", "workflow", "--deep", "--format", "json",
                   "--synthesis-model", "sim/strong")
    data = json.loads(out)
    jsonschema.validate(data, WorkflowResult.model_json_schema())
    assert data["deep"] is True and data["synthesis_model"] == "sim/strong"
    assert "phase 2" in err and "contract" in err
    out, _ = run(question, "--protocol", "workflow")
    assert out.startswith("# Workflow analysis") and "## Convergence status" in out


def test_unknown_protocol_is_refused_by_the_parser():
    with pytest.raises(CommandError, match="invalid choice: 'delphi'"):
        run("Q?", "--protocol", "delphi")
