"""A JSON schema without the titles pydantic writes for every model and field.

A title is the field name again in title case ("remaining_disagreements" →
"Remaining Disagreements"): no constraint and no meaning the name lacks, yet it is
sent with every request (a third of a cross-examination schema's tokens went to
names said twice). The root's title stays: it names the object asked for.
"""

from __future__ import annotations

from typing import Any

# Keywords whose values are maps from names to schemas: the names are data (a field
# may be called "title"), the schemas are walked.
_SCHEMA_MAPS = frozenset({"properties", "$defs", "definitions", "patternProperties"})
# Keywords whose values are data, never schemas.
_DATA = frozenset({"enum", "const", "default", "examples", "required"})


def without_titles(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` with every title below the root removed."""
    root = {key: _untitled(value, key) for key, value in schema.items()}
    return root


def _untitled(value: Any, keyword: str = "") -> Any:
    if keyword in _DATA:
        return value
    if keyword in _SCHEMA_MAPS and isinstance(value, dict):
        return {name: _untitled(sub) for name, sub in value.items()}
    if isinstance(value, list):
        return [_untitled(item) for item in value]
    if not isinstance(value, dict):
        return value
    return {key: _untitled(sub, key) for key, sub in value.items()
            if not (key == "title" and isinstance(sub, str))}
