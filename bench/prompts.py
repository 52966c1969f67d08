"""Area "prompts": what a debate sends to the model, in tokens and characters.

The CLI figure's debate (5 given personas, 4 rounds forced by the stub's varied
answers, the council protocol) runs in this process against the local
OpenAI-compatible stub, over litellm's real HTTP path; the stub keeps every request
body as sent. A request's prompt tokens are its messages' tokens plus the JSON schema
it carries (``response_format`` or the tool's parameters): a hosted model counts both.
Tokens are litellm's ``token_counter`` (cl100k_base for a model it does not know), so
the figure is the same on every machine and for every run: the stub's answers are a
pure function of the request number.

The debate runs at each of the stub's answer lengths (``model_stub.ANSWER_LENGTHS``):
short answers, and one full sentence per text field (about 720 characters a position),
where every prompt that repeats an earlier answer costs more.

The reference is the seed agent-council's prompt tokens for the same panel and rounds on
the same stub at the same answer length, measured with the ``sidebyside`` area (the stub
answers its agents per persona and round too): 25.0k with short answers, 34.2k with
long ones (issue 20's first count, 27.6k, was on a stub that gave all its agents one
answer). With the panel composed by each (one more call, the stub's personas), 26.7k
and 39.7k.

Per output mode (issue 39): the debate runs once in each mode the engine can use
(``OUTPUT_MODES``: json_schema, json_object, tools, prompt; the model's setting forces
it), each held to the reference. The cacheable share is the part of a debate's prompt
tokens a provider's automatic prefix cache can serve: a request's longest common prefix
with an earlier request of the same debate (messages in order, as sent), counted when
it is at least 1,024 tokens (OpenAI's threshold), over all the debate's prompt tokens.

The slot share (issue 39, item 6) is what a local server's slot cache can reuse
(llama.cpp's ``cache_prompt``, the node server's kept sequence): a request's longest
common prefix with the previous request the stub received, of any length, over the
debate's message tokens (a local server turns the schema into a grammar, not prompt
tokens). Each round's calls arrive together, in an order the engine's tasks set, so the
share is a little different between runs: every pair of a round's calls shares the same
prefix, which is what the layout is for (docs/engine.md, "Prompt layout"). Both shares
are measured with the given panel in the medium mode (5 agents) and with a composed
panel in the deep mode (7 agents), at both answer lengths (``layout_figures``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.cli import ROUNDS, run_engine
from bench.figures import Figure
from bench.model_stub import ANSWER_LENGTHS, AnswerLength, ModelStub
from bench.stub_http import requested_schema

AREA = "prompts"
# agent-council on the same stub, panel, rounds and answer length (the sidebyside area)
REFERENCE_TOKENS: dict[AnswerLength, int] = {"short": 25_000, "long": 34_200}
# The same with the panel composed by each (the sidebyside area, issue 39), and the
# reference's cacheable share there (0 % with the given panel at both lengths).
REFERENCE_COMPOSED_TOKENS: dict[AnswerLength, int] = {"short": 26_700, "long": 39_700}
REFERENCE_COMPOSED_CACHEABLE: dict[AnswerLength, float] = {"short": 0.0, "long": 0.14}
# The modes the engine picks from (debates/engine/schemas.py OutputMode).
OUTPUT_MODES = ("json_schema", "json_object", "tools", "prompt")
CACHED_FROM = 1024  # OpenAI caches a prompt's prefix from 1,024 tokens
_ROUND = re.compile(r"Cross-examination round (\d+)\.")


@dataclass
class PromptSizes:
    """One debate's requests: tokens in all, characters per kind of prompt."""

    calls: int = 0
    tokens: int = 0
    cross_exam_chars: dict[int, list[int]] = field(default_factory=dict)  # round → per agent
    synthesis_chars: int = 0
    cacheable: int = 0  # tokens in a prefix of ≥ CACHED_FROM shared with an earlier call
    cached_calls: int = 0
    message_tokens: int = 0  # the messages alone: what a local server evaluates
    slot_reusable: int = 0  # tokens in the common prefix with the previous request

    @property
    def cacheable_share(self) -> float:
        return self.cacheable / self.tokens if self.tokens else 0.0

    @property
    def slot_share(self) -> float:
        return self.slot_reusable / self.message_tokens if self.message_tokens else 0.0

    def mean_cross_exam(self, round_number: int) -> float:
        sizes = self.cross_exam_chars.get(round_number, [])
        return sum(sizes) / len(sizes) if sizes else 0.0


def request_tokens(body: dict[str, Any]) -> int:
    """Prompt tokens of one chat request: its messages, and the schema it sends."""
    # Through the loader: a bare import would fetch the cost map over the network.
    from debates.engine import imported_litellm

    litellm = imported_litellm()

    messages = body.get("messages") or []
    tokens = litellm.token_counter(model=body.get("model", ""), messages=messages)
    _, schema = requested_schema(body)
    if schema is not None:
        tokens += litellm.token_counter(model=body.get("model", ""),
                                        text=json.dumps(schema, separators=(",", ":")))
    return tokens


def prompt_chars(body: dict[str, Any]) -> int:
    return sum(len(m.get("content") or "") for m in body.get("messages") or [])


CROSS_EXAM = "cross-examination"
SYNTHESIS = "synthesis"
# What a request is for: (CROSS_EXAM, its round), (SYNTHESIS, 0), or None for the rest.
PromptKind = tuple[str, int] | None


def council_prompt_kind(body: dict[str, Any]) -> PromptKind:
    """Council names the round in a cross-examination's user message, and its
    synthesizer in the system message."""
    messages = body.get("messages") or []
    user = next((m.get("content") or "" for m in reversed(messages)
                 if m.get("role") == "user"), "")
    found = _ROUND.search(user)
    if found:
        return CROSS_EXAM, int(found[1])
    if "neutral synthesizer" in " ".join(m.get("content") or "" for m in messages):
        return SYNTHESIS, 0
    return None


def prompt_text(body: dict[str, Any]) -> str:
    """A request's messages in order, role and text: what a prefix cache compares."""
    return "".join(f"<{m.get('role')}>{m.get('content') or ''}"
                   for m in body.get("messages") or [])


def cacheable_prefix(text: str, earlier: list[str]) -> int:
    """Tokens of ``text``'s longest common prefix with any ``earlier`` request when that
    prefix is at least ``CACHED_FROM`` tokens, else 0."""
    from debates.engine import imported_litellm

    common = max((len(os.path.commonprefix([text, seen])) for seen in earlier), default=0)
    if not common:
        return 0
    tokens = int(imported_litellm().token_counter(model="", text=text[:common]))
    return tokens if tokens >= CACHED_FROM else 0


def common_prefix_tokens(text: str, other: str) -> int:
    """Tokens of the longest common prefix of two requests' texts, any length."""
    from debates.engine import imported_litellm

    common = len(os.path.commonprefix([text, other]))
    return int(imported_litellm().token_counter(model="", text=text[:common])) if common else 0


def message_tokens(body: dict[str, Any]) -> int:
    from debates.engine import imported_litellm

    return int(imported_litellm().token_counter(model="", text=prompt_text(body)))


def sizes_of(bodies: list[dict[str, Any]],
             kind_of: Callable[[dict[str, Any]], PromptKind] = council_prompt_kind
             ) -> PromptSizes:
    """Tokens of every request and the cacheable part of them; characters of each
    cross-examination (by round) and of the synthesis, as ``kind_of`` tells them
    apart. ``bodies`` in the order the stub received them."""
    sizes = PromptSizes(calls=len(bodies))
    earlier: list[str] = []
    for body in bodies:
        sizes.tokens += request_tokens(body)
        text = prompt_text(body)
        cached = cacheable_prefix(text, earlier)
        sizes.cacheable += cached
        sizes.cached_calls += bool(cached)
        sizes.message_tokens += message_tokens(body)
        if earlier:
            sizes.slot_reusable += common_prefix_tokens(text, earlier[-1])
        earlier.append(text)
        kind = kind_of(body)
        if kind is None:
            continue
        if kind[0] == CROSS_EXAM:
            sizes.cross_exam_chars.setdefault(kind[1], []).append(prompt_chars(body))
        else:
            sizes.synthesis_chars = prompt_chars(body)
    return sizes


def measure_debate(answers: AnswerLength = "short", output_mode: str = "auto",
                   composed: bool = False, mode: str = "medium") -> PromptSizes:
    """The debate's requests in ``output_mode`` (``auto``: as for any unknown model
    behind an ``api_base``), with the given panel or one the model composes, in the
    debate's ``mode``."""
    with ModelStub(0.0, answers) as stub:
        run_engine(stub, output_mode=output_mode, composed=composed, mode=mode)
        return sizes_of(stub.bodies)


# The plain debates the layout is measured on: (label, debate mode, composed panel).
LAYOUT_DEBATES = (("medium, 5 given personas", "medium", False),
                  ("deep, 7 composed personas", "deep", True))


def layout_figures(answers: AnswerLength) -> list[Figure]:
    """Per output mode and plain debate: the share a provider's prefix cache serves
    (≥ 1,024 tokens) and the share a local server's slot cache reuses (any length)."""
    figures = []
    for label, mode, composed in LAYOUT_DEBATES:
        for output_mode in OUTPUT_MODES:
            sizes = measure_debate(answers, output_mode, composed=composed, mode=mode)
            detail = (f"{label}, {answers} answers, output mode {output_mode}, "
                      f"{sizes.calls} calls")
            figures += [
                Figure(AREA, f"cacheable share ≥ {CACHED_FROM:,}, {mode}, {output_mode} "
                             f"({answers} answers)",
                       100 * sizes.cacheable_share, "%",
                       detail=f"{detail}; {sizes.cached_calls} calls share a prefix of "
                              f"≥ {CACHED_FROM:,} tokens with an earlier call"),
                Figure(AREA, f"slot share, {mode}, {output_mode} ({answers} answers)",
                       100 * sizes.slot_share, "%",
                       detail=f"{detail}; {sizes.slot_reusable / 1000:.1f}k of "
                              f"{sizes.message_tokens / 1000:.1f}k message tokens in a "
                              "prefix shared with the previous request"),
            ]
    return figures


def mode_figures(answers: AnswerLength) -> list[Figure]:
    """Prompt tokens and cacheable share in each output mode, given panel."""
    figures = []
    reference = REFERENCE_TOKENS[answers]
    for mode in OUTPUT_MODES:
        sizes = measure_debate(answers, mode)
        detail = (f"{answers} answers, output mode {mode} (forced), 5 given personas, "
                  f"{sizes.calls} calls; messages and sent schema, cl100k_base")
        figures += [
            Figure(AREA, f"prompt tokens per debate, {mode} ({answers} answers)",
                   sizes.tokens / 1000, "k tokens",
                   target=f"≤ {reference / 1000:g}k (agent-council)",
                   ok=sizes.tokens <= reference, detail=detail),
            Figure(AREA, f"cacheable share, {mode} ({answers} answers)",
                   100 * sizes.cacheable_share, "%",
                   detail=f"{sizes.cached_calls} calls share a prefix of ≥ {CACHED_FROM:,} "
                          "tokens with an earlier call of the debate (agent-council: 0 %)"),
        ]
    return figures


def measure() -> list[Figure]:
    figures = []
    for answers in ANSWER_LENGTHS:
        sizes = measure_debate(answers)
        rounds = sorted(sizes.cross_exam_chars)
        if len(rounds) != ROUNDS:
            raise RuntimeError(f"the debate ran {len(rounds)} rounds, not {ROUNDS}")
        reference = REFERENCE_TOKENS[answers]
        detail = (f"{answers} answers; 5 given personas, {ROUNDS} rounds, council protocol, "
                  f"{sizes.calls} calls to the OpenAI-compatible stub; messages and sent "
                  "schema, cl100k_base")
        cross = " → ".join(f"{sizes.mean_cross_exam(r) / 1000:.1f}k" for r in rounds)
        figures += [
            Figure(AREA, f"prompt tokens per debate ({answers} answers)",
                   sizes.tokens / 1000, "k tokens",
                   target=f"≤ {reference / 1000:g}k (agent-council)",
                   ok=sizes.tokens <= reference, detail=detail),
            Figure(AREA, f"cross-examination prompt, last round ({answers} answers)",
                   sizes.mean_cross_exam(rounds[-1]) / 1000, "k chars",
                   detail=f"mean per agent, system + user; rounds 1 → {ROUNDS}: {cross}"),
            Figure(AREA, f"synthesis prompt ({answers} answers)",
                   sizes.synthesis_chars / 1000, "k chars", detail="system + user"),
            *mode_figures(answers),
            *layout_figures(answers),
        ]
    return figures
