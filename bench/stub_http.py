"""What the two local OpenAI-compatible stub servers share (the bench's ``model_stub``
and the tests' ``openai_stub``): how a chat request constrains its answer, the
``chat.completion`` reply, and a quiet threaded JSON server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def requested_schema(body: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """(how the request constrains decoding, the schema) for a chat request body."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return "json_schema", fmt["json_schema"]["schema"]
    if fmt.get("type") == "json_object":
        return "json_object", fmt.get("schema")
    if body.get("tools") and body.get("tool_choice"):
        return "tools", body["tools"][0]["function"]["parameters"]
    return "prompt", None


def completion_body(content: str, tool_arguments: str | None = None, *,
                    reply_id: str = "chatcmpl-stub", tool_name: str = "answer",
                    usage: tuple[int, int] = (21, 34)) -> dict[str, Any]:
    """A ``chat.completion`` answering ``content``, or calling the tool ``tool_name`` with
    ``tool_arguments``; ``usage`` is (prompt, completion) tokens."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_arguments is not None:
        message = {"role": "assistant", "content": None, "tool_calls": [{
            "id": "call_stub", "type": "function",
            "function": {"name": tool_name, "arguments": tool_arguments}}]}
    prompt, completion = usage
    return {
        "id": reply_id, "object": "chat.completion", "created": 1_700_000_000,
        "model": "stub-model",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                  "total_tokens": prompt + completion},
    }


class JsonHandler(BaseHTTPRequestHandler):
    """Keep-alive JSON requests and answers, without a log line per request."""

    protocol_version = "HTTP/1.1"

    def read_json(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")

    def send_json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


def threaded_server(handler: type[JsonHandler]) -> tuple[ThreadingHTTPServer, threading.Thread]:
    """A server on a free port of 127.0.0.1 and the (not yet started) thread serving it.
    A short poll interval keeps ``shutdown()`` (and so each test's teardown) quick."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                              daemon=True)
    return server, thread
