"""Prompt templates, kept as files so a wording change is a reviewable diff.

The templates every protocol shares (preamble, sources, focused passages, the JSON
tail, verifier, judge) are the ``*.md`` beside this module; a protocol's own are in its
package's ``prompts/`` folder (``protocols/council/prompts/compose.md``), a plugin's the
same way, read through ``prompt_folder`` (``DebateProtocol.prompts()``), which falls
back on the shared ones. ``PROMPT_VERSION`` names the wording in use and is recorded
with every debate; a wording change is a new version. v3 (issue 30: sources) lays every
prompt out as one shared prefix (preamble, sources, question: ``head``) and the call's
own material after it (``laid_out``), so a provider's prompt cache serves the prefix.
v5 (issues 39 and 42) puts what a round's calls share first in the cross-examination's
user message (every position, the open points) and the agent's own part after it, so a
local server's slot cache reuses it; it adds deep mode's challenge prompts, the
sources' ``passages`` field and the text bounds sized from the model's context.
Templates use ``string.Template`` (``$name``) because JSON schemas are full of
braces that ``str.format`` would trip on.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from string import Template

from pydantic import BaseModel

from ..language import language_name
from ..schema_titles import without_titles

PROMPT_VERSION = "v5"
SHARED = Path(__file__).parent


@cache
def _template(path: Path) -> Template:
    return Template(path.read_text(encoding="utf-8"))


@cache
def _found(folder: Path | None, name: str) -> Path:
    own = folder / f"{name}.md" if folder is not None else None
    return own if own is not None and own.is_file() else SHARED / f"{name}.md"


class PromptFolder:
    """A protocol's prompt templates (``<name>.md`` in ``folder``), with the shared
    ones behind them."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def path(self, name: str) -> Path:
        return _found(self.folder, name)

    def render(self, template: str, **values: object) -> str:
        """The template filled with ``values``, stripped."""
        return _template(self.path(template)).substitute(
            {k: str(v) for k, v in values.items()}).strip()

    def text(self, name: str) -> str:
        """A template's words as written (the content checks look for replies that
        copy them: docs/engine.md, "Content checks")."""
        return _template(self.path(name)).template


@cache
def prompt_folder(folder: Path | None) -> PromptFolder:
    """The templates of the package whose ``prompts/`` folder is ``folder``."""
    return PromptFolder(folder)


def beside(module_file: str) -> PromptFolder:
    """The templates of the package ``module_file`` (a module's ``__file__``) is in."""
    return prompt_folder(Path(module_file).parent / "prompts")


def render(template: str, **values: object) -> str:
    """A shared template, filled."""
    return prompt_folder(None).render(template, **values)


def context_block(context: str) -> str:
    if not context:
        return ""
    return f"\nBackground provided by the team:\n<context>\n{context}\n</context>\n"


def head(language: str, question: str, context: str = "", sources: str = "",
         partial: bool = False, tag: str = "question") -> str:
    """The shared prefix of every prompt of a debate (docs/engine.md, "Sources"): the
    preamble, the sources (``sources``: passages as ``offer.render_passages`` writes
    them; ``partial`` when they are a selection), the question and its background.
    The same for every agent and every call of the debate that is shown the same
    passages, so a provider caches it once."""
    parts = [system_prompt(language)]
    if sources:
        parts.append(render("sources", passages=sources,
                            which=" (those most relevant to the question)" if partial else ""))
    parts.append(f"<{tag}>\n{question}\n</{tag}>{context_block(context).rstrip()}")
    return "\n\n".join(parts)


def focused_block(passages: str) -> str:
    return render("focused", passages=passages) if passages else ""


def laid_out(*, head: str, own: str, user: str, schema: type[BaseModel],
             focused: str = "", shared: str = "") -> list[dict[str, str]]:
    """A call's messages: the shared ``head`` as the system message, then the passages
    on the points under discussion (``focused``: the same for every agent of a step),
    the step's material common to its agents (``shared``, e.g. a round's positions),
    and only then the agent's own persona or role (``own``) and its own material and
    task (``user``): what a step's calls have in common comes first, byte-identical, so
    a model's prefix cache reuses it (docs/engine.md, "Prompt layout")."""
    body = "\n\n".join(part for part in (focused, shared, own, user) if part)
    return messages(system=head, user=body, schema=schema)


def system_prompt(language: str, persona_text: str = "") -> str:
    preamble = render("preamble", language_name=language_name(language))
    return f"{preamble}\n\n{persona_text}".strip()


@cache
def _json_tail(schema: type[BaseModel]) -> str:
    # Generating a JSON schema costs milliseconds; every agent of every round asks again.
    return render(
        "json_tail",
        schema_name=schema.__name__,
        schema=json.dumps(without_titles(schema.model_json_schema()), ensure_ascii=False,
                          separators=(",", ":")),
    )


def without_schema(messages: list[dict[str, str]],
                   schema: type[BaseModel]) -> list[dict[str, str]]:
    """``messages`` without the schema their user turn states, for a request that carries
    the schema itself and constrains the answer to it (json_schema, tools): stated in
    both it is paid for twice. Repair turns keep their wording; only the tail goes."""
    tail = f"\n\n{_json_tail(schema)}"
    return [
        {**m, "content": m["content"][: -len(tail)]}
        if m.get("role") == "user" and (m.get("content") or "").endswith(tail) else m
        for m in messages
    ]


# What a json_object prompt says instead of the JSON tail: part of the request's format,
# like the repair turn's wording (llm/replies.py), not of a protocol's templates.
KEYS_LINE = "Reply in JSON with keys {keys}."


@cache
def _keys_tail(schema: type[BaseModel]) -> str:
    keys = ",".join(json.dumps(key, ensure_ascii=False)
                    for key in schema.model_json_schema().get("properties", {}))
    return KEYS_LINE.format(keys=keys)


def with_schema_keys(messages: list[dict[str, str]],
                     schema: type[BaseModel]) -> list[dict[str, str]]:
    """``messages`` whose last turn names only the schema's keys instead of stating the
    schema, for a json_object request that carries the schema itself: llama.cpp
    constrains decoding to it, so stated in both it is paid for twice, and the keys
    still tell a server that ignores it what to write (docs/models.md, "Structured
    output modes"). A repair turn is left whole: the schema stays stated in full in
    the turn it repairs, for the model that did not follow the keys."""
    tail = f"\n\n{_json_tail(schema)}"
    if not messages or messages[-1].get("role") != "user":
        return messages
    last = messages[-1].get("content") or ""
    if not last.endswith(tail):
        return messages
    return [*messages[:-1],
            {**messages[-1], "content": f"{last[: -len(tail)]}\n\n{_keys_tail(schema)}"}]


def messages(*, system: str, user: str, schema: type[BaseModel]) -> list[dict[str, str]]:
    tail = _json_tail(schema)
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": f"{user}\n\n{tail}"},
    ]

