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
answer).
"""

from __future__ import annotations

import json
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
_ROUND = re.compile(r"Cross-examination round (\d+)\.")


@dataclass
class PromptSizes:
    """One debate's requests: tokens in all, characters per kind of prompt."""

    calls: int = 0
    tokens: int = 0
    cross_exam_chars: dict[int, list[int]] = field(default_factory=dict)  # round → per agent
    synthesis_chars: int = 0

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


def sizes_of(bodies: list[dict[str, Any]],
             kind_of: Callable[[dict[str, Any]], PromptKind] = council_prompt_kind
             ) -> PromptSizes:
    """Tokens of every request; characters of each cross-examination (by round) and of
    the synthesis, as ``kind_of`` tells them apart."""
    sizes = PromptSizes(calls=len(bodies))
    for body in bodies:
        sizes.tokens += request_tokens(body)
        kind = kind_of(body)
        if kind is None:
            continue
        if kind[0] == CROSS_EXAM:
            sizes.cross_exam_chars.setdefault(kind[1], []).append(prompt_chars(body))
        else:
            sizes.synthesis_chars = prompt_chars(body)
    return sizes


def measure_debate(answers: AnswerLength = "short") -> PromptSizes:
    with ModelStub(0.0, answers) as stub:
        run_engine(stub)
        return sizes_of(stub.bodies)


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
        ]
    return figures
