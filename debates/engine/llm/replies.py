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
