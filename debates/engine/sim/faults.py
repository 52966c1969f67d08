"""Which fault a simulated call suffers, and how a broken reply looks.

Each call draws, for every kind in ``FAULT_KINDS`` order, whether that fault happens;
the first hit wins. The draw is seeded by the simulator seed, the call's identity and
the attempt number, so a retry of the same call can succeed and a run is reproducible.
Raising the matching litellm error is the provider's job (``simulator.py``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from debates.engine.sim.config import FAULT_KINDS, seeded_rng


def draw_fault(
    seed: int, identity: int, attempt: int, rates: Mapping[str, float]
) -> tuple[str | None, random.Random]:
    """The fault for this attempt (or None), and the generator that shapes it further."""
    fault_rng = seeded_rng(seed, identity, attempt, "fault")
    fault = None
    for kind in FAULT_KINDS:
        draw = fault_rng.random()  # always drawn, so one kind's rate never shifts another's
        if fault is None and draw < rates.get(kind, 0.0):
            fault = kind
    return fault, fault_rng


def break_schema(schema: str, payload: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Valid JSON that the schema rejects, the way weak models typically get it wrong."""
    broken = json.loads(json.dumps(payload))
    if schema == "Position":
        broken["confidence"] = rng.choice([1.7, -0.2, "high"])
    elif schema == "CrossExamination":
        if rng.random() < 0.5:
            broken["updated_confidence"] = 1.7
        else:
            broken.pop("reflection", None)
    elif schema == "ComposedPanel" and broken.get("personas"):
        broken["personas"][0].pop("bias", None)
    elif schema == "Premortem":
        broken["root_causes"] = []
    elif schema == "SynthesisNarrative" and broken.get("risk_follow_up"):
        broken["risk_follow_up"][0]["status"] = "resolved-ish"
    else:
        # The engine's models forbid unknown fields, so an invented one is rejected.
        broken["summary_of_my_answer"] = "see above"
    return broken


def cut_off(text: str, rng: random.Random) -> str:
    """Malformed JSON: the reply stops part-way, as when a model hits its token limit."""
    cut = max(1, int(len(text) * rng.uniform(0.3, 0.8)))
    return text[:cut]
