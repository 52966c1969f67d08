"""The CLI bench's pieces: the stub answers the tool it is asked for (Agent Council's
pydantic-ai names its own), and a process's time outside its model calls is measured
on the stub's clock."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path

import pytest

from bench.cli import _timed_process
from bench.model_stub import ModelStub

SCHEMA = {"type": "object", "properties": {"stance": {"type": "string"}},
          "required": ["stance"]}


def post(api_base: str, body: dict) -> dict:
    request = urllib.request.Request(f"{api_base}/chat/completions",
                                     data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def test_the_stub_calls_the_tool_the_request_names_with_arguments_for_its_schema():
    with ModelStub(0.0) as stub:
        reply = post(stub.api_base, {
            "model": "stub-model", "messages": [{"role": "user", "content": "?"}],
            "tools": [{"type": "function", "function": {"name": "final_result",
                                                        "parameters": SCHEMA}}],
            "tool_choice": "required"})
    call = reply["choices"][0]["message"]["tool_calls"][0]["function"]
    assert call["name"] == "final_result"
    assert isinstance(json.loads(call["arguments"])["stance"], str)
    assert stub.first_request_at is not None and stub.last_reply_at is not None
    assert stub.first_request_at <= stub.last_reply_at


CALLER = """
import json, sys, urllib.request
body = {"model": "m", "messages": [], "response_format": {"type": "json_schema",
        "json_schema": {"name": "x", "schema": {"type": "object"}}}}
for _ in range(2):
    urllib.request.urlopen(urllib.request.Request(sys.argv[1] + "/chat/completions",
        data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}))
print("done")
"""


def test_a_process_time_outside_its_calls_is_wall_minus_first_call_to_last_reply(tmp_path):
    with ModelStub(0.2) as stub:
        run = _timed_process(stub, [sys.executable, "-c", CALLER, stub.api_base], {},
                             Path(tmp_path), Path(tmp_path))
    assert run["stdout"] == "done\n"
    calls = run["wall_s"] - run["overhead_s"]
    assert calls >= 0.4  # two sequential calls at the stub's latency
    assert run["to_first_call_s"] > 0 and run["after_last_reply_s"] > 0
    assert run["to_first_call_s"] + run["after_last_reply_s"] == pytest.approx(
        run["overhead_s"])


def test_a_process_that_calls_no_model_is_an_error_not_a_figure(tmp_path):
    with ModelStub(0.0) as stub, pytest.raises(RuntimeError, match="called no model"):
        _timed_process(stub, [sys.executable, "-c", "pass"], {}, Path(tmp_path),
                       Path(tmp_path))
