"""Stored results keep loading and keep their JSON shape.

The files under tests/fixtures/results/ are the CLI's JSON (simulated, one per
protocol) written before the three result models shared a base; a result stored in
the database or exported then must still validate, and must dump to the same JSON,
key order included, so exports diff cleanly against older ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debates.engine.protocols import get_protocol
from debates.engine.schemas import ProtocolResult

FIXTURES = Path(__file__).parents[1] / "fixtures" / "results"


@pytest.mark.parametrize("name", ["council", "adversarial", "workflow"])
def test_a_stored_result_loads_and_dumps_to_the_same_json(name):
    stored = json.loads((FIXTURES / f"{name}.json").read_text())
    protocol = get_protocol(stored["protocol"])
    result = protocol.parse_result(stored)
    assert isinstance(result, ProtocolResult)
    assert json.dumps(result.model_dump(mode="json")) == json.dumps(stored)
    assert json.loads(result.model_dump_json()) == stored


def test_every_protocol_result_shares_the_base_fields():
    shared = set(ProtocolResult.model_fields)
    assert {"question", "protocol", "config", "degraded", "usage"} <= shared
    for name in ("council", "adversarial", "workflow"):
        model = get_protocol(name).result_model
        assert issubclass(model, ProtocolResult)
        # The shared tail stays last in the JSON, after the protocol's own fields.
        keys = list(json.loads((FIXTURES / f"{name}.json").read_text()))
        tail = [k for k in keys if k in ProtocolResult.json_tail]
        assert tail == list(ProtocolResult.json_tail)
