"""Finished debates whose agents gave chosen final verdicts: what calibration scores."""

from __future__ import annotations

from typing import Any

from debates.engine.schemas import Persona
from debates.models import Agent, Debate
from tests.decisions.conftest import OPTIONS, finish
from tests.factories import make_debate

# One agent: (name, library persona or None for a composed one, final verdict, confidence)
Seat = tuple[str, Any, str, float]


def persona(name: str) -> Persona:
    return Persona(name=name, background="b", expertise="e", approach="a", bias="x")


def debate_with_verdicts(team: Any, user: Any, panel: list[Seat], *, before: str | None,
                         after: str | None) -> Debate:
    """A finished debate (tests.decisions.conftest.OPTIONS) whose agents ended on these
    verdicts, and whose majority verdict was ``before`` at round 0 and ``after`` at
    the end (None: a tie)."""
    debate = finish(make_debate(team, user, personas=[persona(n) for n, *_ in panel]))
    for index, (_, source, _, _) in enumerate(panel):
        if source is not None:
            Agent.objects.filter(debate=debate, index=index).update(source_persona_id=source.code)
    synthesis = debate.synthesis
    template = synthesis.result["agents"][0]
    synthesis.result = {
        **synthesis.result,
        "agents": [{**template, "index": i, "persona": {**template["persona"], "name": n},
                    "final_verdict": v, "final_confidence": c}
                   for i, (n, _, v, c) in enumerate(panel)],
        "verdicts_before": _split(before, len(panel)),
        "verdicts_after": _split(after, len(panel)),
    }
    synthesis.save()
    return debate


def _split(leading: str | None, of: int) -> dict[str, Any]:
    """A split the council could have stored: every agent on ``leading``, or (None) a
    tie of one agent each on the first two options."""
    if leading is None:
        return {"counts": {OPTIONS[0]: 1, OPTIONS[1]: 1}, "of": of, "supporters": 1,
                "leading": None, "agreement": 1 / of}
    return {"counts": {leading: of}, "of": of, "supporters": of, "leading": leading,
            "agreement": 1.0}
