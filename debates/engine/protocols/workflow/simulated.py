"""The simulated model's answers to the workflow protocol's schemas: typed phase 1
analyses, a phase 2 that cites the claims it was shown, rebuttals, a convergence
check and a synthesis. Deterministic from the call seed.

Registered with the simulator by the engine's plugins; the wording and the writer
come through the call's context, so nothing here imports the simulator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .schemas import (
    ConvergenceCheck,
    CriticAnalysis,
    Discussion,
    Rebuttal,
    ResearcherAnalysis,
    SynthesizerAnalysis,
    WorkflowSynthesis,
)

if TYPE_CHECKING:
    from ...sim.generate import CallContext, Generator, Writer


def _path(writer: Writer, key: str) -> str:
    return writer.fill(writer.rng.choice(writer.ctx.banks.path[writer.lang][key]))


def _researcher(ctx: CallContext) -> dict[str, Any]:
    writer = ctx.writer(ctx.rng())
    return {
        "summary": writer.one(ctx.banks.reasons),
        "findings": [{"claim": c, "evidence": writer.one(ctx.banks.reasons),
                      "kind": writer.rng.choice(["evidence", "speculation"])}
                     for c in writer.many(ctx.banks.reasons, 2, 3)],
        "alternatives": writer.many(ctx.banks.assumptions, 1, 2),
        "evidence_gaps": writer.many(ctx.banks.assumptions, 1, 2),
        "falsifiability": writer.many(ctx.banks.signals, 1, 2),
    }


def _critic(ctx: CallContext) -> dict[str, Any]:
    writer = ctx.writer(ctx.rng())
    levels = ["low", "medium", "high"]
    return {
        "summary": writer.one(ctx.banks.reflections),
        "risks": [{"risk": r, "challenged_assumption": writer.one(ctx.banks.assumptions),
                   "mitigation": writer.one(ctx.banks.reasons),
                   "likelihood": writer.rng.choice(levels), "impact": writer.rng.choice(levels)}
                  for r in writer.many(ctx.banks.root_causes, 2, 3)],
        "weaknesses": writer.many(ctx.banks.signals, 1, 2),
    }


def _synthesizer(ctx: CallContext) -> dict[str, Any]:
    writer = ctx.writer(ctx.rng())
    return {
        "summary": writer.one(ctx.banks.consensus),
        "patterns": writer.many(ctx.banks.consensus, 1, 2),
        "options": [writer.fill(s) for s in (
            writer.rng.choice(ctx.banks.stances[ctx.language]["for"]),
            writer.rng.choice(ctx.banks.stances[ctx.language]["against"]))],
        "decision_framework": [{"criterion": writer.one(ctx.banks.assumptions),
                                "favours": writer.one(ctx.banks.reasons)} for _ in range(2)],
    }


def _discussion(ctx: CallContext) -> dict[str, Any]:
    writer = ctx.writer(ctx.rng())
    claims: dict[str, list[str]] = ctx.hints.get("claims") or {}
    citations = []
    for role, texts in claims.items():
        for text in texts[:1]:
            citations.append({"source_role": role, "claim": text[:160],
                              "response": writer.one(ctx.banks.views)})
    while len(citations) < 2 and claims:
        role = next(iter(claims))
        texts = claims[role]
        citations.append({"source_role": role, "claim": texts[len(citations) % len(texts)][:160]
                          if texts else writer.one(ctx.banks.reasons),
                          "response": writer.one(ctx.banks.views)})
    return {
        "response": writer.one(ctx.banks.reflections),
        "citations": citations,
        "acknowledged_missed": [writer.one(ctx.banks.views)],
        "key_recommendation": _path(writer, "recommendation"),
    }


def _rebuttal(ctx: CallContext) -> dict[str, Any]:
    writer = ctx.writer(ctx.rng())
    return {"stance": writer.rng.choice(["concede", "justify"]),
            "argument": writer.one(ctx.banks.reasons),
            "path_forward": _path(writer, "dependencies"),
            "key_recommendation": _path(writer, "recommendation")}


def _convergence(ctx: CallContext) -> dict[str, Any]:
    rng = ctx.rng()
    writer = ctx.writer(rng)
    round_ = int(ctx.hints.get("round") or ctx.round or 1)
    if round_ >= 2:
        basis = rng.choice(["two_agree_third_accepts", "shared_framework", "contested_tradeoffs"])
    else:
        basis = rng.choice(["same_direction", "two_agree_third_accepts", "opposing",
                            "contested_tradeoffs", "unclear"])
    return {"basis": basis, "key_agreement": writer.one(ctx.banks.consensus),
            "remaining_tension": writer.one(ctx.banks.topics),
            "disagreement": writer.one(ctx.banks.topics)}


def _workflow_synthesis(ctx: CallContext) -> dict[str, Any]:
    writer = ctx.writer(ctx.rng())
    return {
        "summary": writer.one(ctx.banks.consensus),
        "consensus": writer.many(ctx.banks.consensus, 1, 3),
        "tensions": [writer.one(ctx.banks.topics)],
        "decision_framework": [{"criterion": writer.one(ctx.banks.assumptions),
                                "favours": writer.one(ctx.banks.reasons)} for _ in range(3)],
        "next_steps": writer.many(ctx.banks.signals, 2, 3),
    }

GENERATORS: dict[type, Generator] = {
    ResearcherAnalysis: _researcher,
    CriticAnalysis: _critic,
    SynthesizerAnalysis: _synthesizer,
    Discussion: _discussion,
    Rebuttal: _rebuttal,
    ConvergenceCheck: _convergence,
    WorkflowSynthesis: _workflow_synthesis,
}
