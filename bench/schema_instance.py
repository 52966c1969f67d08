"""A value valid for a JSON schema (the subset pydantic emits), as a stub model server
writes it: the walk is shared, the stub decides the leaves, the list lengths and which
optional fields it fills."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Node = dict[str, Any]


def schema_instance(schema: Node, *, text: Callable[[Node], str],
                    number: Callable[[Node], float], count: Callable[[Node], int],
                    fills: Callable[[str, Node], bool] = lambda name, node: True,
                    extra: Callable[[Node], Node] = lambda node: {}) -> Any:
    """``fills(name, object_node)``: whether an object field is written; ``extra``:
    fields a stub adds to an object beyond the schema's."""
    defs = schema.get("$defs", {})

    def build(node: Node) -> Any:
        if "$ref" in node:
            return build(defs[node["$ref"].rsplit("/", 1)[-1]])
        if "anyOf" in node:
            branches = [b for b in node["anyOf"] if b.get("type") != "null"]
            return build(branches[0]) if branches else None
        if "enum" in node:
            return node["enum"][0]
        kind = node.get("type")
        if kind == "object":
            value = {name: build(sub) for name, sub in node.get("properties", {}).items()
                     if fills(name, node)}
            return value | extra(node)
        if kind == "array":
            return [build(node.get("items", {})) for _ in range(count(node))]
        if kind == "number":
            return number(node)
        if kind == "integer":
            return int(node.get("minimum", 1))
        if kind == "boolean":
            return True
        return text(node)

    return build(schema)
