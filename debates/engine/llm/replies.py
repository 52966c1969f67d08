"""Reading a model's reply: its text, the JSON object in it, validated against the
schema; and the repair prompt that shows the model what was wrong."""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)

MAX_REPAIR_REPLY_CHARS = 2000
MAX_REPAIR_ERROR_CHARS = 1500


class InvalidReply(Exception):
    """The reply is unusable; ``message`` is what the repair prompt shows the model."""

    def __init__(self, error_class: str, message: str) -> None:
        super().__init__(message)
        self.error_class = error_class
        self.message = message


_FENCE = re.compile(r"```[A-Za-z0-9_-]*\s*\n?(.*?)```", re.S)


def extract_json(text: str) -> Any:
    """The outermost JSON object in a reply, tolerating code fences and chatter."""
    if not text or not text.strip():
        raise InvalidReply("EmptyResponse", "the reply was empty")
    body = text.strip()
    fence = _FENCE.search(body)
    # The fenced block first; the whole reply if that fails (e.g. a fence inside a string).
    candidates = [fence.group(1), body] if fence else [body]
    problem = "the reply contains no JSON object"
    for candidate in candidates:
        start, end = candidate.find("{"), candidate.rfind("}")
        if start == -1:
            continue
        if end <= start:
            problem = "the reply is not valid JSON: an object is opened but never closed"
            continue
        try:
            # strict=False: a raw line break or tab inside a string is that character.
            # A small model under a server's grammar writes them (SmolLM2-135M did, and
            # lost its turn to a repair that failed the same way); nothing is ambiguous.
            return json.loads(candidate[start : end + 1], strict=False)
        except json.JSONDecodeError as exc:
            problem = (
                f"the reply is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
            )
    raise InvalidReply("ValidationError", problem)


def describe_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
        given = repr(err.get("input"))
        given = given if len(given) <= 60 else given[:57] + "..."
        parts.append(f"{loc}: {err['msg']} (got {given})")
    return "; ".join(parts)


def parse_reply(schema: type[T], text: str) -> T:
    data = extract_json(text)
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise InvalidReply(
            "ValidationError",
            f"the JSON does not match the {schema.__name__} schema: "
            f"{describe_validation_error(exc)}",
        ) from None


def reply_text(response: Any) -> str:
    """The answer's text: the forced tool call's arguments, else the message content."""
    try:
        message = response.choices[0].message
    except (AttributeError, IndexError, TypeError):
        return ""
    calls = getattr(message, "tool_calls", None) or []
    for call in calls:
        arguments = getattr(getattr(call, "function", None), "arguments", None)
        if isinstance(arguments, str) and arguments.strip():
            return arguments
    content = getattr(message, "content", None)
    return content if isinstance(content, str) else ""


# What ends a sentence (closing quotes and brackets after it aside), and the mark a
# text field cut at its bound gets (docs/models.md, "Text bounds from the context").
SENTENCE_ENDS = ".!?。！？…"
CLOSING_MARKS = "\"'”’)]）」』»"
CUT_MARK = "…"


def ends_sentence(text: str) -> bool:
    body = text.rstrip().rstrip(CLOSING_MARKS)
    return bool(body) and body[-1] in SENTENCE_ENDS


def marked_cuts(schema: type[T], value: T, max_text_chars: int) -> tuple[T, list[str]]:
    """``value`` with every text field that reached ``max_text_chars`` without ending its
    sentence marked as cut (``CUT_MARK`` appended, or in place of its last character
    when the schema's own limit leaves no room), and the paths of those fields
    ("recommended_path.recommendation", "reasoning[1]"). A server that constrains
    decoding ends a string at its bound wherever the sentence is: the reader is told."""
    cut: list[str] = []

    def mark(node: Any, path: str, trim: bool) -> Any:
        if isinstance(node, dict):
            return {k: mark(v, f"{path}.{k}" if path else str(k), trim) for k, v in node.items()}
        if isinstance(node, list):
            return [mark(v, f"{path}[{i}]", trim) for i, v in enumerate(node)]
        if isinstance(node, str) and len(node) >= max_text_chars and not ends_sentence(node):
            if not trim:
                cut.append(path)
            return (node[:-1] if trim else node).rstrip() + CUT_MARK
        return node

    data = value.model_dump(mode="json")
    appended = mark(data, "", trim=False)
    if not cut:
        return value, []
    for marked in (appended, mark(data, "", trim=True)):
        try:
            return schema.model_validate(marked), cut
        except ValidationError:
            continue
    return value, cut


def repair_messages(
    messages: list[dict[str, str]], bad_reply: str, error: str, schema_name: str
) -> list[dict[str, str]]:
    """The original prompt plus one exchange: repairs never pile up."""
    reply = bad_reply[:MAX_REPAIR_REPLY_CHARS] if bad_reply.strip() else "(empty reply)"
    if len(error) > MAX_REPAIR_ERROR_CHARS:
        error = error[: MAX_REPAIR_ERROR_CHARS - 3] + "..."
    return [
        *messages,
        {"role": "assistant", "content": reply},
        {
            "role": "user",
            "content": (
                f"Your previous reply could not be used: {error}\n\n"
                f"Reply again with only the corrected JSON object for {schema_name}: "
                "no explanations, no code fences."
            ),
        },
    ]
