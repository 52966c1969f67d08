"""Every turn of a debate by phase and round, for the transcript page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from debates.engine import Phase, QualityReason, Step, TurnStatus, get_protocol
from debates.models import Debate
from debates.page_words import PageWords
from debates.runtime.state_rows import load_state
from debates.web.pages import PERSONA_FIELDS, TurnView, turn_fields, turn_summary
from debates.web.quality import reasons_on_turn

# The shared phases' headings; a protocol heads its own steps (transcript_title).
PANEL_TITLES = {
    Phase.SYNTHESIS.value: "Synthesis (the model's narrative)",
    Phase.VERIFY.value: "Verifier",
    Phase.JUDGE.value: "Judge (its grade of the synthesis)",
}


@dataclass
class TranscriptSection:
    key: str
    title: str
    turns: list[TurnView]
    step: str = ""  # its step label ("round 1"): pages name it in the debate's language
    phase: str = ""


def transcript_language(debate: Debate) -> str:
    """The debate's language, for the transcript page's fixed words."""
    return load_state(debate).language


def transcript_sections(debate: Debate, reasons: Sequence[QualityReason] = ()
                        ) -> list[TranscriptSection]:
    """From a debate loaded by ``selectors.debate_detail`` (no further queries); each
    turn carries the ``reasons`` (its result's ``quality_reasons``) that name it."""
    state = load_state(debate)
    names = {a.index: a.name for a in debate.agents.all()}
    t = PageWords(state.language)  # field names in the debate's language
    protocol = get_protocol(state.config.protocol)
    groups: dict[Step, list[TurnView]] = {}
    for (phase, rnd, agent), turn in state.turns.items():
        ok = turn.status is TurnStatus.OK and turn.payload is not None
        payload = turn.payload or {}
        personas = protocol.composed_personas(phase, payload) if ok else []
        if personas:
            # One entry per composed persona reads better than one JSON blob.
            for i, persona in enumerate(personas):
                groups.setdefault(Step(Phase(phase)), []).append(TurnView(
                    agent_index=i, agent_name=str(persona.get("name", "")), ok=True,
                    fields=turn_fields(protocol, phase, {k: v for k, v in persona.items()
                                                         if k != "name"}, t,
                                       known=PERSONA_FIELDS),
                    summary=str(persona.get("expertise", "")),
                    quality_marks=reasons_on_turn(reasons, phase, rnd, i)))
            continue
        groups.setdefault(Step(Phase(phase), rnd), []).append(TurnView(
            agent_index=agent,
            agent_name=names.get(agent, f"Agent {agent + 1}") if agent >= 0 else "panel",
            ok=ok, error=turn.error or "",
            fields=turn_fields(protocol, phase, payload, t) if ok else [],
            summary=turn_summary(protocol, phase, payload, t) if ok else "",
            quality_marks=reasons_on_turn(reasons, phase, rnd, agent),
        ))
    sections = []
    # Steps in the order they ran (turns are stored, and loaded, in that order): the
    # one order every protocol shares.
    for step in groups:
        turns = sorted(groups[step], key=lambda t: t.agent_index)
        label = protocol.step_label(step)
        title = (PANEL_TITLES.get(step.phase.value) or protocol.transcript_title(step)
                 or label.capitalize())
        sections.append(TranscriptSection(key=label.replace(" ", "-"), title=title,
                                          turns=turns, step=label, phase=step.phase.value))
    return sections
