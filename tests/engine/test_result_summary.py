"""Every protocol's result carries the same summary (stop reason, decision or
divergence, degraded, simulated) first in its JSON, and every stop reason it can
name is documented."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import pytest

from debates.engine.protocols import get_protocol
from debates.engine.schemas import ResultSummary, SummaryStopReason

ROOT = Path(__file__).parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "results"


def _stored(name: str):
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    return get_protocol(data["protocol"]).parse_result(data)


@pytest.mark.parametrize("name", ["council", "adversarial", "workflow"])
def test_every_protocol_fills_the_summary_first_in_its_json(name):
    result = _stored(name)
    dumped = json.loads(result.model_dump_json())
    assert next(iter(dumped)) == "summary"
    summary = ResultSummary.model_validate(dumped["summary"])
    assert summary.protocol == name and summary.stop_reason
    assert summary.simulated is result.simulated and summary.degraded is result.degraded
    # A finished result either decides or says why it does not.
    assert (summary.decision is None) != (summary.divergence is None)
    # The stored debate lists the same stop reason the result's summary names.
    assert get_protocol(name).outcome(result)[0] == summary.stop_reason


def test_the_council_names_its_recommendation_or_its_divergence():
    result = _stored("council")
    assert result.summary.decision == result.recommended_path.recommendation
    data = result.model_dump(mode="json") | {
        "stop_reason": "genuine_disagreement", "recommended_path": None,
        "divergence_report": {"summary": "Two camps on cost.", "camps": [
            {"agent": "Ann", "view": "too dear"}], "what_would_resolve_it": []}}
    split = type(result).model_validate(data)
    assert split.summary.stop_reason == "genuine_disagreement"
    assert split.summary.decision is None and split.summary.divergence == "Two camps on cost."


def test_the_adversarial_decision_is_its_final_solution():
    result = _stored("adversarial")
    assert result.summary.decision == result.final_solution
    assert result.summary.stop_reason == result.stop_reason.value


def test_a_divergent_workflow_has_a_stop_reason_and_no_decision():
    result = _stored("workflow")
    data = result.model_dump(mode="json")
    data["convergence"]["status"] = "divergent"
    data["convergence"]["remaining_tension"] = "Timing against cost"
    divergent = type(result).model_validate(data)
    assert divergent.summary.stop_reason == "divergent"
    assert divergent.summary.decision is None
    assert divergent.summary.divergence == "Timing against cost"
    assert get_protocol("workflow").outcome(divergent)[0] == "divergent"


def test_every_stop_reason_is_documented_in_the_api_docs_and_the_skill():
    values = typing.get_args(SummaryStopReason)
    api = (ROOT / "docs" / "api.md").read_text()
    section = api[api.index("## The result summary"):]
    skill = (ROOT / "skills" / "council" / "SKILL.md").read_text()
    for value in values:
        assert re.search(rf"`{value}`", section), value
        assert f"`{value}`" in skill, value


@pytest.mark.parametrize("name", ["council", "adversarial", "workflow"])
def test_the_result_schema_lists_the_summary_first(name):
    schema = get_protocol(name).result_model.model_json_schema()
    assert next(iter(schema["properties"])) == "summary"
    listed = schema["properties"]["summary"]["properties"]["stop_reason"]["enum"]
    assert listed == list(typing.get_args(SummaryStopReason))


def test_a_japanese_results_json_gives_its_options_in_japanese_beside_the_identifiers():
    data = _stored("council").model_dump(mode="json")
    data |= {"language": "ja", "options": ["PostgreSQL", "MySQL", "conditional"]}
    dumped = json.loads(get_protocol("council").parse_result(data).model_dump_json())
    assert dumped["options"] == ["PostgreSQL", "MySQL", "conditional"]  # what verdicts name
    assert dumped["option_labels"] == ["PostgreSQL", "MySQL", "条件付き"]
