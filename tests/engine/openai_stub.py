"""A local OpenAI-compatible chat server whose behaviour mimics real model servers.

Behaviours (``StubServer(behaviour=...)``):
- ``scripted``: queued (status, body) answers, else a valid Position (the default);
- ``fills_optional``: answers the JSON schema it is sent with every optional field
  filled, and adds ``model``/``temperature`` prose to every persona object, like an
  endpoint whose decoding is not strict;
- ``llamacpp``: rejects ``response_format`` of type ``json_schema`` with llama.cpp's
  400, accepts ``{"type": "json_object", "schema": ...}`` and then answers the schema;
- ``prose_unless_constrained``: answers prose unless a schema constrains decoding
  (json_schema, json_object with schema, or a forced tool call);
- ``slow_single_slot``: serves one request at a time, ``delay_s`` each, and notes a
  request whose client went away before the answer (as llama.cpp's slot does);
- ``grammar_limits``: as ``prose_unless_constrained``, but a schema whose grammar
  llama.cpp's parser refuses (``llama_grammar``) gets llama.cpp's server error;
- ``dies``: the first request kills the server (llama-cpp-python's server process died
  on a grammar it could not parse): the connection closes without a reply and nothing
  listens on the port afterwards;
- ``small_model``: a small base model under llama.cpp's schema grammar (gemma-3-270m
  behind a constraining server, docs/models.md): it writes the fewest list items the
  schema allows, every string as long as the schema lets it (repeating itself), and is
  cut off at ``max_tokens`` (about four characters a token) mid-JSON.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from typing import Any

from bench.schema_instance import schema_instance
from bench.stub_http import (  # noqa: F401 - completion_body: the tests' too
    JsonHandler,
    completion_body,
    requested_schema,
    threaded_server,
)

from .llama_grammar import refusal

POSITION = {
    "stance": "Migrate in two stages",
    "reasoning": ["Billing needs a rollback path"],
    "confidence": 0.64,
    "key_assumptions": [],
}
PROSE = "Honestly, I think the team should take it slowly and see how things go."
LLAMACPP_REJECTION = (
    'response_format type must be one of "text" or "json_object", but got: json_schema'
)


def error_body(message: str, kind: str, code: int | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


RAMBLE = "We are not sure about the billing database and we are not sure about it. "
UNBOUNDED_RAMBLE_CHARS = 6000
CHARS_PER_TOKEN = 4


def instance_of(
    schema: dict[str, Any], *, fill_optional: bool, prose: bool = False, small: bool = False
) -> Any:
    """A value valid for ``schema``; ``small``: as the ``small_model`` behaviour writes
    it; ``prose``: persona objects also get the model settings a server must not choose."""
    counter = iter(range(1, 10_000))

    def text(node: dict[str, Any]) -> str:
        if small:
            length = int(node.get("maxLength", UNBOUNDED_RAMBLE_CHARS))
            return (RAMBLE * (length // len(RAMBLE) + 1))[:length].strip() or "We"
        return f"A considered answer from the stub, part {next(counter)}."

    def extra(node: dict[str, Any]) -> dict[str, Any]:
        if prose and "bias" in node.get("properties", {}):
            return {"model": "A model that weighs cost against risk", "temperature": 1.9}
        return {}

    return schema_instance(
        schema, text=text,
        number=lambda node: (node.get("minimum", 0.0) + node.get("maximum", 1.0)) / 2,
        count=lambda node: int(node.get("minItems", 0)) if small else 3,
        fills=lambda name, node: fill_optional or name in node.get("required", []),
        extra=extra)


def small_model_answer(body: dict[str, Any],
                       schema: dict[str, Any] | None) -> tuple[int, dict[str, Any]]:
    """A small model's answer: prose unless constrained, then every optional field, cut at
    max_tokens like a real server (a JSON answer cut in half)."""
    if schema is None:
        return 200, completion_body(PROSE)
    text = json.dumps(instance_of(schema, fill_optional=True, small=True))
    limit = CHARS_PER_TOKEN * int(body.get("max_tokens") or 10**6)
    return 200, completion_body(text[:limit])


class StubServer:
    def __init__(self, behaviour: str = "scripted", delay_s: float = 0.0) -> None:
        self.behaviour = behaviour
        self.delay_s = delay_s
        self.answers: list[tuple[int, dict[str, Any]]] = []
        self.requests: list[dict[str, Any]] = []
        # Requests whose client closed the connection before the answer was ready.
        self.abandoned = 0
        self.slot = threading.Lock()
        stub = self

        class Handler(JsonHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = self.read_json()
                stub.requests.append({"path": self.path, "body": body})
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self.send_json(404, error_body("no such route", "not_found"))
                    return
                if stub.behaviour == "dies":
                    # The port closes first, so a retry finds nobody there.
                    stub.stop()
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if stub.behaviour == "slow_single_slot":
                    with stub.slot:
                        if not stub.generate(self.connection, stub.delay_s):
                            stub.abandoned += 1
                            self.close_connection = True
                            return
                        self.send_json(200, completion_body(json.dumps(POSITION)))
                    return
                status, payload = stub.answer(body)
                self.send_json(status, payload)

        self.server, self.thread = threaded_server(Handler)
        self.port = self.server.server_address[1]

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> StubServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @staticmethod
    def generate(connection: socket.socket, seconds: float) -> bool:
        """'Generates' for ``seconds``; False as soon as the client hangs up."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select([connection], [], [], min(left, 0.02))
            if readable and not connection.recv(1, socket.MSG_PEEK):
                return False
        return True

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if self.answers:
            return self.answers.pop(0)
        how, schema = requested_schema(body)
        if self.behaviour == "llamacpp" and how == "json_schema":
            return 400, error_body(LLAMACPP_REJECTION, "invalid_request_error", 400)
        if self.behaviour == "fills_optional":
            value = instance_of(schema or {}, fill_optional=True, prose=True)
            return 200, completion_body(json.dumps(value))
        if self.behaviour == "small_model":
            return small_model_answer(body, schema)
        if self.behaviour == "grammar_limits" and schema is not None:
            refused = refusal(schema)
            if refused:
                return 500, error_body(f"failed to parse grammar: {refused}", "server_error", 500)
        if self.behaviour in ("llamacpp", "prose_unless_constrained", "grammar_limits"):
            if schema is None:
                return 200, completion_body(PROSE)
            text = json.dumps(instance_of(schema, fill_optional=False))
            if how == "tools":
                return 200, completion_body("", tool_arguments=text)
            return 200, completion_body(text)
        return 200, completion_body(json.dumps(POSITION))
