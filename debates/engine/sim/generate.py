"""What the simulated model writes: the generator registry and the kit generators use.

A protocol brings the generators for its own schemas (``protocols/<name>/simulated.py``)
and the engine's plugins register them here (``register_generator``), by schema class:
the name a call carries is the registered class's own, so renaming a schema renames
its entry. A schema nobody registered gets ``generic`` output, valid for its JSON
schema. Every generator is a pure function of its ``CallContext``; randomness comes
from ``seeded_rng`` (a sha256 of the call's identity), so the same call gives the same
text in every process. Wording comes from the banks in ``data/``, reached through the
context (``ctx.banks``, ``ctx.people``, ``ctx.writer``), so a protocol's generators
import nothing from this package.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from debates.engine.loading import plugins_needed
from debates.engine.schemas import SimulatorOptions
from debates.engine.sim.config import SimScript, seeded_rng
from debates.engine.sim.data import LANGUAGES, PersonaBanks, TextBanks, persona_banks
from debates.engine.sim.data import text_banks as banks


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


# Languages whose sentences start with a capital letter.
_CASED = frozenset({"en", "fr", "de"})
# French articles contract after "de" and "à" ("de le coût" -> "du coût"): an aspect
# ("le coût de migration") is written with its article and may follow either.
_FRENCH_CONTRACTIONS = re.compile(r"\b(de|à) (le|les) ")
_FRENCH_CONTRACTED = {("de", "le"): "du ", ("de", "les"): "des ", ("à", "le"): "au ",
                      ("à", "les"): "aux "}


def _styled(text: str, language: str) -> str:
    if language == "fr":
        text = _FRENCH_CONTRACTIONS.sub(
            lambda m: _FRENCH_CONTRACTED[(m.group(1), m.group(2))], text)
    return _cap(text) if language in _CASED else text


_UNSEEDED_HINTS = frozenset({"point_ids", "passages"})


@dataclass
class CallContext:
    """One simulated call: everything its output may depend on."""

    model: str
    schema: str
    phase: str
    round: int
    agent: int
    agent_name: str | None
    hints: dict[str, Any]
    options: SimulatorOptions
    call_seed: int | None
    question: str
    language: str
    json_schema: dict[str, Any] | None = None
    script: SimScript | None = None
    phrases: list[str] = field(default_factory=list)
    # Whether the prompt shows the model a reply of its own (a repair).
    shown_reply: bool = False

    def rng(self, *extra: Any) -> random.Random:
        # The point ids an agent is shown change only which ids it cites, not its
        # draws: a debate reads the same with or without the ledger.
        seeded = {k: v for k, v in self.hints.items() if k not in _UNSEEDED_HINTS}
        return seeded_rng(
            self.options.seed,
            self.call_seed,
            self.model,
            self.schema,
            self.phase,
            self.round,
            self.agent_name,
            seeded,
            *extra,
        )

    # The kit a protocol's generators use, so they need no import of this package.

    def writer(self, rng: random.Random | None = None) -> Writer:
        return Writer(self, rng if rng is not None else self.rng())

    @property
    def banks(self) -> TextBanks:
        return banks()

    @property
    def people(self) -> PersonaBanks:
        return persona_banks()

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(LANGUAGES)

    def styled(self, text: str, language: str | None = None) -> str:
        """``text`` as a sentence of ``language`` (default: the call's)."""
        return _styled(text, language or self.language)

    def generic(self) -> dict[str, Any]:
        return generic(self)

    def agent_rng(self, *extra: Any) -> random.Random:
        """Ignores the round and round-specific hints: the same agent across rounds."""
        return seeded_rng(
            self.options.seed, self.call_seed, self.model, self.agent_name, self.question, *extra
        )


class Writer:
    """Fills the banks' templates with the question's phrases, in the call's language."""

    def __init__(self, ctx: CallContext, rng: random.Random) -> None:
        self.ctx = ctx
        self.rng = rng
        self.lang = ctx.language

    @staticmethod
    def cap(text: str) -> str:
        return _cap(text)

    def slots(self) -> dict[str, str]:
        aspects = self.rng.sample(banks().aspects[self.lang], 2)
        # The question's leading phrases are the most distinctive; favour them.
        phrases = self.ctx.phrases
        weights = [1.0 / (i + 1) for i in range(len(phrases))]
        topic = self.rng.choices(phrases, weights=weights)[0]
        return {"t": topic, "a": aspects[0], "b": aspects[1]}

    def fill(self, template: str, slots: dict[str, str] | None = None) -> str:
        text = template.format(**(slots or self.slots()))
        return _styled(text, self.lang)

    def one(self, bank: Mapping[str, list[str]]) -> str:
        return self.fill(self.rng.choice(bank[self.lang]))

    def many(self, bank: Mapping[str, list[str]], low: int, high: int) -> list[str]:
        templates = bank[self.lang]
        k = min(len(templates), self.rng.randint(low, high))
        return [self.fill(t) for t in self.rng.sample(templates, k)]


def generic(ctx: CallContext) -> dict[str, Any]:
    """Any other schema (e.g. a later protocol's): built from its JSON schema."""
    schema = ctx.json_schema or {"type": "object", "properties": {}}
    writer = Writer(ctx, ctx.rng())
    defs = schema.get("$defs", {})

    def build(node: dict[str, Any], name: str) -> Any:
        if "$ref" in node:
            return build(defs.get(node["$ref"].rsplit("/", 1)[-1], {}), name)
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return writer.rng.choice(node["enum"])
        for key in ("anyOf", "oneOf", "allOf"):
            if key in node:
                options = [o for o in node[key] if o.get("type") != "null"] or node[key]
                return build(options[0], name)
        kind = node.get("type", "object")
        if kind == "object":
            props = node.get("properties", {})
            return {k: build(v, k) for k, v in props.items()}
        if kind == "array":
            fewest = int(node.get("minItems", 1))
            most = max(fewest, min(int(node.get("maxItems", fewest + 2)), fewest + 2))
            count = writer.rng.randint(fewest, most)
            return [build(node.get("items", {}), name) for _ in range(count)]
        if kind in ("number", "integer"):
            low = float(node.get("minimum", node.get("exclusiveMinimum", 0)))
            high = float(node.get("maximum", node.get("exclusiveMaximum", low + 1)))
            value = writer.rng.uniform(low, high)
            return int(round(value)) if kind == "integer" else round(value, 2)
        if kind == "boolean":
            return writer.rng.random() < 0.5
        return writer.one(banks().reasons)

    result = build(schema, ctx.schema)
    return result if isinstance(result, dict) else {"value": result}


Generator = Callable[[CallContext], dict[str, Any]]
# Keyed by the schema's name, the one a call carries; the class is kept to refuse a
# second, different schema of the same name.
_GENERATORS: dict[str, tuple[type[BaseModel], Generator]] = {}


def register_generator(schema: type[BaseModel], generator: Generator) -> None:
    """``generator`` answers calls for ``schema`` (and the dynamic subclasses the
    engine builds of it under the same name, e.g. a Position constrained to options)."""
    name = schema.__name__
    known = _GENERATORS.get(name)
    if known is not None and _path(known[0]) != _path(schema):
        raise ValueError(f"a simulator generator for another schema named {name!r} "
                         f"({_path(known[0])}) is already registered")
    _GENERATORS[name] = (schema, generator)


def _path(schema: type[BaseModel]) -> str:
    return f"{schema.__module__}.{schema.__qualname__}"


def generate(ctx: CallContext) -> dict[str, Any]:
    """The simulated answer to one call: its schema's registered generator, else
    generic valid output."""
    plugins_needed()
    known = _GENERATORS.get(ctx.schema)
    return (known[1] if known is not None else generic)(ctx)
