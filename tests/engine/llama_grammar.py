"""llama.cpp's JSON-schema-to-grammar conversion and its grammar parser's limits, in Python.

A test support module, written after llama.cpp's ``common/json-schema-to-grammar.cpp``
(the converter ``llama-server`` and llama-cpp-python apply to ``response_format``
schemas and tool parameters) and ``src/llama-grammar.cpp`` (the GBNF parser). It
computes the GBNF a schema becomes and whether the parser refuses it: the parser
rewrites each repetition ``S{m,n}`` into ``n - m`` nested optional rules, and refuses
when the rules being repeated times the repetition count reach
``MAX_REPETITION_THRESHOLD`` (a ``char{1,2000}`` string, e.g. a persona field, does).
Only what the engine's schemas use is covered; anything else raises
``NotImplementedError`` so a new kind of schema cannot pass unchecked.
"""

from __future__ import annotations

import json
import re
from typing import Any

# src/llama-grammar.cpp
MAX_REPETITION_THRESHOLD = 2000
REPETITION_REFUSAL = (
    "number of rules that are going to be repeated multiplied by the new repetition "
    "exceeds sane defaults, please reduce the number of repetitions or rule complexity"
)
REPETITIONS_REFUSAL = (
    "number of repetitions exceeds sane defaults, please reduce the number of repetitions"
)


class GrammarRefused(ValueError):
    """The grammar parser's error (llama.cpp logs "error parsing grammar: ...")."""


# ----------------------------------------------------------------------------- converter

SPACE_RULE = '| " " | "\\n"{1,2} [ \\t]{0,20}'
# name: (GBNF, the primitive rules it uses)
PRIMITIVES: dict[str, tuple[str, tuple[str, ...]]] = {
    "boolean": ('("true" | "false") space', ()),
    "decimal-part": ("[0-9]{1,16}", ()),
    "integral-part": ("[0] | [1-9] [0-9]{0,15}", ()),
    "number": (
        '("-"? integral-part) ("." decimal-part)? ([eE] [-+]? integral-part)? space',
        ("integral-part", "decimal-part"),
    ),
    "integer": ('("-"? integral-part) space', ("integral-part",)),
    "value": (
        "object | array | string | number | boolean | null",
        ("object", "array", "string", "number", "boolean", "null"),
    ),
    "object": (
        '"{" space ( string ":" space value ("," space string ":" space value)* )? "}" space',
        ("string", "value"),
    ),
    "array": ('"[" space ( value ("," space value)* )? "]" space', ("value",)),
    "char": ('[^"\\\\\\x7F\\x00-\\x1F] | [\\\\] (["\\\\bfnrt] | "u" [0-9a-fA-F]{4})', ()),
    "string": ('"\\"" char* "\\"" space', ("char",)),
    "null": ('"null" space', ()),
}
RESERVED = {"root", *PRIMITIVES, "date", "time", "date-time", "date-string", "time-string",
            "date-time-string"}
_INVALID_RULE_CHARS = re.compile(r"[^a-zA-Z0-9-]+")
_LITERAL_ESCAPES = {"\r": "\\r", "\n": "\\n", '"': '\\"', "\\": "\\\\"}


def _literal(text: str) -> str:
    return '"' + re.sub(r'[\r\n"\\]', lambda m: _LITERAL_ESCAPES[m.group()], text) + '"'


def _constant(value: Any) -> str:
    # nlohmann's dump: compact, non-ASCII kept as is.
    return _literal(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _repetition(item: str, least: int, most: int | None, separator: str = "") -> str:
    if most == 0:
        return ""
    if least == 0 and most == 1:
        return f"{item}?"
    if not separator:
        if least == 1 and most is None:
            return f"{item}+"
        if least == 0 and most is None:
            return f"{item}*"
        return f"{item}{{{least},{'' if most is None else most}}}"
    rest = _repetition(f"({separator} {item})", max(least - 1, 0),
                       None if most is None else most - 1)
    result = f"{item} {rest}"
    return f"({result})?" if least == 0 else result


class _Converter:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.rules: dict[str, str] = {"space": SPACE_RULE}
        self.resolving: set[str] = set()

    def add_rule(self, name: str, rule: str) -> str:
        key = _INVALID_RULE_CHARS.sub("-", name)
        if key not in self.rules or self.rules[key] == rule:
            self.rules[key] = rule
            return key
        i = 0
        while f"{key}{i}" in self.rules and self.rules[f"{key}{i}"] != rule:
            i += 1
        self.rules[f"{key}{i}"] = rule
        return f"{key}{i}"

    def add_primitive(self, name: str, primitive: str) -> str:
        content, deps = PRIMITIVES[primitive]
        added = self.add_rule(name, content)
        for dep in deps:
            if dep not in self.rules:
                self.add_primitive(dep, dep)
        return added

    def resolve_ref(self, ref: str) -> str:
        if not ref.startswith("#/"):
            raise NotImplementedError(f"ref {ref!r}")
        name = "ref" + _INVALID_RULE_CHARS.sub("-", ref[1:])
        if name not in self.rules and ref not in self.resolving:
            target: Any = self.root
            for part in ref[2:].split("/"):
                target = target[part]
            self.resolving.add(ref)
            name = self.visit(target, name)
            self.resolving.discard(ref)
        return name

    def union(self, name: str, alternatives: list[Any]) -> str:
        prefix = f"{name}-" if name else "alternative-"
        return " | ".join(self.visit(alt, f"{prefix}{i}") for i, alt in enumerate(alternatives))

    def visit(self, schema: dict[str, Any], name: str) -> str:
        kind = schema.get("type")
        rule_name = f"{name}-" if name in RESERVED else (name or "root")
        if "$ref" in schema:
            return self.add_rule(rule_name, self.resolve_ref(schema["$ref"]))
        if "oneOf" in schema or "anyOf" in schema:
            alternatives = schema.get("oneOf") or schema["anyOf"]
            return self.add_rule(rule_name, self.union(name, alternatives))
        if isinstance(kind, list):
            return self.add_rule(rule_name, self.union(name, [{**schema, "type": t} for t in kind]))
        if "const" in schema:
            return self.add_rule(rule_name, _constant(schema["const"]) + " space")
        if "enum" in schema:
            options = " | ".join(_constant(v) for v in schema["enum"])
            return self.add_rule(rule_name, f"({options}) space")
        extra = schema.get("additionalProperties")
        if kind in (None, "object") and ("properties" in schema or (
                "additionalProperties" in schema and extra is not True)):
            return self.add_rule(rule_name, self.object_rule(schema, name))
        if "allOf" in schema or "pattern" in schema or "format" in schema:
            raise NotImplementedError(f"schema keywords of {schema!r}")
        if kind in (None, "array") and ("items" in schema or "prefixItems" in schema):
            items = schema.get("items", schema.get("prefixItems"))
            if not isinstance(items, dict):
                raise NotImplementedError("tuple arrays")
            item = self.visit(items, f"{name}-item" if name else "item")
            most = schema.get("maxItems")
            body = _repetition(item, int(schema.get("minItems", 0)),
                               most if isinstance(most, int) else None, '"," space')
            return self.add_rule(rule_name, f'"[" space {body} "]" space')
        if kind == "string" and ("minLength" in schema or "maxLength" in schema):
            char = self.add_primitive("char", "char")
            most = schema.get("maxLength")
            body = _repetition(char, int(schema.get("minLength", 0)),
                               None if most is None else int(most))
            return self.add_rule(rule_name, f'"\\"" {body} "\\"" space')
        if kind == "integer" and any(k in schema for k in (
                "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")):
            raise NotImplementedError("integer bounds")
        if not schema or kind == "object":
            return self.add_rule(rule_name, self.add_primitive("object", "object"))
        if kind is None:
            return self.add_rule(rule_name, self.add_primitive("value", "value"))
        if kind not in PRIMITIVES:
            raise NotImplementedError(f"type {kind!r}")
        return self.add_primitive("root" if rule_name == "root" else kind, kind)

    def object_rule(self, schema: dict[str, Any], name: str) -> str:
        prefix = f"{name}-" if name else ""
        required_names = set(schema.get("required", []))
        kv: dict[str, str] = {}
        required: list[str] = []
        optional: list[str] = []
        for prop, sub in schema.get("properties", {}).items():
            value = self.visit(sub, f"{prefix}{prop}")
            kv[prop] = self.add_rule(f"{prefix}{prop}-kv",
                                     f'{_constant(prop)} space ":" space {value}')
            (required if prop in required_names else optional).append(prop)
        extra = schema.get("additionalProperties")
        if extra is True or isinstance(extra, dict):
            raise NotImplementedError("additionalProperties")

        rule = '"{" space ' + ' "," space '.join(kv[p] for p in required)
        if optional:
            rule += " ("
            if required:
                rule += ' "," space ( '

            def chain(keys: list[str], first_optional: bool) -> str:
                ref = kv[keys[0]]
                out = f'( "," space {ref} )?' if first_optional else ref
                if len(keys) > 1:
                    out += " " + self.add_rule(f"{prefix}{keys[0]}-rest",
                                               chain(keys[1:], True))
                return out

            rule += " | ".join(chain(optional[i:], False) for i in range(len(optional)))
            if required:
                rule += " )"
            rule += " )?"
        return rule + ' "}" space'


def schema_to_gbnf(schema: dict[str, Any]) -> str:
    """The grammar llama.cpp builds for ``schema``: its rules, sorted by name."""
    converter = _Converter(schema)
    converter.visit(schema, "")
    return "".join(f"{name} ::= {rule}\n" for name, rule in sorted(converter.rules.items()))


# ----------------------------------------------------------------------------- parser


class _Parser:
    """The parts of llama.cpp's GBNF parser that decide whether a grammar is refused."""

    def __init__(self, text: str) -> None:
        self.src = text + "\0"
        self.symbols: dict[str, int] = {}
        self.defined: set[int] = set()
        self.referenced: set[int] = set()

    def at(self, pos: int, offset: int = 0) -> str:
        return self.src[pos + offset] if pos + offset < len(self.src) else "\0"

    def symbol(self, name: str) -> int:
        return self.symbols.setdefault(name, len(self.symbols))

    def generate(self, base: str) -> int:
        new = len(self.symbols)
        self.symbols[f"{base}_{new}"] = new
        self.defined.add(new)
        return new

    def space(self, pos: int, newline_ok: bool) -> int:
        while self.at(pos) in " \t#" or (newline_ok and self.at(pos) in "\r\n"):
            if self.at(pos) == "#":
                while self.at(pos) not in "\r\n\0":
                    pos += 1
            else:
                pos += 1
        return pos

    def name(self, pos: int) -> int:
        end = pos
        while self.at(end).isascii() and (self.at(end).isalnum() or self.at(end) == "-"):
            end += 1
        if end == pos:
            raise GrammarRefused(f"expecting name at {self.src[pos:pos + 20]!r}")
        return end

    def char(self, pos: int) -> int:
        if self.at(pos) == "\\":
            escape = self.at(pos, 1)
            widths = {"x": 2, "u": 4, "U": 8}
            if escape in widths:
                digits = self.src[pos + 2: pos + 2 + widths[escape]]
                if not re.fullmatch(r"[0-9a-fA-F]+", digits) or len(digits) != widths[escape]:
                    raise GrammarRefused(f"expecting {widths[escape]} hex chars")
                return pos + 2 + widths[escape]
            if escape in 'trn\\"[]-':
                return pos + 2
            raise GrammarRefused(f"unknown escape at {self.src[pos:pos + 10]!r}")
        if self.at(pos) == "\0":
            raise GrammarRefused("unexpected end of input")
        return pos + 1

    def parse(self) -> int:
        pos = self.space(0, True)
        while self.at(pos) != "\0":
            end = self.name(pos)
            rule_name = self.src[pos:end]
            rule_id = self.symbol(rule_name)
            pos = self.space(end, False)
            if self.src[pos:pos + 3] != "::=":
                raise GrammarRefused(f"expecting ::= at {self.src[pos:pos + 20]!r}")
            pos = self.alternates(self.space(pos + 3, True), rule_name, False)
            self.defined.add(rule_id)
            if self.at(pos) == "\r":
                pos += 2 if self.at(pos, 1) == "\n" else 1
            elif self.at(pos) == "\n":
                pos += 1
            elif self.at(pos) != "\0":
                raise GrammarRefused(f"expecting newline or end at {self.src[pos:pos + 20]!r}")
            pos = self.space(pos, True)
        missing = self.referenced - self.defined
        if missing:
            names = {v: k for k, v in self.symbols.items()}
            raise GrammarRefused(f"Undefined rule identifier '{names[min(missing)]}'")
        return len(self.symbols)

    def alternates(self, pos: int, rule_name: str, nested: bool) -> int:
        pos = self.sequence(pos, rule_name, nested)
        while self.at(pos) == "|":
            pos = self.sequence(self.space(pos + 1, True), rule_name, nested)
        return pos

    def sequence(self, pos: int, rule_name: str, nested: bool) -> int:
        has_symbol = False
        # How many rules the last symbol stands for: a group counts the rules made
        # while parsing it, and a repetition multiplies it.
        n_prev_rules = 1

        def repeat(least: int, most: int | None) -> None:
            nonlocal n_prev_rules
            if not has_symbol:
                raise GrammarRefused("expecting preceding item to */+/?/{")
            total = most if most is not None and most > 0 else (least if least > 0 else 1)
            if n_prev_rules * total >= MAX_REPETITION_THRESHOLD:
                raise GrammarRefused(REPETITION_REFUSAL)
            for _ in range(1 if most is None else most - least):
                self.generate(rule_name)
            n_prev_rules *= total

        while True:
            c = self.at(pos)
            if c == '"':
                pos += 1
                while self.at(pos) != '"':
                    pos = self.char(pos)
                pos = self.space(pos + 1, nested)
                has_symbol, n_prev_rules = True, 1
            elif c == "[":
                pos += 1
                if self.at(pos) == "^":
                    pos += 1
                while self.at(pos) != "]":
                    pos = self.char(pos)
                    if self.at(pos) == "-" and self.at(pos, 1) != "]":
                        pos = self.char(pos + 1)
                pos = self.space(pos + 1, nested)
                has_symbol, n_prev_rules = True, 1
            elif c.isascii() and (c.isalnum() or c == "-"):
                end = self.name(pos)
                self.referenced.add(self.symbol(self.src[pos:end]))
                pos = self.space(end, nested)
                has_symbol, n_prev_rules = True, 1
            elif c == "(":
                pos = self.space(pos + 1, True)
                before = len(self.symbols)
                self.generate(rule_name)
                pos = self.alternates(pos, rule_name, True)
                n_prev_rules = max(1, len(self.symbols) - before)
                has_symbol = True
                if self.at(pos) != ")":
                    raise GrammarRefused(f"expecting ')' at {self.src[pos:pos + 20]!r}")
                pos = self.space(pos + 1, nested)
            elif c == ".":
                pos = self.space(pos + 1, nested)
                has_symbol, n_prev_rules = True, 1
            elif c in "*+?":
                pos = self.space(pos + 1, nested)
                repeat(*{"*": (0, None), "+": (1, None), "?": (0, 1)}[c])
            elif c == "{":
                match = re.match(r"\{\s*(\d+)\s*(?:(,)\s*(\d*)\s*)?\}", self.src[pos:])
                if match is None:
                    raise GrammarRefused(f"bad repetition at {self.src[pos:pos + 20]!r}")
                pos = self.space(pos + match.end(), nested)
                least = int(match.group(1))
                most: int | None = least
                if match.group(2):
                    most = int(match.group(3)) if match.group(3) else None
                if least > MAX_REPETITION_THRESHOLD:
                    raise GrammarRefused(REPETITIONS_REFUSAL)
                if most is not None and most > MAX_REPETITION_THRESHOLD:
                    most = None
                repeat(least, most)
            else:
                return pos


def parse_gbnf(text: str) -> int:
    """The number of rules llama.cpp's parser makes of ``text``; raises GrammarRefused
    where it refuses the grammar."""
    return _Parser(text).parse()


def refusal(schema: dict[str, Any]) -> str | None:
    """Why llama.cpp would refuse ``schema`` as a grammar, or None if it takes it."""
    try:
        parse_gbnf(schema_to_gbnf(schema))
    except GrammarRefused as exc:
        return str(exc)
    return None
