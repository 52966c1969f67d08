"""How a request asks for structured output: the JSON schema it carries (within a
grammar-constrained server's limits), the parameters of each output mode, the answer's
``max_tokens`` read off the schema, and the mode each server was found to take."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from debates.engine.llm.capabilities import OutputMode
from debates.engine.llm.grammar_limits import GRAMMAR_MAX_REPEAT, grammar_safe
from debates.engine.schema_titles import without_titles

# ``max_tokens`` per answer, read off its schema (see ``output_tokens``).
TOKENS_PER_TEXT_FIELD = 80
MIN_OUTPUT_TOKENS = 256
MAX_OUTPUT_TOKENS = 4096


@lru_cache(maxsize=64)
def json_schema_of(schema: type[BaseModel]) -> dict[str, Any]:
    # Generating a schema costs milliseconds, and every attempt of every turn needs it.
    return schema.model_json_schema()


@lru_cache(maxsize=64)
def output_tokens(schema: type[BaseModel], items: int = 4) -> int:
    """A ceiling on the answer's tokens, read off the schema: every call sets
    ``max_tokens``, so a small model cannot generate until its context is full."""
    root = json_schema_of(schema)
    defs = root.get("$defs", {})

    def size(node: dict[str, Any], depth: int = 0) -> int:
        if depth > 8:
            return 0
        if "$ref" in node:
            return size(defs.get(node["$ref"].rsplit("/", 1)[-1], {}), depth + 1)
        for key in ("anyOf", "oneOf"):
            if key in node:
                return max(size(branch, depth + 1) for branch in node[key])
        kind = node.get("type")
        if kind == "object":
            props = node.get("properties", {})
            return 8 + sum(6 + size(p, depth + 1) for p in props.values())
        if kind == "array":
            # As many items as the schema asks for (a panel of 12 is 12 personas),
            # else ``items``; never more than it allows.
            count = min(max(items, node.get("minItems", 0)), node.get("maxItems", 10**6))
            return 4 + count * size(node.get("items", {}), depth + 1)
        if kind == "string" and "enum" not in node:
            return TOKENS_PER_TEXT_FIELD
        return 4

    return max(MIN_OUTPUT_TOKENS, min(MAX_OUTPUT_TOKENS, size(root)))


# Lists in a bounded request schema hold at most this many items (unless the schema
# asks for more): the count ``output_tokens`` assumes.
BOUNDED_LIST_ITEMS = 4

# A text bound sized from the context (docs/models.md, "Text bounds from the context"):
# the reply's room in tokens, less what its keys, numbers and enum values take, shared
# among its text fields (lists at ``BOUNDED_LIST_ITEMS`` items) at this many characters a
# token (English runs near 4 with the usual tokenizers; 3 leaves a margin), never below
# ``MIN_TEXT_CHARS`` (the bound that finished a debate on a slow CPU: docs/models.md) nor
# above the grammar's limit.
CHARS_PER_TOKEN = 3
MIN_TEXT_CHARS = 150


@lru_cache(maxsize=64)
def answer_shape(schema: type[BaseModel]) -> tuple[int, int]:
    """(free-text fields, tokens of everything else) of an answer to ``schema`` with its
    lists at ``BOUNDED_LIST_ITEMS`` items (or the count the schema asks for), counted as
    ``output_tokens`` counts them."""
    root = json_schema_of(schema)
    defs = root.get("$defs", {})

    def shape(node: dict[str, Any], depth: int = 0) -> tuple[int, int]:
        if depth > 8:
            return 0, 0
        if "$ref" in node:
            return shape(defs.get(node["$ref"].rsplit("/", 1)[-1], {}), depth + 1)
        for key in ("anyOf", "oneOf"):
            if key in node:
                return max((shape(branch, depth + 1) for branch in node[key]),
                           key=lambda found: found[0])
        kind = node.get("type")
        if kind == "object":
            fields, other = 0, 8
            for prop in node.get("properties", {}).values():
                more, rest = shape(prop, depth + 1)
                fields, other = fields + more, other + 6 + rest
            return fields, other
        if kind == "array":
            count = min(max(BOUNDED_LIST_ITEMS, node.get("minItems", 0)),
                        node.get("maxItems", 10**6))
            fields, other = shape(node.get("items", {}), depth + 1)
            return count * fields, 4 + count * other
        if kind == "string" and "enum" not in node and "const" not in node:
            return 1, 0
        return 0, 4

    return shape(root)


def context_text_chars(schema: type[BaseModel], answer_tokens: int) -> int:
    """The text bound of an answer to ``schema`` that may use ``answer_tokens`` tokens:
    every text field at this bound, and the rest of the answer, fit in them (unless the
    floor ``MIN_TEXT_CHARS`` is more)."""
    fields, other = answer_shape(schema)
    if not fields:
        return GRAMMAR_MAX_REPEAT
    share = (answer_tokens - other) // fields * CHARS_PER_TOKEN
    return max(MIN_TEXT_CHARS, min(GRAMMAR_MAX_REPEAT, share))


def bounded_output_tokens(schema: type[BaseModel], max_text_chars: int) -> int:
    """The tokens an answer to ``schema`` takes with every text field at
    ``max_text_chars`` (``CHARS_PER_TOKEN``): the ``max_tokens`` that lets it finish."""
    fields, other = answer_shape(schema)
    return other + fields * -(-max_text_chars // CHARS_PER_TOKEN)


@lru_cache(maxsize=64)
def bounded_schema(schema: type[BaseModel], max_text_chars: int) -> dict[str, Any]:
    """``schema``'s JSON schema with every free-text string at most ``max_text_chars``
    long, every list at most ``BOUNDED_LIST_ITEMS`` long, and nothing a decoder does
    not use (``without_null_defaults``). Sent, not validated: a
    server that constrains decoding to it ends each string and list in time, so a
    small model that would repeat itself until ``max_tokens`` cut its JSON in half
    (gemma-3-270m did) writes a complete answer."""

    def bound(node: Any) -> Any:
        if isinstance(node, list):
            return [bound(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: bound(value) for key, value in node.items()}
        if out.get("type") == "string" and "enum" not in out and "const" not in out:
            out["maxLength"] = min(int(out.get("maxLength", max_text_chars)), max_text_chars)
        if out.get("type") == "array":
            most = max(BOUNDED_LIST_ITEMS, int(out.get("minItems", 0)))
            out["maxItems"] = min(int(out.get("maxItems", most)), most)
        return out

    return dict(without_null_defaults(bound(json_schema_of(schema))))


@lru_cache(maxsize=128)
def sent_schema(schema: type[BaseModel], max_text_chars: int | None = None) -> dict[str, Any]:
    """The JSON schema a request carries (``response_format`` or tool parameters): within
    a grammar-constrained server's limits (grammar_limits), bounded by ``max_text_chars``
    when set. The answer is validated against ``schema`` itself."""
    full = bounded_schema(schema, max_text_chars) if max_text_chars else json_schema_of(schema)
    return dict(grammar_safe(without_titles(full)))


def without_null_defaults(node: Any, keyword: str = "") -> Any:
    """``node`` without ``"default": null`` (an optional field's absence already says
    it, ``required``, and no decoder uses it) and with whole-number bounds written as
    integers: 0.3k tokens of a debate's schemas sent to a server whose decoder they
    bound (docs/performance.md, "Per output mode ..."). Other defaults stay; an
    unbounded schema is pydantic's own, less its titles."""
    if keyword in ("enum", "const", "examples", "required", "default"):
        return node
    if isinstance(node, list):
        return [without_null_defaults(item) for item in node]
    if not isinstance(node, dict):
        return node
    if keyword in ("properties", "$defs", "definitions", "patternProperties"):
        return {name: without_null_defaults(sub) for name, sub in node.items()}
    return {key: _whole(without_null_defaults(sub, key)) for key, sub in node.items()
            if not (key == "default" and sub is None)}


def _whole(value: Any) -> Any:
    # A bound of 1.0 written 1: the same number to every JSON parser, a token less.
    return int(value) if isinstance(value, float) and value.is_integer() else value


# Modes whose request carries the schema and constrains decoding to it, so the prompt
# need not state it again. json_object is not one: servers that do not know its
# ``schema`` key ignore it. Its prompt names the schema's keys only (``prompts.
# with_schema_keys``) until a reply fails validation on that model: from then on the
# prompt states the whole schema (``needs_schema_in_prompt``).
SCHEMA_CONSTRAINED_MODES: frozenset[OutputMode] = frozenset({"json_schema", "tools"})


def format_params(
    mode: OutputMode, schema: type[BaseModel], max_text_chars: int | None = None
) -> dict[str, Any]:
    if mode == "prompt":
        return {}
    json_schema = sent_schema(schema, max_text_chars)
    if mode == "json_schema":
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": json_schema, "strict": False},
            }
        }
    if mode == "json_object":
        # llama.cpp (and others) constrain decoding to ``schema`` when it is given here;
        # servers that do not know the key ignore it and still return a JSON object.
        return {"response_format": {"type": "json_object", "schema": json_schema}}
    if mode == "tools":
        return {
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": schema.__name__,
                        "description": f"Return the {schema.__name__} object.",
                        "parameters": json_schema,
                    },
                }
            ],
            "tool_choice": {"type": "function", "function": {"name": schema.__name__}},
        }
    return {}


# Per process: the mode that worked for (model, api_base), so probing happens once.
_learned_modes: dict[tuple[str, str | None], OutputMode] = {}


def learned_mode(model: str, api_base: str | None) -> OutputMode | None:
    return _learned_modes.get((model, api_base))


def learn_mode(model: str, api_base: str | None, mode: OutputMode) -> None:
    _learned_modes[(model, api_base)] = mode


# Per process: (model, api_base) whose json_object replies failed validation: the server
# may ignore the request's schema, so the prompt states it in full from then on.
_schema_in_prompt: set[tuple[str, str | None]] = set()


def needs_schema_in_prompt(model: str, api_base: str | None) -> bool:
    return (model, api_base) in _schema_in_prompt


def learn_schema_in_prompt(model: str, api_base: str | None) -> None:
    _schema_in_prompt.add((model, api_base))


def forget_learned_modes() -> None:
    _learned_modes.clear()
    _schema_in_prompt.clear()
