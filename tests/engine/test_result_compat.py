"""Stored results keep loading and keep their JSON shape.

The files under tests/fixtures/results/ are the CLI's JSON (simulated, one per
protocol) written before the three result models shared a base; a result stored in
the database or exported then must still validate, and must dump every stored value
back unchanged, key order included, so exports diff cleanly against older ones. Fields
added since (with defaults) may appear; nothing stored may go or move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debates.engine.protocols import get_protocol
from debates.engine.schemas import DebateConfig, ProtocolResult

FIXTURES = Path(__file__).parents[1] / "fixtures" / "results"


@pytest.mark.parametrize("name", ["council", "adversarial", "workflow"])
def test_a_stored_result_loads_and_dumps_to_the_same_json(name):
    stored = json.loads((FIXTURES / f"{name}.json").read_text())
    protocol = get_protocol(stored["protocol"])
    result = protocol.parse_result(stored)
    assert isinstance(result, ProtocolResult)
    _keeps(stored, result.model_dump(mode="json"))
    _keeps(stored, json.loads(result.model_dump_json()))


def _keeps(stored, dumped, path="$"):
    """``dumped`` holds every value of ``stored``, its keys in the same order."""
    if isinstance(stored, dict):
        assert isinstance(dumped, dict), path
        assert [k for k in dumped if k in stored] == list(stored), path
        for key, value in stored.items():
            _keeps(value, dumped[key], f"{path}.{key}")
    elif isinstance(stored, list):
        assert isinstance(dumped, list) and len(dumped) == len(stored), path
        for i, (a, b) in enumerate(zip(stored, dumped, strict=True)):
            _keeps(a, b, f"{path}[{i}]")
    else:
        assert dumped == stored, path


def test_every_protocol_result_shares_the_base_fields():
    shared = set(ProtocolResult.model_fields)
    assert {"question", "protocol", "config", "degraded", "usage"} <= shared
    for name in ("council", "adversarial", "workflow"):
        model = get_protocol(name).result_model
        assert issubclass(model, ProtocolResult)
        # The shared tail stays last in the JSON, after the protocol's own fields.
        keys = list(json.loads((FIXTURES / f"{name}.json").read_text()))
        tail = [k for k in keys if k in ProtocolResult.json_tail]
        # Stored before the content checks: every tail field but the quality pair and
        # ``repairs``, which a result holds only when a repair was made.
        written = [k for k in ProtocolResult.json_tail if k != "repairs"]
        assert tail == [k for k in written if not k.startswith("quality")]
        dumped = list(get_protocol(name).parse_result(
            json.loads((FIXTURES / f"{name}.json").read_text())).model_dump(mode="json"))
        tail_keys = written
        assert [k for k in dumped if k in tail_keys] == tail_keys


# Results (and their Markdown) as main stored them before the engine moved into folders
# and DebateConfig became plain data (issue 21), one per protocol, simulated.
BEFORE_ISSUE_21 = Path(__file__).parents[1] / "fixtures" / "results_pre_issue21"


@pytest.mark.parametrize("name", ["council", "adversarial", "workflow"])
def test_a_result_stored_before_the_engine_moved_loads_and_renders_the_same(name):
    stored = json.loads((BEFORE_ISSUE_21 / f"{name}.json").read_text())
    protocol = get_protocol(stored["protocol"])
    result = protocol.parse_result(stored)
    _keeps(stored, result.model_dump(mode="json"))
    assert protocol.render_markdown(result) == _with_added_lines(
        name, (BEFORE_ISSUE_21 / f"{name}.md").read_text())


# Lines the report has gained since, derived from what the stored result already holds
# (the fixtures stay as main stored them): each is inserted after the line it follows,
# so any other change to an old result's report still fails.
ADDED_LINES = {
    # What the debate changed (issue 31), read from verdicts_before and verdicts_after.
    "council": [("**Verdicts:** ", "**What the debate changed:** First vote: wait 2:1; after "
                 "cross-examination: wait 2:1 (the debate kept the answer)  "),
                # The decision rule (issue 42): a result stored before rules followed
                # the debate.
                ("**Options:** ", "**Decision rule:** wait, by the final vote, after "
                 "cross-examination (stored before decision rules: the debate's)  "),
                ("## Recommended path", "*Decision rule: wait, by the final vote, after "
                 "cross-examination (stored before decision rules: the debate's)*"),
                ("## Recommended path", "")],
}


def _with_added_lines(name: str, report: str) -> str:
    lines = report.split("\n")
    for after, added in ADDED_LINES.get(name, []):
        at = next(i for i, line in enumerate(lines) if line.startswith(after))
        lines.insert(at + 1, added)
    return "\n".join(lines)


@pytest.mark.parametrize("name", ["council", "adversarial", "workflow"])
def test_loading_a_stored_config_asks_no_registry(name, monkeypatch):
    """A stored config is plain data: reading one must not look up protocols or parse
    options again (a result stays readable whatever the registry holds now)."""
    import debates.engine.options as options
    import debates.engine.protocols.registry as registry

    def asked(*args, **kwargs):
        raise AssertionError("a stored config parsed its options again")

    registry.known_protocols()  # the plugins loaded: an ask below finds nothing
    monkeypatch.setattr(registry, "_REGISTRY", {})  # no protocol is known
    monkeypatch.setattr(options, "parse_options", asked)
    stored = json.loads((BEFORE_ISSUE_21 / f"{name}.json").read_text())
    config = DebateConfig.model_validate(stored["config"])
    assert config.model_dump(mode="json") == stored["config"]
