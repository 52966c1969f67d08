"""The simulated model's answers to the adversarial protocol's schemas: a proposer
that revises its version and replies to review points, a critic that resolves most
earlier issues and raises fewer new ones each round (so a run converges in a few
rounds), a synthesis of the decisions. Deterministic from the call seed.

Registered with the simulator by the engine's plugins; the wording and the writer
come through the call's context, so nothing here imports the simulator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .labels import known_or_as_is, labels
from .schemas import AdversarialSynthesis, Critique, Proposal

if TYPE_CHECKING:
    from ...sim.generate import CallContext, Generator


def _focus(ctx: CallContext) -> list[str]:
    return [str(f) for f in ctx.hints.get("focus_areas") or []] or ["soundness", "risks"]


def _proposal(ctx: CallContext) -> dict[str, Any]:
    writer = ctx.writer(ctx.rng())
    t = labels(ctx.language)
    round_ = int(ctx.hints.get("round") or ctx.round or 1)
    replies = [{"issue_id": str(i), "reply": writer.one(ctx.banks.reasons)}
               for i in ctx.hints.get("issue_ids") or []]
    body = [t("adv.sim.version", n=round_)] + writer.many(ctx.banks.reasons, 3, 5)
    body += [t("adv.sim.assumptions",
               items="; ".join(writer.many(ctx.banks.assumptions, 1, 2)))]
    return {
        "summary": writer.one(ctx.banks.reasons) if round_ == 1 else
        t("adv.sim.revised", n=len(replies), reason=writer.one(ctx.banks.reasons)),
        "replies": replies,
        "proposal": "\n\n".join(body),
    }


def _critique(ctx: CallContext) -> dict[str, Any]:
    rng = ctx.rng()
    writer = ctx.writer(rng)
    round_ = int(ctx.hints.get("round") or ctx.round or 1)
    focus = _focus(ctx)
    resolutions, issues = [], []
    for item in ctx.hints.get("open_issues") or []:
        chance = {"green": 0.8, "yellow": 0.6, "red": 0.5}[item["severity"]] + 0.1 * round_
        resolved = rng.random() < chance
        resolutions.append({"id": item["id"], "resolved": resolved,
                            "note": writer.one(ctx.banks.reflections)})
        if not resolved:
            issues.append({"id": item["id"], "severity": item["severity"],
                           "title": item["title"], "detail": writer.one(ctx.banks.root_causes),
                           "suggested_fix": writer.one(ctx.banks.reasons)})
    if round_ <= 1:
        wanted = ["red"] * rng.randint(1, 2) + ["yellow"] * rng.randint(2, 3) + \
            ["green"] * rng.randint(1, 2)
    else:
        wanted = [s for s, p in (("red", 0.15 / round_), ("yellow", 0.35 / round_),
                                 ("green", 0.5)) if rng.random() < p]
    start = int(ctx.hints.get("issue_count") or 0)
    for n, severity in enumerate(wanted):
        # The focus areas come as the domain names them (English): the title is the
        # critic's own words, in the debate's language.
        focus_area = focus[(start + n) % len(focus)]
        area = known_or_as_is(ctx.language, f"dom.focus.{focus_area}", focus_area)
        aspect = rng.choice(ctx.banks.aspects[ctx.language])
        issues.append({"id": None, "severity": severity,
                       "title": writer.cap(f"{area}: {aspect}"),
                       "detail": writer.one(ctx.banks.root_causes),
                       "suggested_fix": writer.one(ctx.banks.reasons)})
    counts = {s: sum(1 for i in issues if i["severity"] == s) for s in ("red", "yellow", "green")}
    return {"assessment": writer.one(ctx.banks.reflections), "resolutions": resolutions,
            "issues": issues, "claimed_counts": counts}


def _adversarial_synthesis(ctx: CallContext) -> dict[str, Any]:
    writer = ctx.writer(ctx.rng())
    known_risk = labels(ctx.language)("adv.sim.known_risk")
    issues = ctx.hints.get("issues") or []
    final = str(ctx.hints.get("final_proposal") or writer.one(ctx.banks.reasons))
    decisions = [{"issue": f"[{i['id']}] {i['title']}",
                  "decision": known_risk if i["open"] else str(i["fix"]),
                  "rationale": writer.one(ctx.banks.reasons)} for i in issues[:6]]
    risks = [f"[{i['id']}] {i['title']}" for i in issues if i["open"]]
    risks.append(writer.one(ctx.banks.root_causes))
    return {"final_solution": final, "key_decisions": decisions, "remaining_risks": risks}

GENERATORS: dict[type, Generator] = {
    Proposal: _proposal,
    Critique: _critique,
    AdversarialSynthesis: _adversarial_synthesis,
}
