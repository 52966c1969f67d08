"""What the debate page shows, computed from a debate loaded by
``selectors.debate_detail`` (no further queries).

The live page and the websocket consumer both render from ``debate_page``, so a
page updated by the consumer ends up exactly like a fresh load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from debates.engine import (
    ENGLISH,
    DebateProtocol,
    DebateState,
    PageAnswer,
    Participant,
    Phase,
    QualityReason,
    Translator,
    TurnStatus,
    UnverifiedClaim,
    get_protocol,
    known_protocols,
    step_words,
    translator,
)
from debates.models import Debate, DebateEvent, DebateStatus
from debates.page_words import PageWords, plain_outcome
from debates.runtime.state_rows import load_state
from debates.selectors import debate_result
from debates.web.charts import Chart, convergence_chart

StepState = Literal["done", "running", "pending", "failed", "cancelled", "skipped"]


# A composed persona's fields, for a reader rather than a parser; the order and labels
# of a protocol's own turns are its own (``DebateProtocol.turn_field_labels``).
PERSONA_FIELDS = [("expertise", "Expertise"), ("background", "Background"),
                  ("approach", "Approach"), ("bias", "Bias on this question")]


@dataclass
class StepView:
    key: str
    label: str
    state: StepState


@dataclass
class TurnField:
    label: str
    text: str | None = None
    items: list[str] | None = None
    number: str | None = None
    key: str = ""  # the payload's field name: pages translate it as "field.<key>"


@dataclass
class TurnView:
    agent_index: int
    agent_name: str
    ok: bool
    error: str = ""
    fields: list[TurnField] = field(default_factory=list)
    summary: str = ""
    # The content checks' reasons that name this turn (the transcript's markers).
    quality_marks: list[QualityReason] = field(default_factory=list)


@dataclass
class PanelView:
    key: str
    title: str
    state: StepState
    expected: int
    turns: list[TurnView]
    metric: Any = None  # the round's metrics, as the protocol's page_metrics gives them

    @property
    def received(self) -> int:
        return len(self.turns)


@dataclass
class AgentCard(Participant):
    """A protocol's card for one agent, with the colour of its chart series."""

    color: str = ""


@dataclass
class EventLine:
    seq: int
    text: str


@dataclass
class DebatePage:
    debate: Debate
    role: str
    can_write: bool
    steps: list[StepView]
    progress: int
    agents: list[AgentCard]
    panels: list[PanelView]
    chart: Chart
    metrics: list[Any]  # the protocol's page_metrics
    diagnostic: Any  # the protocol's page_diagnostic, None for none
    diagnostic_words: str
    result: BaseModel | None  # the protocol's typed result
    events: list[EventLine]
    last_seq: int
    current_label: str
    # The debate's protocol's page partials and the data its "live" partial shows.
    partials: dict[str, str] = field(default_factory=dict)
    protocol_view: dict[str, Any] = field(default_factory=dict)
    participants_title: str = "Agents"
    summary: str = ""  # the protocol's one-line description of its settings
    more_rounds: bool = False  # the protocol offers "One more round" on a finished debate
    language: str = "en"  # the debate's: fixed words on its pages come in it (debates.page_words)
    # What a finished debate answers (the protocol's ``page_answer``), first under the
    # question; None until there is a result (docs/web.md, "Answer first").
    answer: PageAnswer | None = None
    # How it ended in a sentence ("The panel agreed after 3 rounds"); "" while running.
    outcome: str = ""
    # The catalogue key of the diagnostic in plain words (its figures go behind "why").
    diagnostic_plain_key: str = ""


def _words(key: str) -> str:
    return key.replace("_", " ")


def payload_item(value: dict[str, Any], t: Translator | None = None) -> str | None:
    """A nested payload object (the synthesis and verifier turns hold lists of them) in
    words: a claim to verify, or an object a protocol's models describe; None for any
    other object."""
    t = t or _ENGLISH
    try:
        claim = UnverifiedClaim.model_validate(value)
    except ValidationError:
        claim = None
    for name in known_protocols():
        text = get_protocol(name).payload_item_text(value, t)
        if text is not None:
            return text
    if claim is None:
        return None
    return f"“{claim.quote}” ({t(f'claim.{claim.type.value}')}): {claim.why}"


def field_label(key: str, t: Translator) -> str:
    """A payload field's name in the translator's language (its words when no catalogue
    names it)."""
    name = f"field.{key}"
    return t(name) if name in translator(ENGLISH) else _words(key).capitalize()


_ENGLISH = PageWords(ENGLISH)


def readable(value: object, t: Translator = _ENGLISH) -> str:
    """Plain text for a nested payload value (the synthesis and verifier turns hold
    lists of objects), so no Python or JSON notation reaches a reader. Objects the
    engine's models describe are read through them; any other object lists its keys.
    Field names and fixed values come in ``t``'s language, the text as written."""
    if isinstance(value, dict):
        item = payload_item(value, t)
        if item is not None:
            return item
        return "; ".join(f"{field_label(str(k), t)}: {readable(v, t)}"
                         for k, v in value.items() if v not in (None, "", []))
    if isinstance(value, list):
        return "; ".join(readable(v, t) for v in value)
    if isinstance(value, bool):
        return t("value.true") if value else t("value.false")
    if isinstance(value, float):
        return f"{value:.2f}"
    return "" if value is None else str(value)


def turn_fields(protocol: DebateProtocol, phase: str, payload: dict[str, Any],
                t: Translator = _ENGLISH, known: list[tuple[str, str]] | None = None
                ) -> list[TurnField]:
    """A turn's fields in the order and under the labels its protocol gives (``known``
    overrides them), else in the payload's own."""
    known = known or protocol.turn_field_labels(phase)
    keys = known or [(k, field_label(k, t)) for k in payload]
    fields = []
    for key, label in keys:
        value = payload.get(key)
        if isinstance(value, list):
            fields.append(TurnField(label=label, key=key,
                                    items=[readable(v, t) for v in value]))
        elif isinstance(value, dict):
            fields.append(TurnField(label=label, key=key, items=[
                f"{field_label(str(k), t)}: {readable(v, t)}" for k, v in value.items()
                if v not in (None, "", [])]))
        elif isinstance(value, bool) or value is None:
            empty = protocol.turn_missing_word(phase)
            fields.append(TurnField(label=label, key=key, number=empty if value is None else
                                    ("yes" if value else "no")))
        elif isinstance(value, int | float):
            fields.append(TurnField(label=label, key=key, number=f"{value:.2f}"))
        else:
            fields.append(TurnField(label=label, key=key, text=str(value)))
    listed = payload.get(PASSAGES_KEY)
    if listed and isinstance(listed, list) and PASSAGES_KEY not in {k for k, _ in keys}:
        fields.append(TurnField(label=field_label(PASSAGES_KEY, t), key=PASSAGES_KEY,
                                items=[_as_citation(str(item)) for item in listed]))
    return fields


# The passage ids a turn rests on (docs/engine.md, "Sources"): shown as citations, so
# each links to its passage and one that names no passage is marked like any other.
PASSAGES_KEY = "passages"
_PASSAGE_ID = re.compile(r"\[?\s*(S[1-9][0-9]*\.[1-9][0-9]*)\s*\]?", re.IGNORECASE)


def _as_citation(item: str) -> str:
    found = _PASSAGE_ID.fullmatch(item.strip())
    return f"[{found.group(1).upper()}]" if found else item


def turn_summary(protocol: DebateProtocol, phase: str, payload: dict[str, Any],
                 t: Translator = _ENGLISH) -> str:
    """A turn's gist: the protocol's, else (a verifier's turn) how many claims it found."""
    if summary := protocol.turn_summary(phase, payload, t):
        return summary
    if phase == Phase.VERIFY.value:
        claims = payload.get("claims")
        if isinstance(claims, list):
            return t("claims_to_verify", n=len(claims))
    return ""


def _name(names: dict[int, str], index: int) -> str:
    return names.get(index, f"Agent {index + 1}")


def rounds_shown(state: DebateState, debate: Debate) -> int:
    """The rounds the page shows. After Stop the state plans no further round, but the
    round a worker is still running finishes and counts: it stays visible meanwhile."""
    rounds = state.view.planned_rounds
    step = debate.current_step if debate.is_active else ""
    if step.startswith("round ") and step[6:].isdigit():
        rounds = max(rounds, int(step[6:]))
    return rounds


def _event_text(event: DebateEvent, names: dict[int, str], t: PageWords) -> str:
    """An activity-log line in the debate's language."""
    p = event.payload or {}
    if event.kind == "turn":
        step = f"round {p.get('round')}" if p.get("phase") == "cross_exam" else p.get("phase")
        who = _name(names, p["agent"]) if isinstance(p.get("agent"), int) and p["agent"] >= 0 \
            else t("event.panel")
        key = "event.answered" if p.get("status") == "ok" else "event.turn_failed"
        return t(key, step=step_words(t, str(step)), who=who)
    if event.kind == "step_started":
        return t("event.started", step=step_words(t, str(p.get("step", ""))))
    if event.kind == "step_completed":
        return t("event.finished", step=step_words(t, str(p.get("step", ""))))
    key = f"event.{event.kind}"
    return t(key) if key in t else event.kind.replace("_", " ")


def _stepper(protocol: DebateProtocol, state: DebateState, debate: Debate,
             result: BaseModel | None) -> tuple[list[StepView], int, str]:
    """The protocol's steps with their states, the progress in percent and the running
    step's label."""
    active = debate.is_active
    finished = debate.status == DebateStatus.SUCCEEDED
    steps: list[StepView] = []
    current_label = ""
    first_open = True
    running = debate.current_step if active else ""
    for planned in protocol.page_steps(state, running):
        key, label = planned.key, planned.label
        # A stored result means every step it lists has run.
        if planned.done or result is not None:
            steps.append(StepView(key, label, "done"))
            continue
        if first_open:
            first_open = False
            if active:
                current_label = label
                steps.append(StepView(key, label, "running"))
                continue
            if debate.status in (DebateStatus.FAILED, DebateStatus.CANCELLED):
                # A cancel is someone's choice, not an error: no red step for it.
                steps.append(StepView(key, label, "failed" if debate.status
                                      == DebateStatus.FAILED else "cancelled"))
                continue
        steps.append(StepView(key, label, "skipped" if not active else "pending"))
    counted = [s for s in steps if s.state != "skipped"]
    done_count = sum(1 for s in counted if s.state == "done")
    progress = 100 if finished else int(100 * done_count / max(len(counted), 1))
    return steps, progress, current_label


def _agent_cards(protocol: DebateProtocol, state: DebateState, debate: Debate,
                 names: dict[int, str]) -> list[AgentCard]:
    """The protocol's card per agent, named as the stored panel names it."""
    running = protocol.next_step(state) if debate.is_active else None
    cards = []
    for p in protocol.participants(state, running):
        card = AgentCard(**{f.name: getattr(p, f.name) for f in fields(p)})
        card.name = names.get(p.index, p.name)
        cards.append(card)
    return cards


def _chart(state: DebateState, cards: list[AgentCard], metrics: list[Any]) -> Chart:
    """The convergence chart; each card takes its series' colour."""
    if not any(c.trail for c in cards):
        return convergence_chart([])
    rounds = max(len(c.trail) for c in cards)  # each card's trail: round 0 to the last started
    chart = convergence_chart(
        [(c.name, c.trail) for c in cards],
        [next((m.dispersion for m in metrics if m.round == r), None)
         for r in range(rounds)],
        [next((m.agreement for m in metrics if m.round == r), None)
         for r in range(rounds)],
    )
    for card, series in zip(cards, chart.series, strict=True):
        card.color = series.color
    return chart


def _panels(protocol: DebateProtocol, state: DebateState, steps: list[StepView],
            names: dict[int, str], metrics: list[Any], rounds: int) -> list[PanelView]:
    """One panel per agent step begun (or due), with its turns and its round's metrics."""
    by_round = {m.round: m for m in metrics}
    panels: list[PanelView] = []
    state_of = {s.label: s.state for s in steps}
    t = PageWords(state.language)
    for step in protocol.panel_steps(state, rounds):
        turns = []
        for (phase, rnd, agent), turn in sorted(state.turns.items(), key=lambda kv: kv[0][2]):
            if phase != step.phase.value or rnd != step.round or agent < 0:
                continue
            ok = turn.status is TurnStatus.OK and turn.payload is not None
            turns.append(TurnView(
                agent_index=agent, agent_name=_name(names, agent), ok=ok,
                error=turn.error or "",
                fields=turn_fields(protocol, phase, turn.payload or {}, t) if ok else [],
                summary=turn_summary(protocol, phase, turn.payload or {}, t) if ok else "",
            ))
        step_state = state_of.get(protocol.step_label(step), "pending")
        # A step of another protocol may share a label ("round 1") but holds no turns.
        if not turns and step_state in ("pending", "skipped", "done"):
            continue
        panel = protocol.page_panel(state, step)
        panels.append(PanelView(
            key=panel.key, title=panel.title, state=step_state, expected=panel.expected,
            turns=turns, metric=by_round.get(step.round) if panel.measured else None,
        ))
    return panels


def debate_page(debate: Debate, *, role: str, can_write: bool) -> DebatePage:
    state = load_state(debate)
    agents_rows = list(debate.agents.all())
    names = {a.index: a.name for a in agents_rows}
    for i, persona in enumerate(state.personas):
        names.setdefault(i, persona.name)
    result = debate_result(debate=debate)
    protocol = get_protocol(state.config.protocol)
    metrics = protocol.page_metrics(state)
    steps, progress, current_label = _stepper(protocol, state, debate, result)
    cards = _agent_cards(protocol, state, debate, names)
    chart = _chart(state, cards, metrics)
    diagnostic, words = protocol.page_diagnostic(state, result, metrics)
    events = list(debate.events.all())
    t = PageWords(state.language)
    return DebatePage(
        debate=debate, role=role, can_write=can_write, steps=steps, progress=progress,
        agents=cards, panels=_panels(protocol, state, steps, names, metrics,
                                                  rounds_shown(state, debate)),
        chart=chart,
        metrics=metrics, diagnostic=diagnostic, diagnostic_words=words, result=result,
        events=[EventLine(e.seq, _event_text(e, names, PageWords(state.language)))
                for e in events],
        last_seq=events[-1].seq if events else 0, current_label=current_label,
        partials=protocol.page_partials(), protocol_view=protocol.live_view(state),
        participants_title=protocol.participants_title,
        summary=protocol.summary_line(state), more_rounds=protocol.more_rounds,
        language=state.language,
        answer=protocol.page_answer(result, t) if result is not None else None,
        outcome=plain_outcome(protocol.name, debate.stop_reason, protocol.rounds_run(state), t),
        diagnostic_plain_key=f"diag.plain.{getattr(diagnostic, 'label', '')}",
    )
