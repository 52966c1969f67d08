"""Reading persona files (YAML or JSON): a list of personas, or ``{"personas": [...]}``.

Every error names the file, the persona's index and the field, so a user can fix
a 40-persona library without guessing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from .schemas import MAX_AGENTS, Persona
from .text_checks import json_problem, yaml_problem

# A library of a few hundred personas at the field limits fits in 1 MB; anything larger
# is refused before a parser spends time or memory on it.
MAX_PERSONA_FILE_CHARS = 1_000_000


class PersonaFileError(ValueError):
    pass


def _describe(error: ErrorDetails) -> str:
    field = ".".join(str(p) for p in error["loc"]) or "(persona)"
    kind = error["type"]
    if kind == "missing":
        return f"field '{field}' is required"
    if kind == "extra_forbidden":
        return f"unknown field '{field}' (allowed: {', '.join(Persona.model_fields)})"
    return f"field '{field}': {error['msg']}"


def parse_personas(data: Any, source: str, *, limit: int | None = MAX_AGENTS) -> list[Persona]:
    """``limit`` caps a panel file at the largest debate; a library import passes its
    own cap, None means none."""
    if isinstance(data, dict) and set(data) == {"personas"}:
        data = data["personas"]
    if not isinstance(data, list):
        shape = (f"an object with keys {', '.join(map(str, data))}" if isinstance(data, dict)
                 else type(data).__name__)
        raise PersonaFileError(
            f"{source}: expected a list of personas or an object with a 'personas' list, "
            f"got {shape}"
        )
    if not data:
        raise PersonaFileError(f"{source}: the file contains no personas")
    if limit is not None and len(data) > limit:
        raise PersonaFileError(
            f"{source}: {len(data):,} personas, at most {limit:,} allowed in one file")
    personas: list[Persona] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(data):
        label = f"{source}: persona {index}"
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            label += f" ({item['name']})"
        if not isinstance(item, dict):
            raise PersonaFileError(f"{label}: expected an object, got {type(item).__name__}")
        try:
            persona = Persona.model_validate(item)
        except ValidationError as exc:
            problems = "; ".join(_describe(e) for e in exc.errors())
            raise PersonaFileError(f"{label}: {problems}") from None
        key = persona.name.casefold()
        if key in seen:
            raise PersonaFileError(
                f"{label}: field 'name': '{persona.name}' duplicates persona {seen[key]}"
            )
        seen[key] = index
        personas.append(persona)
    return personas


def _unreadable_value(exc: ValueError) -> str:
    """What a parser's ValueError means for the user: Python refuses to read an integer
    of more than ``sys.get_int_max_str_digits()`` digits (a denial-of-service guard), and
    YAML a date that does not exist (``2026-13-01``)."""
    if "integer string conversion" in str(exc):
        return (f"a number is longer than {sys.get_int_max_str_digits():,} digits; "
                "no persona field holds one")
    return f"a value cannot be read: {exc}"


def load_persona_text(text: str, source: str, *, limit: int | None = MAX_AGENTS
                      ) -> list[Persona]:
    suffix = Path(source).suffix.lower()
    if len(text) > MAX_PERSONA_FILE_CHARS:
        raise PersonaFileError(
            f"{source}: {len(text):,} characters, at most {MAX_PERSONA_FILE_CHARS:,} allowed")
    # NUL, lone surrogates, nesting and (YAML) node count, before the full parse
    # (docs/engine.md, "Uploaded text").
    found = json_problem(text) if suffix == ".json" else yaml_problem(text)
    if found is not None:
        raise PersonaFileError(f"{source}: {found}")
    try:
        data = json.loads(text) if suffix == ".json" else yaml.safe_load(text)
    except json.JSONDecodeError as exc:
        raise PersonaFileError(
            f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise PersonaFileError(f"{source}: not valid YAML{where}: {problem}") from None
    except ValueError as exc:
        raise PersonaFileError(f"{source}: {_unreadable_value(exc)}") from None
    return parse_personas(data, source, limit=limit)


def load_persona_file(path: str | Path) -> list[Persona]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PersonaFileError(f"{path}: cannot read the file: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PersonaFileError(f"{path}: not UTF-8 text") from None
    return load_persona_text(text, str(path))
