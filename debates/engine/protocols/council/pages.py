"""What the site's pages need to know about the council, behind its protocol's page
methods (docs/engine.md, "Protocols"): how its turns read, how its panels and
transcript sections are headed, the parts of its result that comments point at, the
passages a reader can quote, its values in words, and two runs compared item by item.
The site names none of the council's types; it calls these through the protocol."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ...i18n import option_label
from ...novelty import DEFAULT_THRESHOLD, similarity, tokens
from ...schemas import Phase, Severity
from ...state import DebateState, Step
from ..base import TOP_RISKS, AnswerFact, PageAnswer, PagePanel, ResultPart
from .change import DebateChange, describe_change
from .convergence import diagnostic_meaning
from .decision import decide
from .phases import CouncilPhase
from .report import challenge_outcome
from .schemas import (
    AgentView,
    ClusteredItem,
    DebateResult,
    Diagnostic,
    RecommendedPath,
    RiskFollowUp,
    RoundMetrics,
    TopicDisagreement,
    VerdictSplit,
)
from .state import council, step_label
from .verdicts import describe as describe_split

# Field order and labels of each of the council's turn kinds, for a reader rather
# than a parser.
TURN_FIELDS: dict[str, list[tuple[str, str]]] = {
    CouncilPhase.PREMORTEM.value: [("failure_scenario", "How it failed"),
                                   ("root_causes", "Root causes"),
                                   ("early_warning_signals", "Early warning signals")],
    CouncilPhase.POSITION.value: [("stance", "Stance"), ("confidence", "Confidence"),
                                  ("reasoning", "Reasoning"),
                                  ("key_assumptions", "Key assumptions")],
    CouncilPhase.CROSS_EXAM.value: [("updated_position", "Updated position"),
                                    ("updated_confidence", "Updated confidence"),
                                    ("concessions", "Concessions"),
                                    ("remaining_disagreements", "Remaining disagreements"),
                                    ("new_evidence_needed", "New evidence needed"),
                                    ("reflection", "Reflection")],
    CouncilPhase.CHALLENGE_ANSWER.value: [("verdict", "Verdict"), ("confidence", "Confidence"),
                                          ("answers", "Answers to the attacks"),
                                          ("concession", "Concession")],
}

# Steps whose label alone would read badly as a heading.
_TITLES = {"premortem": "Premortem", "position": "Positions (round 0)",
           "challenge_answer": "Answers to the devil's advocate (deep mode)"}


def turn_summary(phase: str, payload: dict[str, Any]) -> str:
    if phase == CouncilPhase.POSITION.value:
        return str(payload.get("stance", ""))
    if phase == CouncilPhase.CROSS_EXAM.value:
        return str(payload.get("updated_position") or payload.get("reflection") or "")
    if phase == CouncilPhase.PREMORTEM.value:
        return str(payload.get("failure_scenario", ""))
    if phase == CouncilPhase.CHALLENGE_ANSWER.value:
        return str(payload.get("concession") or "; ".join(payload.get("answers") or []))
    if phase == Phase.SYNTHESIS.value:
        path = payload.get("recommended_path") or payload.get("divergence_report") or {}
        if isinstance(path, dict):
            return str(path.get("recommendation") or path.get("summary") or "")
    return ""


# The objects the council's synthesis turns nest, as the models they were stored from.
_PayloadItem = TopicDisagreement | AgentView | RiskFollowUp
_PAYLOAD_ITEMS: tuple[type[_PayloadItem], ...] = (TopicDisagreement, AgentView, RiskFollowUp)


def payload_item_text(value: dict[str, Any], t: Callable[..., str]) -> str | None:
    """A nested payload object read through the model it was stored from (they forbid
    unknown fields, so at most one fits); None for any other object."""
    for model in _PAYLOAD_ITEMS:
        try:
            return _item_text(model.model_validate(value), t)
        except ValidationError:
            continue
    return None


def _item_text(item: _PayloadItem, t: Callable[..., str]) -> str:
    if isinstance(item, TopicDisagreement):
        return f"{item.topic}: {'; '.join(_item_text(v, t) for v in item.views)}"
    if isinstance(item, AgentView):
        return f"{item.agent}: {item.view}"
    note = f": {item.note}" if item.note else ""
    return f"{item.risk_id} {t(f'follow.{item.status.value}')}{note}"


def page_panel(state: DebateState, step: Step) -> PagePanel:
    label = step_label(step)
    return PagePanel(key=label.replace(" ", "-"), title=_TITLES.get(label, label.capitalize()),
                     expected=len(council(state).active_agents(step)),
                     measured=step.phase in (CouncilPhase.POSITION, CouncilPhase.CROSS_EXAM))


def composed_personas(phase: str, payload: dict[str, Any]) -> list[dict[str, Any]]:
    if phase != CouncilPhase.COMPOSE.value:
        return []
    return [p for p in payload.get("personas", []) if isinstance(p, dict)]


def transcript_title(step: Step) -> str:
    if step.phase is CouncilPhase.COMPOSE:
        return "Compose: the panel"
    label = step_label(step)
    if step.phase is CouncilPhase.CROSS_EXAM:
        return f"Cross-examination, {label}"
    return _TITLES.get(label, "")


# ------------------------------------------------------------------ the result's parts


def claim_ref(index: int) -> str:
    """The id of the verifier's ``index``-th claim (0-based): V1, V2 ... in the order
    the synthesis lists them, as risks are R1, R2 ..."""
    return f"V{index + 1}"


def _recommendation_parts(path: RecommendedPath) -> Iterator[ResultPart]:
    """The recommendation itself first, then what it rests on."""
    names = ["recommendation", *(n for n in RecommendedPath.model_fields
                                 if n != "recommendation")]
    for name in names:
        value = getattr(path, name)
        text = "; ".join(value) if isinstance(value, list) else str(value)
        yield ResultPart("recommendation", name, text)


def result_parts(result: BaseModel) -> list[ResultPart]:
    """The recommendation (as a whole, "recommendation", and each of its parts by
    field name), the risks (R1 ...), concerns (C1 ...), disagreements (by index) and
    claims to verify (V1 ...), in the order the result page shows them."""
    assert isinstance(result, DebateResult)
    parts: list[ResultPart] = []
    if result.recommended_path is not None:
        parts += _recommendation_parts(result.recommended_path)
    parts += [ResultPart("risk", r.id, r.text) for r in result.pre_positional_risks]
    parts += [ResultPart("concern", c.id, c.text) for c in result.post_positional_concerns]
    parts += [ResultPart("disagreement", str(i), d.topic)
              for i, d in enumerate(result.disagreements)]
    parts += [ResultPart("claim", claim_ref(i), c.quote)
              for i, c in enumerate(result.unverified_claims)]
    return parts


def quote_passages(result: BaseModel) -> list[tuple[object, str]]:
    """Every passage of the council's result page a reader can quote, in page order;
    the council's result partial marks the same ones ``data-passage``."""
    assert isinstance(result, DebateResult)
    return list(_passages(result))


def _passages(result: DebateResult) -> Iterator[tuple[object, str]]:
    if (p := result.recommended_path) is not None:
        yield from ((p.recommendation, "block"), (p.stakes, "block"),
                    (p.strongest_evidence, "block"), (p.weakest_evidence, "block"))
        yield from ((d, "inline") for d in (*p.path_dependencies, *p.risks))
    if (d := result.divergence_report) is not None:
        yield d.summary, "block"
        yield from ((camp.view, "block") for camp in d.camps)
        yield from ((x, "inline") for x in d.what_would_resolve_it)
    yield from ((r.text, "inline") for r in result.pre_positional_risks)
    yield from ((c.text, "inline") for c in result.post_positional_concerns)
    for topic in result.disagreements:
        yield topic.topic, "plain"
        yield from ((v.view, "block") for v in topic.views)
    yield from ((c, "inline") for c in result.consensus_points)
    for agent in result.agents:
        yield from ((x, "inline") for x in agent.key_assumptions)
    yield from ((c.quote, "plain") for c in result.unverified_claims)


# ------------------------------------------------------------------ the answer

_GRAVITY = {Severity.HIGH: 0, Severity.MEDIUM: 1, Severity.LOW: 2}


def top_risks(result: DebateResult) -> list[str]:
    """The gravest risks first (the premortem's, by severity, then as the synthesis
    listed them), else the recommended path's own; at most ``TOP_RISKS``."""
    ranked = sorted(result.pre_positional_risks,
                    key=lambda r: _GRAVITY.get(r.severity, 3) if r.severity else 3)
    texts = [r.text for r in ranked]
    if not texts and result.recommended_path is not None:
        texts = list(result.recommended_path.risks)
    return texts[:TOP_RISKS]


def page_answer(result: BaseModel, words: Callable[..., str]) -> PageAnswer:
    """The council's answer: its recommendation (or, split, what divides the panel), the
    independent vote of the first positions, what cross-examination did to it, and the
    gravest risks. A fact appended here (the decision rule, docs/protocols.md 1.9)
    takes its place in the page's block with no template change."""
    assert isinstance(result, DebateResult)
    facts: list[AnswerFact] = []
    if result.verdicts_before is not None:
        facts.append(AnswerFact("vote", words("answer.vote"),
                                describe_split(result.verdicts_before, words),
                                why=words("answer.vote_why")))
    change = result.debate_change
    if change is not None and change.rounds and result.verdicts_after is not None:
        facts.append(AnswerFact(
            "change", words("change.title"),
            words(f"answer.change.{change.outcome.value}",
                  final=describe_split(result.verdicts_after, words)),
            why=describe_change(change, words)))
    facts += decision_facts(result, words)
    facts += challenge_facts(result, words)
    path, report = result.recommended_path, result.divergence_report
    if path is not None:
        title, text = words("answer.decision"), path.recommendation
    else:
        title, text = words("answer.no_decision"), report.summary if report else ""
    return PageAnswer(title=title, text=text, facts=facts,
                      risks_title=words("answer.risks"), risks=top_risks(result))


def decision_facts(result: DebateResult, words: Callable[..., str]) -> list[AnswerFact]:
    """Which vote the recommendation follows (``answer-rule``) and, when the debate
    overturned the independent vote, who moved and why (``answer-overturn``: the movers
    in the text, their concessions behind "why"), in the page's language
    (docs/protocols.md 1.9, "The decision rule")."""
    decision = decide(result.decision_rule, result.decision_rule_source, result.options,
                      result.independent_vote, result.final_vote,
                      [(a.initial_verdict, a.initial_confidence) for a in result.agents],
                      words)
    facts = [AnswerFact("rule", words("decision.title"), decision.words)]
    if result.overturned:
        moved, reasons = [], []
        for m in result.overturn_movers:
            to = option_label(m.to_verdict, words) if m.to_verdict else "–"
            line = words("overturn.mover", agent=m.agent,
                         from_=option_label(m.from_verdict, words), to=to)
            moved.append(line)
            reasons.append(f"{m.agent}: " + (" · ".join(m.concessions)
                                              or words("overturn.no_concession")))
        facts.append(AnswerFact("overturn", words("overturn.title"), "; ".join(moved),
                                why="; ".join(reasons)))
    return facts


def challenge_facts(result: DebateResult, words: Callable[..., str]) -> list[AnswerFact]:
    """Deep mode's challenge (``answer-challenge``, docs/protocols.md 1.7a): whether the
    leading view survived the devil's advocate, or why none ran; who moved and what
    moved them behind "why"."""
    challenge = result.challenge
    if challenge is None:
        return []
    reasons = []
    for r in challenge.movers:
        to = option_label(r.verdict_after, words) if r.verdict_after else "–"
        mover = words("overturn.mover", agent=r.agent,
                      from_=option_label(r.verdict_before or "–", words), to=to)
        reasons.append(f"{mover}: {r.concession or words('overturn.no_concession')}")
    return [AnswerFact("challenge", words("challenge.title"),
                       challenge_outcome(challenge, words), why="; ".join(reasons))]


# ------------------------------------------------------------------ values in words


def page_words(words: Callable[..., str]) -> dict[str, Callable[..., str]]:
    """A verdict split ("4 of 5 for, 1 conditional"; "–" for none), what the debate
    changed ("" for none) and what a diagnostic means, in ``words``' language."""

    def split(value: object) -> str:
        return "–" if value is None else describe_split(VerdictSplit.model_validate(value),
                                                        words)

    def change(value: object) -> str:
        return describe_change(DebateChange.model_validate(value), words) if value else ""

    def meaning(value: object) -> str:
        return diagnostic_meaning(Diagnostic.model_validate(value), words)

    return {"split": split, "change": change, "meaning": meaning}


# ------------------------------------------------------------------ two runs compared

T = TypeVar("T")


def only_in(items: Sequence[T], others: Sequence[T], text: Callable[[T], str],
            threshold: float = DEFAULT_THRESHOLD) -> list[T]:
    """The items with no near-duplicate among ``others`` (two runs never word the same
    risk alike, so items are matched by the engine's near-duplicate similarity)."""
    other_tokens = [tokens(text(o)) for o in others]
    return [item for item in items
            if not any(similarity(tokens(text(item)), t) >= threshold for t in other_tokens)]


@dataclass(frozen=True)
class Side:
    risks: list[ClusteredItem]
    concerns: list[ClusteredItem]
    disagreements: list[TopicDisagreement]
    consensus: list[str]

    @property
    def empty(self) -> bool:
        return not (self.risks or self.concerns or self.disagreements or self.consensus)


@dataclass(frozen=True)
class MetricRow:
    round: int
    a: RoundMetrics | None
    b: RoundMetrics | None


@dataclass(frozen=True)
class VerdictMove:
    """How one run's verdict split moved from round 0 to the end, in words."""

    before: str
    after: str
    agreement_before: float | None
    agreement_after: float | None


@dataclass(frozen=True)
class Comparison:
    only_a: Side
    only_b: Side
    metrics: list[MetricRow]
    verdicts_a: VerdictMove
    verdicts_b: VerdictMove


def verdict_move(result: DebateResult, words: Callable[..., str]) -> VerdictMove:
    """In ``words``' language; "–" for a run stored before verdicts."""

    def said(split: VerdictSplit | None) -> str:
        return describe_split(split, words) if split else "–"

    before, after = result.verdicts_before, result.verdicts_after
    return VerdictMove(before=said(before), after=said(after),
                       agreement_before=before.agreement if before else None,
                       agreement_after=after.agreement if after else None)


def _side(x: DebateResult, y: DebateResult) -> Side:
    def text(i: ClusteredItem) -> str:
        return i.text

    def topic_text(d: TopicDisagreement) -> str:
        return d.topic

    return Side(
        risks=only_in(x.pre_positional_risks, y.pre_positional_risks, text),
        concerns=only_in(x.post_positional_concerns, y.post_positional_concerns, text),
        disagreements=only_in(x.disagreements, y.disagreements, topic_text),
        consensus=only_in(x.consensus_points, y.consensus_points, str),
    )


def compare_results(a: BaseModel, b: BaseModel,
                    words_in: Callable[[str], Callable[..., str]]) -> Comparison:
    """What each of two council results found that the other did not, the metrics
    round by round and how the verdicts moved (each run in its own language, through
    ``words_in(language)``)."""
    assert isinstance(a, DebateResult) and isinstance(b, DebateResult)
    rounds = max(len(a.metrics), len(b.metrics))
    by_a = {m.round: m for m in a.metrics}
    by_b = {m.round: m for m in b.metrics}
    return Comparison(
        only_a=_side(a, b), only_b=_side(b, a),
        metrics=[MetricRow(r, by_a.get(r), by_b.get(r)) for r in range(rounds)],
        verdicts_a=verdict_move(a, words_in(a.language)),
        verdicts_b=verdict_move(b, words_in(b.language)),
    )
