"""Simulated output for the adversarial and workflow protocols' schemas.

The generic generator would give valid JSON, but not a sensible run: these answer
each schema the way a plausible agent would (a critic that resolves most earlier
issues and raises fewer new ones each round, so a run converges in a few rounds; a
phase 2 that cites the claims it was shown), deterministically from the call seed.
"""

from __future__ import annotations

from typing import Any

from debates.engine.sim_data import text_banks as banks
from debates.engine.sim_generate import GENERATORS as CORE_GENERATORS
from debates.engine.sim_generate import CallContext, _cap, _Writer, generic


def _path(writer: _Writer, key: str) -> str:
    return writer.fill(writer.rng.choice(banks().path[writer.lang][key]))


def _focus(ctx: CallContext) -> list[str]:
    return [str(f) for f in ctx.hints.get("focus_areas") or []] or ["soundness", "risks"]


def _proposal(ctx: CallContext) -> dict[str, Any]:
    writer = _Writer(ctx, ctx.rng())
    round_ = int(ctx.hints.get("round") or ctx.round or 1)
    replies = [{"issue_id": str(i), "reply": writer.one(banks().reasons)}
               for i in ctx.hints.get("issue_ids") or []]
    body = [f"Version {round_}."] + writer.many(banks().reasons, 3, 5)
    body += ["Assumptions: " + "; ".join(writer.many(banks().assumptions, 1, 2))]
    return {
        "summary": writer.one(banks().reasons) if round_ == 1 else
        f"Revised after {len(replies)} review point(s): " + writer.one(banks().reasons),
        "replies": replies,
        "proposal": "\n\n".join(body),
    }


def _critique(ctx: CallContext) -> dict[str, Any]:
    rng = ctx.rng()
    writer = _Writer(ctx, rng)
    round_ = int(ctx.hints.get("round") or ctx.round or 1)
    focus = _focus(ctx)
    resolutions, issues = [], []
    for item in ctx.hints.get("open_issues") or []:
        chance = {"green": 0.8, "yellow": 0.6, "red": 0.5}[item["severity"]] + 0.1 * round_
        resolved = rng.random() < chance
        resolutions.append({"id": item["id"], "resolved": resolved,
                            "note": writer.one(banks().reflections)})
        if not resolved:
            issues.append({"id": item["id"], "severity": item["severity"],
                           "title": item["title"], "detail": writer.one(banks().root_causes),
                           "suggested_fix": writer.one(banks().reasons)})
    if round_ <= 1:
        wanted = ["red"] * rng.randint(1, 2) + ["yellow"] * rng.randint(2, 3) + \
            ["green"] * rng.randint(1, 2)
    else:
        wanted = [s for s, p in (("red", 0.15 / round_), ("yellow", 0.35 / round_),
                                 ("green", 0.5)) if rng.random() < p]
    start = int(ctx.hints.get("issue_count") or 0)
    for n, severity in enumerate(wanted):
        area = focus[(start + n) % len(focus)]
        aspect = rng.choice(banks().aspects[ctx.language])
        issues.append({"id": None, "severity": severity,
                       "title": _cap(f"{area}: {aspect}"),
                       "detail": writer.one(banks().root_causes),
                       "suggested_fix": writer.one(banks().reasons)})
    counts = {s: sum(1 for i in issues if i["severity"] == s) for s in ("red", "yellow", "green")}
    return {"assessment": writer.one(banks().reflections), "resolutions": resolutions,
            "issues": issues, "claimed_counts": counts}


def _adversarial_synthesis(ctx: CallContext) -> dict[str, Any]:
    writer = _Writer(ctx, ctx.rng())
    issues = ctx.hints.get("issues") or []
    final = str(ctx.hints.get("final_proposal") or writer.one(banks().reasons))
    decisions = [{"issue": f"[{i['id']}] {i['title']}",
                  "decision": "accepted as a known risk" if i["open"] else str(i["fix"]),
                  "rationale": writer.one(banks().reasons)} for i in issues[:6]]
    risks = [f"[{i['id']}] {i['title']}" for i in issues if i["open"]]
    risks.append(writer.one(banks().root_causes))
    return {"final_solution": final, "key_decisions": decisions, "remaining_risks": risks}


def _researcher(ctx: CallContext) -> dict[str, Any]:
    writer = _Writer(ctx, ctx.rng())
    return {
        "summary": writer.one(banks().reasons),
        "findings": [{"claim": c, "evidence": writer.one(banks().reasons),
                      "kind": writer.rng.choice(["evidence", "speculation"])}
                     for c in writer.many(banks().reasons, 2, 3)],
        "alternatives": writer.many(banks().assumptions, 1, 2),
        "evidence_gaps": writer.many(banks().assumptions, 1, 2),
        "falsifiability": writer.many(banks().signals, 1, 2),
    }


def _critic(ctx: CallContext) -> dict[str, Any]:
    writer = _Writer(ctx, ctx.rng())
    levels = ["low", "medium", "high"]
    return {
        "summary": writer.one(banks().reflections),
        "risks": [{"risk": r, "challenged_assumption": writer.one(banks().assumptions),
                   "mitigation": writer.one(banks().reasons),
                   "likelihood": writer.rng.choice(levels), "impact": writer.rng.choice(levels)}
                  for r in writer.many(banks().root_causes, 2, 3)],
        "weaknesses": writer.many(banks().signals, 1, 2),
    }


def _synthesizer(ctx: CallContext) -> dict[str, Any]:
    writer = _Writer(ctx, ctx.rng())
    return {
        "summary": writer.one(banks().consensus),
        "patterns": writer.many(banks().consensus, 1, 2),
        "options": [writer.fill(s) for s in (
            writer.rng.choice(banks().stances[ctx.language]["for"]),
            writer.rng.choice(banks().stances[ctx.language]["against"]))],
        "decision_framework": [{"criterion": writer.one(banks().assumptions),
                                "favours": writer.one(banks().reasons)} for _ in range(2)],
    }


def _discussion(ctx: CallContext) -> dict[str, Any]:
    writer = _Writer(ctx, ctx.rng())
    claims: dict[str, list[str]] = ctx.hints.get("claims") or {}
    citations = []
    for role, texts in claims.items():
        for text in texts[:1]:
            citations.append({"source_role": role, "claim": text[:160],
                              "response": writer.one(banks().views)})
    while len(citations) < 2 and claims:
        role = next(iter(claims))
        texts = claims[role]
        citations.append({"source_role": role, "claim": texts[len(citations) % len(texts)][:160]
                          if texts else writer.one(banks().reasons),
                          "response": writer.one(banks().views)})
    return {
        "response": writer.one(banks().reflections),
        "citations": citations,
        "acknowledged_missed": [writer.one(banks().views)],
        "key_recommendation": _path(writer, "recommendation"),
    }


def _rebuttal(ctx: CallContext) -> dict[str, Any]:
    writer = _Writer(ctx, ctx.rng())
    return {"stance": writer.rng.choice(["concede", "justify"]),
            "argument": writer.one(banks().reasons),
            "path_forward": _path(writer, "dependencies"),
            "key_recommendation": _path(writer, "recommendation")}


def _convergence(ctx: CallContext) -> dict[str, Any]:
    rng = ctx.rng()
    writer = _Writer(ctx, rng)
    round_ = int(ctx.hints.get("round") or ctx.round or 1)
    if round_ >= 2:
        basis = rng.choice(["two_agree_third_accepts", "shared_framework", "contested_tradeoffs"])
    else:
        basis = rng.choice(["same_direction", "two_agree_third_accepts", "opposing",
                            "contested_tradeoffs", "unclear"])
    return {"basis": basis, "key_agreement": writer.one(banks().consensus),
            "remaining_tension": writer.one(banks().topics),
            "disagreement": writer.one(banks().topics)}


def _workflow_synthesis(ctx: CallContext) -> dict[str, Any]:
    writer = _Writer(ctx, ctx.rng())
    return {
        "summary": writer.one(banks().consensus),
        "consensus": writer.many(banks().consensus, 1, 3),
        "tensions": [writer.one(banks().topics)],
        "decision_framework": [{"criterion": writer.one(banks().assumptions),
                                "favours": writer.one(banks().reasons)} for _ in range(3)],
        "next_steps": writer.many(banks().signals, 2, 3),
    }


GENERATORS = {
    "Proposal": _proposal,
    "Critique": _critique,
    "AdversarialSynthesis": _adversarial_synthesis,
    "ResearcherAnalysis": _researcher,
    "CriticAnalysis": _critic,
    "SynthesizerAnalysis": _synthesizer,
    "Discussion": _discussion,
    "Rebuttal": _rebuttal,
    "ConvergenceCheck": _convergence,
    "WorkflowSynthesis": _workflow_synthesis,
}


def generate(ctx: CallContext) -> dict[str, Any]:
    """The simulated answer to one call: the council schemas' generators, then the other
    protocols', else generic valid output. The dispatch lives here, above both
    registries, so neither module imports the other back."""
    return (CORE_GENERATORS.get(ctx.schema) or GENERATORS.get(ctx.schema) or generic)(ctx)
