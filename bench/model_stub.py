"""A local OpenAI-compatible chat server with a fixed latency, for the CLI benchmark.

It answers the JSON schema each request sends (``response_format`` or a forced tool) with
varied values: confidences spread over [0.2, 0.9] and fresh words in every text field, so
a debate neither converges nor runs out of new arguments and runs every round it is
allowed. An answer is a pure function of what the request is for (its schema, the
persona it speaks to, its round: ``answer_seed``, for Council's prompts and Agent
Council's alike), not of the order in which concurrent
requests arrive nor of the prompt's wording, so a prompt change is measured against the
same answers.
The server is threaded and sleeps ``latency_s`` per request: concurrent calls overlap, as
they do on a hosted model.

``answers`` sets how long each text field is: ``"short"`` (a 50-character phrase, about
350 characters a position) or ``"long"`` (one full sentence of 124 characters, about 720
characters a position, as a hosted model writes within the default text bound), so a
prompt that repeats earlier answers shows what it costs when answers are long
(docs/performance.md, "Prompt tokens per debate").
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from typing import Any, Literal

from bench.schema_instance import schema_instance
from bench.stub_http import JsonHandler, completion_body, requested_schema, threaded_server

# Words of one length and a zero-padded number: every text answer has the same size, so
# a prompt's measured size moves with its wording, not with which words a seed drew.
WORDS = ("latency", "budgets", "rollout", "billing", "pricing", "tenancy", "vendors",
         "hosting", "support", "backlog", "release", "tooling", "storage", "logging")


AnswerLength = Literal["short", "long"]
PANEL_SIZE = 5
YES_NO_OPTIONS = ("for", "against", "conditional")
ANSWER_LENGTHS: tuple[AnswerLength, ...] = ("short", "long")


def varied_instance(schema: dict[str, Any], rng: random.Random,
                    answers: AnswerLength = "short") -> Any:
    """A value valid for ``schema``, different per ``rng``. Optional fields are filled
    too: concessions and updated confidences keep rounds going."""

    def number(node: dict[str, Any]) -> float:
        low, high = float(node.get("minimum", 0.0)), float(node.get("maximum", 1.0))
        if (low, high) == (0.0, 1.0):
            low, high = 0.2, 0.9
        return round(rng.uniform(low, high), 2)

    def text(node: dict[str, Any]) -> str:
        phrase = f"Consider {' '.join(rng.sample(WORDS, 4))} ({rng.randrange(10**6):06d})"
        if answers == "short":
            return f"{phrase}."[: node.get("maxLength")]
        first, second, third = rng.sample(WORDS, 3)
        # 124 characters whatever the words drawn (all of one length), within the
        # field's bound (a persona's name: 80).
        return (f"{phrase} first: the {first} and {second} trade-offs decide if the "
                f"{third} plan pays.")[: node.get("maxLength")]

    defs = schema.get("$defs", {})

    def count(node: dict[str, Any]) -> int:
        items = node.get("items", {})
        items = defs.get(items.get("$ref", "").rsplit("/", 1)[-1], items)
        # A panel to compose (personas have a background): the CLI figure's 5, as each
        # side is asked for (Agent Council's list has no minItems).
        wanted = PANEL_SIZE if "background" in items.get("properties", {}) else 2
        return max(int(node.get("minItems", 1)), wanted)

    value = schema_instance(schema, text=text, number=number, count=count)
    if isinstance(value, dict) and "personas" in value and "options" in value:
        # Council's composed panel names the answers to choose between: for a yes/no
        # question (the bench's), exactly these, as its compose prompt asks.
        value["options"] = list(YES_NO_OPTIONS)
    return value


_STATED_SCHEMA = re.compile(r'matching the schema "[^"]*":\n(\{.*\})\s*$', re.S)


def prompt_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The schema a prompt-mode request states at the end of its last user turn (the
    shared JSON tail, docs/models.md), for a request that carries none itself."""
    user = next((m.get("content") or "" for m in reversed(body.get("messages") or [])
                 if m.get("role") == "user"), "")
    stated = _STATED_SCHEMA.search(user)
    return json.loads(stated[1]) if stated else None


def answer_seed(body: dict[str, Any], schema: dict[str, Any] | None) -> str:
    text = "\n".join(m.get("content") or "" for m in body.get("messages") or [])
    # "You are Dana Reyes. …" (Council) or "You are Dana Reyes.\n" (Agent Council).
    persona = re.search(r"^You are (.+?)\.(?: |$)", text, re.M)
    round_number = re.search(r"Cross-examination round (\d+)", text)
    # Agent Council names no round: its round N recalls rounds 1 … N − 1.
    recalled = len(re.findall(r"^Round \d+ — your reflection", text, re.M))
    return "|".join([(schema or {}).get("title", ""), persona[1] if persona else "",
                     round_number[1] if round_number else str(recalled or "")])


class ModelStub:
    """``with ModelStub(latency_s=0.5) as stub:`` serves ``stub.api_base`` until the end."""

    def __init__(self, latency_s: float = 0.5, answers: AnswerLength = "short") -> None:
        self.latency_s = latency_s
        self.answers: AnswerLength = answers
        self.requests = 0
        self.first_request_at: float | None = None  # time.monotonic() of the first call
        self.bodies: list[dict[str, Any]] = []  # every request as sent, in arrival order
        self.last_reply_at: float | None = None  # time.monotonic() of the last reply sent
        self._lock = threading.Lock()
        stub = self

        class Handler(JsonHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = self.read_json()
                with stub._lock:
                    stub.requests += 1
                    stub.bodies.append(body)
                    number = stub.requests
                    if stub.first_request_at is None:
                        stub.first_request_at = time.monotonic()
                time.sleep(stub.latency_s)
                how, schema = requested_schema(body)
                if schema is None:
                    schema = prompt_schema(body)
                rng = random.Random(answer_seed(body, schema))
                text = json.dumps(varied_instance(schema or {}, rng, stub.answers))
                # The tool asked for by name (Council's ``answer``; pydantic-ai, which
                # Agent Council uses, names its own).
                tool = body["tools"][0]["function"]["name"] if how == "tools" else "answer"
                self.send_json(200, completion_body(
                    "" if how == "tools" else text, text if how == "tools" else None,
                    reply_id=f"chatcmpl-{number}", tool_name=tool, usage=(200, 120)))
                with stub._lock:
                    stub.last_reply_at = time.monotonic()

        self.server, self.thread = threaded_server(Handler)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> ModelStub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
