"""Sources and debates the sources tests share."""

from __future__ import annotations

import asyncio
import random

from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks
from debates.engine.llm.usage import usage_from_calls
from debates.engine.protocols import get_protocol, run_protocol
from debates.engine.sources.documents import SourceDocument
from debates.engine.state import DebateState

QUESTION = "Should we adopt Kafka or SQS for the order events?"
_TOPICS = ["Kafka", "SQS", "throughput", "retention", "ordering", "cost", "operations",
           "incident", "latency", "consumer lag", "partitions", "visibility timeout",
           "dead-letter queue", "replication", "on-call"]


def long_text(paragraphs: int = 120, seed: int = 3) -> str:
    """About 110 tokens a paragraph of varied, checkable sentences."""
    rng = random.Random(seed)
    out = []
    for i in range(paragraphs):
        sentences = []
        for j in range(rng.randint(3, 6)):
            a, b = rng.sample(_TOPICS, 2)
            sentences.append(f"In test {i}.{j} the {a} measurement changed {b} by "
                             f"{rng.randint(2, 90)} percent at {rng.randint(1, 50)}k "
                             "messages per second.")
        out.append(" ".join(sentences))
    return "\n\n".join(out)


def sources(text: str | None = None) -> list[SourceDocument]:
    return [SourceDocument(id="S1", title="Incident review", text=text or long_text()),
            SourceDocument(id="S2", title="Cost notes",
                           text="SQS costs 40 cents per million requests.\n\n"
                                "Kafka needs three brokers and an on-call rota.")]


class Calls(EngineHooks):
    def __init__(self) -> None:
        self.calls: list = []

    async def on_call(self, record):
        self.calls.append(record)


def run(protocol: str = "council", docs: list[SourceDocument] | None = None,
        question: str = QUESTION, **config):
    state = DebateState(question=question, config=resolve_config(protocol=protocol, **config),
                        sources=list(docs or []))
    hooks = Calls()
    asyncio.run(run_protocol(state, hooks))
    result = get_protocol(protocol).build_result(state, usage_from_calls(hooks.calls))
    return state, result
