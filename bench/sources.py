"""Area "sources": what a ~15k-token source costs a debate, with prompt caching.

The ``prompts`` area's debate (5 given personas, 4 rounds, council, the
OpenAI-compatible stub over litellm's HTTP path) runs twice: without sources and with
one document of about 15k tokens (``source_text``). Each is counted as a provider with
a prompt cache bills it: a request's prompt tokens, less nine tenths of its longest
common prefix with any earlier request of the debate when that prefix is at least
1,024 tokens (OpenAI caches prefixes from 1,024 tokens, at a tenth or less of the
price; Anthropic through the marker the engine sets). The prefix is measured on the
prompts as sent (messages in order, role and text), in cl100k_base tokens, so the
figure is the same on every machine. Target: the debate with the source at most 2x
the one without (docs/performance.md, "Sources").
"""

from __future__ import annotations

import os
import random
from typing import Any

from bench.cli import ROUNDS, run_engine
from bench.figures import Figure
from bench.model_stub import ModelStub
from bench.prompts import request_tokens

AREA = "sources"
CACHED_FROM = 1024
CACHED_PRICE = 0.1
TARGET = 2.0
_TOPICS = ["the monolith", "services", "deploys", "on-call", "latency", "the database",
           "the billing module", "test time", "the release train", "incidents", "costs",
           "hiring", "the API gateway", "queues", "observability"]


def source_text(paragraphs: int = 165, seed: int = 5) -> str:
    """A made-up incident and cost review: varied sentences a quote can be checked in."""
    rng = random.Random(seed)
    out = ["# Platform review: incidents, costs and delivery"]
    for i in range(paragraphs):
        sentences = []
        for j in range(rng.randint(3, 6)):
            a, b = rng.sample(_TOPICS, 2)
            sentences.append(f"In review {i}.{j}, {a} changed {b} by {rng.randint(2, 90)} "
                             f"percent over {rng.randint(1, 12)} months.")
        out.append(" ".join(sentences))
    return "\n\n".join(out)


def _tokens(text: str) -> int:
    from debates.engine import imported_litellm

    return int(imported_litellm().token_counter(model="", text=text))


def prompt_text(body: dict[str, Any]) -> str:
    return "".join(f"<{m.get('role')}>{m.get('content') or ''}"
                   for m in body.get("messages") or [])


def effective_tokens(bodies: list[dict[str, Any]]) -> tuple[int, int, int]:
    """(prompt tokens, effective prompt tokens, requests with a cached prefix)."""
    seen: list[str] = []
    total = effective = hits = 0
    for body in bodies:
        text, tokens = prompt_text(body), request_tokens(body)
        common = max((len(os.path.commonprefix([text, s])) for s in seen), default=0)
        cached = _tokens(text[:common]) if common else 0
        total += tokens
        if cached >= CACHED_FROM:
            effective += tokens - round(cached * (1 - CACHED_PRICE))
            hits += 1
        else:
            effective += tokens
        seen.append(text)
    return total, effective, hits


def measure_pair() -> dict[str, Any]:
    from debates.engine import SourceDocument

    text = source_text()
    runs = {}
    for name, docs in (("without", []), ("with", [SourceDocument(
            id="S1", title="Platform review", text=text)])):
        with ModelStub(0.0) as stub:
            run_engine(stub, sources=docs)
            runs[name] = (*effective_tokens(stub.bodies), len(stub.bodies))
    return {"source_tokens": _tokens(text), **runs}


def measure() -> list[Figure]:
    pair = measure_pair()
    (w_total, w_eff, w_hits, w_calls) = pair["without"]
    (s_total, s_eff, s_hits, s_calls) = pair["with"]
    ratio = s_eff / w_eff
    detail = (f"5 given personas, {ROUNDS} rounds, council, the stub; a "
              f"{pair['source_tokens'] / 1000:.1f}k-token source; a prefix of ≥ "
              f"{CACHED_FROM} tokens repeated from an earlier prompt billed at a tenth")
    return [
        Figure(AREA, "effective prompt tokens, with the source against without", ratio, "×",
               target=f"≤ {TARGET:g}×", ok=ratio <= TARGET,
               detail=f"{s_eff / 1000:.1f}k against {w_eff / 1000:.1f}k; {detail}"),
        Figure(AREA, "prompt tokens with the source, uncached", s_total / 1000, "k tokens",
               detail=f"{s_calls} calls, {s_hits} with a cached prefix"),
        Figure(AREA, "prompt tokens without sources", w_total / 1000, "k tokens",
               detail=f"{w_calls} calls, {w_hits} with a cached prefix "
                      f"(effective {w_eff / 1000:.1f}k)"),
    ]
