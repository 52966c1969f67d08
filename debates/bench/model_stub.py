"""A local OpenAI-compatible chat server with a fixed latency, for the CLI benchmark.

It answers the JSON schema each request sends (``response_format`` or a forced tool) with
varied values: confidences spread over [0.2, 0.9] and fresh words in every text field, so
a debate neither converges nor runs out of new arguments and runs every round it is
allowed. Answers are a pure function of the request number, so runs are comparable.
The server is threaded and sleeps ``latency_s`` per request: concurrent calls overlap, as
they do on a hosted model.
"""

from __future__ import annotations

import json
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from debates.bench.schema_instance import schema_instance

WORDS = ("latency", "budget", "rollback", "ownership", "staffing", "pricing", "audit",
         "migration", "churn", "runway", "hiring", "vendor", "compliance", "uptime")


def schema_of(body: dict[str, Any]) -> dict[str, Any]:
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt["json_schema"]["schema"]
    if fmt.get("schema"):
        return fmt["schema"]
    if body.get("tools"):
        return body["tools"][0]["function"]["parameters"]
    return {}


def varied_instance(schema: dict[str, Any], rng: random.Random) -> Any:
    """A value valid for ``schema``, different per ``rng``. Optional fields are filled
    too: concessions and updated confidences keep rounds going."""

    def number(node: dict[str, Any]) -> float:
        low, high = float(node.get("minimum", 0.0)), float(node.get("maximum", 1.0))
        if (low, high) == (0.0, 1.0):
            low, high = 0.2, 0.9
        return round(rng.uniform(low, high), 2)

    def text(node: dict[str, Any]) -> str:
        return f"Consider {' '.join(rng.sample(WORDS, 4))} ({rng.randrange(10**6)})."

    return schema_instance(schema, text=text, number=number,
                           count=lambda node: max(int(node.get("minItems", 1)), 2))


class ModelStub:
    """``with ModelStub(latency_s=0.5) as stub:`` serves ``stub.api_base`` until the end."""

    def __init__(self, latency_s: float = 0.5) -> None:
        self.latency_s = latency_s
        self.requests = 0
        self.first_request_at: float | None = None  # time.monotonic() of the first call
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with stub._lock:
                    stub.requests += 1
                    number = stub.requests
                    if stub.first_request_at is None:
                        stub.first_request_at = time.monotonic()
                time.sleep(stub.latency_s)
                text = json.dumps(varied_instance(schema_of(body), random.Random(number)))
                message: dict[str, Any] = {"role": "assistant", "content": text}
                if body.get("tools"):
                    message = {"role": "assistant", "content": None, "tool_calls": [{
                        "id": "call_stub", "type": "function",
                        "function": {"name": "answer", "arguments": text}}]}
                data = json.dumps({
                    "id": f"chatcmpl-{number}", "object": "chat.completion",
                    "created": 1_700_000_000, "model": "stub-model",
                    "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 200, "completion_tokens": 120,
                              "total_tokens": 320},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> ModelStub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
