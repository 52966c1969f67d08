"""The simulated model's answers to the council's schemas: a panel composed for the
question, premortems, positions that lean for / against / conditional, cross-
examinations that mostly restate their earlier points (citing the ids they were
shown), a synthesis and a verifier report.

Registered with the simulator by the engine's plugins (``register_sim_generators``);
the wording and the writer come through the call's context, so nothing here imports
the simulator.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...language import detect_language
from ...options import CONDITIONAL, YES_NO, options_from_question
from ...schemas import JudgeGrade, VerifierReport
from .schemas import (
    Challenge,
    ChallengeAnswer,
    ComposedPanel,
    CrossExamination,
    Position,
    Premortem,
    SynthesisNarrative,
)

if TYPE_CHECKING:
    from ...sim.generate import CallContext, Generator

# Sentences are joined without a space in these languages.
_UNSPACED = frozenset({"zh", "ja"})
_LIST_JOINER = {"zh": "、", "ja": "、"}
_PLACEHOLDER_NAMES = {
    "en": ["Panelist A", "Panelist B"],
    "zh": ["专家甲", "专家乙"],
    "ja": ["委員A", "委員B"],
    "ko": ["패널 A", "패널 B"],
    "fr": ["Panéliste A", "Panéliste B"],
    "de": ["Diskutant A", "Diskutant B"],
}


def _compose(ctx: CallContext) -> dict[str, Any]:
    rng = ctx.rng()
    writer = ctx.writer(rng)
    people = ctx.people
    n = int(ctx.hints.get("n") or 5)
    n = max(1, min(n, 24))
    reserved = {str(name).strip().lower() for name in ctx.hints.get("reserved_names") or []}

    names: list[str] = []
    if ctx.script:
        names = [a.name for a in ctx.script.agents if a.name.lower() not in reserved][:n]
    taken = reserved | {name.lower() for name in names}
    while len(names) < n:
        if ctx.language == "zh":
            name = rng.choice(people.zh_surname) + rng.choice(people.zh_given)
        elif ctx.language == "en":
            name = f"{rng.choice(people.en_first)} {rng.choice(people.en_last)}"
        else:
            parts = people.names[ctx.language]
            name = parts.compose(rng.choice(parts.first), rng.choice(parts.last))
        if name.lower() not in taken:
            taken.add(name.lower())
            names.append(name)

    skeptic = next(a for a in people.archetypes if a.kind == "skeptic")
    frames = [a for a in people.archetypes if a.kind == "frame"]
    frame = rng.choice(frames)
    others = [a for a in people.archetypes if a is not skeptic and a is not frame]
    rng.shuffle(others)
    chosen = [skeptic, frame, *others][:n] if n >= 2 else [skeptic]
    while len(chosen) < n:
        chosen.append(others[len(chosen) % len(others)])
    rng.shuffle(chosen)

    personas = []
    for name, archetype in zip(names, chosen, strict=True):
        slots = writer.slots()
        personas.append(
            {
                "name": name,
                "background": archetype.background[ctx.language],
                "expertise": archetype.expertise[ctx.language],
                "approach": writer.fill(archetype.approach[ctx.language], slots),
                "bias": writer.fill(archetype.bias[ctx.language], slots),
            }
        )
    # The options are "extracted" from the question as code would: the simulator has
    # no reading of its own to add.
    return {"personas": personas, "options": options_from_question(ctx.question)}


def _options(ctx: CallContext) -> list[str]:
    given = [str(o) for o in ctx.hints.get("options") or [] if str(o).strip()]
    return given if len(given) >= 2 else list(YES_NO)


def _verdict_for(lean: str, options: list[str]) -> str:
    """The option an agent leaning ``lean`` (for / against / conditional) picks."""
    if lean in options:
        return lean
    conditional = next((o for o in options if o.casefold() == CONDITIONAL), options[-1])
    named = [o for o in options if o != conditional] or options
    if lean == "conditional":
        return conditional
    return named[0] if lean == "for" else named[min(1, len(named) - 1)]


def _lean_of(verdict: str, options: list[str]) -> str:
    """The stance wording that fits a verdict: the inverse of ``_verdict_for``."""
    for lean in YES_NO:
        if _verdict_for(lean, options) == verdict:
            return lean
    return "against"


def _premortem(ctx: CallContext) -> dict[str, Any]:
    writer = ctx.writer(ctx.rng())
    slots = writer.slots()
    scenario_parts = [
        writer.fill(writer.rng.choice(ctx.banks.premortem_open[ctx.language]), slots),
        writer.fill(writer.rng.choice(ctx.banks.premortem_middle[ctx.language]), slots),
        writer.fill(writer.rng.choice(ctx.banks.premortem_close[ctx.language]), slots),
    ]
    joiner = "" if ctx.language in _UNSPACED else " "
    return {
        "failure_scenario": joiner.join(scenario_parts),
        "root_causes": writer.many(ctx.banks.root_causes, 2, 4),
        "early_warning_signals": writer.many(ctx.banks.signals, 1, 3),
    }


def _position(ctx: CallContext) -> dict[str, Any]:
    rng = ctx.rng()
    writer = ctx.writer(rng)
    options = _options(ctx)
    lean = ctx.agent_rng("lean").choice(["for", "against", "conditional"])
    verdict = _verdict_for(lean, options)
    confidence = round(rng.uniform(0.35, 0.85), 2)
    scripted = ctx.script.agent(ctx.agent_name) if ctx.script else None
    if scripted and scripted.position_confidence is not None:
        confidence = scripted.position_confidence
    if scripted:
        verdict = scripted.position_verdict or options[0]
        lean = _lean_of(verdict, options)
    stance = writer.fill(rng.choice(ctx.banks.stances[ctx.language][lean]))
    if scripted and scripted.position_stance:
        stance = scripted.position_stance
    return {
        "stance": stance,
        "verdict": verdict,
        "reasoning": writer.many(ctx.banks.reasons, 2, 4),
        "confidence": confidence,
        "key_assumptions": writer.many(ctx.banks.assumptions, 1, 3),
    }


_Item = tuple[int, dict[str, str]]  # (claim index in its bank, slot values)


def _fresh_items(
    ctx: CallContext,
    rng: random.Random,
    bank: Mapping[str, list[list[str]]],
    k: int,
    exclude: set[int],
) -> list[_Item]:
    claims = [i for i in range(len(bank[ctx.language])) if i not in exclude]
    writer = ctx.writer(rng)
    return [(i, writer.slots()) for i in rng.sample(claims, min(k, len(claims)))]


def _exam_items(ctx: CallContext, round_: int) -> dict[str, list[_Item]]:
    """Round r's items: round 1 fresh; later rounds mostly round r-1's claims again."""
    rng = ctx.agent_rng("exam-items", round_)
    if round_ <= 1:
        return {
            "remaining_disagreements": _fresh_items(
                ctx, rng, ctx.banks.disagreements, rng.randint(1, 3), set()
            ),
            "concessions": _fresh_items(ctx, rng, ctx.banks.concessions, rng.randint(0, 2), set()),
            "new_evidence_needed": _fresh_items(
                ctx, rng, ctx.banks.evidence, rng.randint(0, 2), set()
            ),
        }
    previous = _exam_items(ctx, round_ - 1)
    novelty = max(0.0, 0.35 - 0.15 * (round_ - 1))
    disagreements = [item for item in previous["remaining_disagreements"] if rng.random() < 0.85]
    if not disagreements and previous["remaining_disagreements"]:
        disagreements = previous["remaining_disagreements"][:1]
    if rng.random() < novelty:
        used = {i for i, _ in disagreements}
        disagreements += _fresh_items(ctx, rng, ctx.banks.disagreements, 1, used)
    concessions = previous["concessions"][:1] if rng.random() < 0.12 else []
    evidence = [item for item in previous["new_evidence_needed"] if rng.random() < 0.6]
    if rng.random() < novelty / 3:
        used = {i for i, _ in evidence}
        evidence += _fresh_items(ctx, rng, ctx.banks.evidence, 1, used)
    return {
        "remaining_disagreements": disagreements,
        "concessions": concessions,
        "new_evidence_needed": evidence,
    }


def _render_one(
    ctx: CallContext, item: _Item, bank: Mapping[str, list[list[str]]], round_: int
) -> str:
    index, slots = item
    variants = bank[ctx.language][index]
    # A different phrasing each round: the claim is old, the words are not.
    text = variants[(round_ - 1 + index) % len(variants)].format(**slots)
    return ctx.styled(text)


def _render_items(
    ctx: CallContext, items: list[_Item], bank: Mapping[str, list[list[str]]], round_: int
) -> list[str]:
    """The items in this round's words; one the agent wrote in an earlier round cites
    the id of the point its earlier words went to (``point_ids`` hint: text -> id), as
    a model following the prompt would."""
    point_ids = ctx.hints.get("point_ids") or {}
    rendered = []
    for item in items:
        text = _render_one(ctx, item, bank, round_)
        for earlier in range(round_ - 1, 0, -1):
            point_id = point_ids.get(_render_one(ctx, item, bank, earlier))
            if point_id:
                text = f"[{point_id}] {text}"
                break
        rendered.append(text)
    return rendered


def _cross_exam(ctx: CallContext) -> dict[str, Any]:
    rng = ctx.rng()
    writer = ctx.writer(rng)
    round_ = int(ctx.hints.get("round") or ctx.round or 1)
    reflection = writer.one(ctx.banks.reflections)

    scripted = ctx.script.agent(ctx.agent_name) if ctx.script else None
    if scripted is not None:
        step = scripted.rounds[round_ - 1] if 0 < round_ <= len(scripted.rounds) else None
        if step is None:
            return {
                "concessions": [],
                "remaining_disagreements": [],
                "updated_position": None,
                "updated_verdict": None,
                "updated_confidence": None,
                "reflection": reflection,
                "new_evidence_needed": [],
            }
        return {
            "concessions": list(step.concessions),
            "remaining_disagreements": list(step.remaining_disagreements),
            "updated_position": step.updated_position,
            "updated_verdict": step.updated_verdict,
            "updated_confidence": step.updated_confidence,
            "reflection": step.reflection or reflection,
            "new_evidence_needed": list(step.new_evidence_needed),
        }

    own = ctx.hints.get("own_confidence")
    peer_mean = ctx.hints.get("peer_mean")
    confidence: float | None
    if rng.random() < 0.2:
        confidence = None
    elif isinstance(own, int | float) and isinstance(peer_mean, int | float):
        pull = rng.uniform(0.3, 0.7)
        confidence = own + (peer_mean - own) * pull + rng.uniform(-0.02, 0.02)
        confidence = round(_clamp(confidence, 0.05, 0.95), 2)
    elif isinstance(own, int | float):
        confidence = round(_clamp(own + rng.uniform(-0.05, 0.05), 0.05, 0.95), 2)
    else:
        confidence = round(rng.uniform(0.4, 0.8), 2)

    updated_position = updated_verdict = None
    if confidence is not None and isinstance(own, int | float) and abs(confidence - own) > 0.08:
        updated_position = writer.one(ctx.banks.updated_positions)
        # Moved toward the peers far enough to restate the position: most such agents
        # also come round to the peers' leading verdict.
        peer_verdict = ctx.hints.get("peer_verdict")
        if (peer_verdict in _options(ctx) and peer_verdict != ctx.hints.get("own_verdict")
                and rng.random() < 0.7):
            updated_verdict = peer_verdict

    items = _exam_items(ctx, round_)
    return {
        "concessions": _render_items(ctx, items["concessions"], ctx.banks.concessions, round_),
        "remaining_disagreements": _render_items(
            ctx, items["remaining_disagreements"], ctx.banks.disagreements, round_
        ),
        "updated_position": updated_position,
        "updated_verdict": updated_verdict,
        "updated_confidence": confidence,
        "reflection": reflection,
        "new_evidence_needed": _render_items(
            ctx, items["new_evidence_needed"], ctx.banks.evidence, round_
        ),
    }


def _challenge(ctx: CallContext) -> dict[str, Any]:
    """The devil's advocate: two or three attacks on the target verdict."""
    writer = ctx.writer(ctx.rng())
    options = _options(ctx)
    target = str(ctx.hints.get("target") or options[0])
    claims = writer.many(ctx.banks.reasons, 2, 3)
    return {"target_verdict": target,
            "attacks": [{"claim": claim, "would_have_to_be_true": writer.one(ctx.banks.assumptions)}
                        for claim in claims]}


def _challenge_answer(ctx: CallContext) -> dict[str, Any]:
    """An agent's answer: a scripted one as written; otherwise it holds its verdict
    (one in seven comes round to another option, conceding), a little less sure."""
    rng = ctx.rng()
    writer = ctx.writer(rng)
    options = _options(ctx)
    own = ctx.hints.get("own_verdict")
    verdict = own if own in options else options[0]
    own_confidence = ctx.hints.get("own_confidence")
    confidence = float(own_confidence) if isinstance(own_confidence, int | float) else 0.6
    answers = [writer.one(ctx.banks.reflections)
               for _ in range(max(1, int(ctx.hints.get("attacks") or 1)))]
    scripted = ctx.script.agent(ctx.agent_name) if ctx.script else None
    concession = None
    if scripted is not None:
        if scripted.challenge is not None:
            verdict = scripted.challenge.verdict or verdict
            if scripted.challenge.confidence is not None:
                confidence = scripted.challenge.confidence
            concession = scripted.challenge.concession
    elif rng.random() < 1 / 7:
        verdict = next((o for o in options if o != verdict), verdict)
        concession = writer.one(ctx.banks.views)
    else:
        confidence = round(_clamp(confidence - rng.uniform(0.0, 0.08), 0.05, 0.95), 2)
    if verdict != own and concession is None and scripted is None:
        concession = writer.one(ctx.banks.views)
    return {"verdict": verdict, "confidence": confidence, "answers": answers,
            "concession": concession}


def _synthesis(ctx: CallContext) -> dict[str, Any]:
    rng = ctx.rng()
    writer = ctx.writer(rng)
    lang = ctx.language
    names = [str(n) for n in ctx.hints.get("agent_names") or [] if str(n).strip()]
    if not names:
        names = list(_PLACEHOLDER_NAMES[lang])
    risk_ids = [str(r) for r in ctx.hints.get("risk_ids") or []]

    disagreements = []
    for topic in rng.sample(ctx.banks.topics[lang], rng.randint(1, 2)):
        speakers = rng.sample(names, min(len(names), rng.randint(2, 3)))
        disagreements.append(
            {
                "topic": writer.fill(topic),
                "views": [{"agent": who, "view": writer.one(ctx.banks.views)} for who in speakers],
            }
        )

    statuses = ["mitigated", "partially", "open"]
    follow_up = []
    for risk_id in risk_ids:
        status = rng.choice(statuses)
        follow_up.append(
            {
                "risk_id": risk_id,
                "status": status,
                "note": writer.fill(ctx.banks.follow_up_notes[lang][status]),
            }
        )

    recommended_path = None
    divergence_report = None
    if ctx.hints.get("stop_reason") == "genuine_disagreement":
        div = ctx.banks.divergence[lang]
        joiner = _LIST_JOINER.get(lang, ", ")
        half = max(1, len(names) // 2)
        camps = [{"agent": joiner.join(names[:half]), "view": writer.fill(div["camp"][0])}]
        if names[half:]:
            camps.append({"agent": joiner.join(names[half:]), "view": writer.fill(div["camp"][1])})
        divergence_report = {
            "summary": writer.fill(rng.choice(div["summary"])),
            "camps": camps,
            "what_would_resolve_it": [writer.fill(t) for t in rng.sample(div["resolve"], 2)],
        }
    else:
        path = ctx.banks.path[lang]
        recommended_path = {
            "stakes": writer.fill(rng.choice(path["stakes"])),
            "strongest_evidence": writer.fill(rng.choice(path["strongest"])),
            "weakest_evidence": writer.fill(rng.choice(path["weakest"])),
            "path_dependencies": [writer.fill(t) for t in rng.sample(path["dependencies"], 2)],
            "recommendation": (ctx.script.recommendation if ctx.script and
                               ctx.script.recommendation else
                               writer.fill(rng.choice(path["recommendation"]))),
            "risks": [writer.fill(t) for t in rng.sample(path["risks"], 2)],
        }

    missing = ctx.script.synthesis_without_decision if ctx.script else None
    if missing == "always" or (missing == "first" and not ctx.shown_reply):
        recommended_path = divergence_report = None
    return {
        "consensus_points": writer.many(ctx.banks.consensus, 1, 3),
        "disagreements": disagreements,
        "recommended_path": recommended_path,
        "divergence_report": divergence_report,
        "risk_follow_up": follow_up,
    }


_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")


def _verify(ctx: CallContext) -> dict[str, Any]:
    rng = ctx.rng()
    text = str(ctx.hints.get("text") or "")
    language = detect_language(text) if text else ctx.language
    if language not in ctx.languages:
        language = ctx.language
    candidates: list[str] = []
    for match in _SENTENCE.finditer(text):
        sentence = match.group(0).strip()
        if len(sentence) < 12:
            continue
        quote = sentence if len(sentence) <= 90 else sentence[:90].rsplit(" ", 1)[0]
        if quote and quote in text:
            candidates.append(quote)
    checkable = [c for c in candidates if re.search(r"\d|%|\$|€|¥|needs verification|需要核实", c)]
    pool = checkable or candidates
    k = min(len(pool), rng.randint(0, 2))
    claims = []
    for quote in rng.sample(pool, k):
        why = ctx.banks.verifier_why[language]
        claims.append({"quote": quote, "type": _claim_type(quote), "why": why})
    return {"claims": claims}


def _claim_type(quote: str) -> str:
    if re.search(r"[$€£¥]|\bprice|\bcost", quote, re.I):
        return "price"
    if re.search(r"\d+(\.\d+)?\s*%|percent|\d", quote):
        return "date" if re.search(r"\b(19|20)\d\d\b", quote) else "statistic"
    if re.search(r"availab|exists|registered", quote, re.I):
        return "availability"
    return "other"


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def _judge(ctx: CallContext) -> dict[str, Any]:
    # The simulator's synthesis is written to be read: the judge finds it good.
    writer = ctx.writer(ctx.rng())
    return {"grade": "good", "reason": writer.one(ctx.banks.reasons)}


GENERATORS: dict[type, Generator] = {
    ComposedPanel: _compose,
    Premortem: _premortem,
    Position: _position,
    CrossExamination: _cross_exam,
    Challenge: _challenge,
    ChallengeAnswer: _challenge_answer,
    SynthesisNarrative: _synthesis,
    VerifierReport: _verify,
    JudgeGrade: _judge,
}
