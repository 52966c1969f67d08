"""The council's calls, step by step: what each step's answer must be (``step_schema``)
and its prompt at each level of shortening (``agent_request``, ``compose_messages``;
the synthesis and the verifier are in ``synthesis.py``). The shared step runner
(``protocols/base.py``) makes the calls.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from ... import prompts
from ...points import DISAGREEMENT
from ...schemas import Phase, VerifierReport
from ...state import DebateState, Step
from ..base import PANEL
from ..sourced import sourced_messages
from . import verdicts
from .phases import CouncilPhase
from .schemas import Attack, Challenge, Premortem, SynthesisNarrative, composed_panel_of
from .state import council

PROMPTS = prompts.beside(__file__)  # its own templates, in ./prompts

# Levels of prompt shortening tried in turn when a prompt does not fit the context:
# older material goes first, the latest stances and confidences stay whole to the end.
MAX_COMPACTION = 3


# ---------------------------------------------------------------------- prompts per phase


def _persona_text(state: DebateState, agent: int) -> str:
    """The agent's persona: after the shared prefix, so every agent shares that."""
    persona = state.personas[agent]
    return PROMPTS.render(
        "persona",
        name=persona.name,
        background=persona.background,
        expertise=persona.expertise,
        approach=persona.approach,
        bias=persona.bias,
    )


def _focus(state: DebateState, round_number: int) -> str:
    """The points under discussion in ``round_number``: the open ones raised before it
    (the passages on them are chosen for this text)."""
    if round_number < 1:
        return ""
    return "\n".join(p.text for p in council(state).points.raised_before(round_number)
                     if p.open_after(round_number - 1))


def _bullets(items: list[str], limit: int | None = None) -> str:
    chosen = items if limit is None else items[:limit]
    return "; ".join(chosen) if chosen else "(none)"


def panel_labels(state: DebateState) -> dict[int, str]:
    """The labels every agent sees the panel under when peers are anonymised: one
    seeded shuffle per debate, the same for every reader and every round, so the
    round's positions are byte-identical in every agent's prompt (a shared prefix a
    model's cache can reuse, docs/engine.md "Prompt layout"), a peer keeps its label,
    a failed peer does not shift the others, and the labels do not reveal the panel's
    order."""
    order = list(range(len(state.personas)))
    random.Random(f"{state.config.seed}:panel-labels").shuffle(order)
    return {agent: f"Agent {chr(ord('A') + n)}" for n, agent in enumerate(order)}


def _labels(state: DebateState) -> dict[int, str]:
    """Every agent's label in the round's list: its name, or on an anonymised or mixed
    panel its ``panel_labels`` label."""
    if state.config.anonymize_peers or state.config.is_mixed(state.personas):
        return panel_labels(state)
    return {i: persona.name for i, persona in enumerate(state.personas)}


def _positions_block(state: DebateState, round_number: int, compaction: int) -> str:
    """Every agent's latest position before ``round_number`` (the reader's own among
    them), in the order of their labels: the same text for every agent of the round."""
    previous = round_number - 1
    members = council(state).ok_agents(Step(CouncilPhase.CROSS_EXAM, previous) if previous else
                                       Step(CouncilPhase.POSITION))
    labels = _labels(state)
    # On a mixed panel a peer's name and tally invite deference to a model family and
    # herding: its arguments are shown, not who it is or its verdict and confidence
    # (docs/engine.md, "Mixed panels").
    mixed = state.config.is_mixed(state.personas)
    if state.config.anonymize_peers or mixed:
        members.sort(key=labels.__getitem__)
    blocks = []
    for i in members:
        position = council(state).position(i)
        assert position is not None
        tally = "" if mixed else (
            f": verdict {council(state).verdict(i, previous) or '(none)'}, "
            f"confidence {council(state).confidence(i, previous):.2f}")
        lines = [f"### {labels[i]}{tally}", f"Stance: {council(state).stance(i, previous)}"]
        # Level 1 summarises the opening position (the oldest material) first; level 2
        # shortens the latest round too; level 3 keeps stances and confidences only.
        if compaction < 3:
            older = None if compaction == 0 else 2
            # The opening position's reasoning and assumptions are examined in round 1.
            # Later rounds argue over each agent's latest stance, reflection and kept
            # points, not over a growing transcript (the synthesis gets every final
            # agent's assumptions).
            if compaction < 2 and not previous:
                lines.append(f"Reasoning: {_bullets(position.reasoning, older)}")
                lines.append(f"Assumptions: {_bullets(position.key_assumptions, older)}")
            last = council(state).cross_exam(i, previous) if previous else None
            if last is not None:
                reflection = last.reflection if compaction < 2 else last.reflection[:300]
                lines.append(f"Reflection: {reflection}")
                lines.append(f"Still disputes: {_point_refs(state, i, previous)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _point_refs(state: DebateState, agent: int, round_number: int) -> str:
    """The disagreements ``agent`` kept in ``round_number``, by point id: their words
    are in the list of open points every agent gets, so a prompt states each once."""
    ids = council(state).points.ids_of(agent, round_number, DISAGREEMENT)
    return ", ".join(f"[{point_id}]" for point_id in ids) or "(none)"


def _own_part(state: DebateState, agent: int, round_number: int, compaction: int) -> str:
    """Which entry of the round's list is ``agent``'s and what the list does not show:
    its verdict and confidence on a mixed panel (the list carries no tallies there),
    and from round 2 what it conceded last round (its reflection and kept points are
    in the list)."""
    previous = round_number - 1
    own = f"Above, you are {_labels(state)[agent]}"
    if state.config.is_mixed(state.personas):
        own += (f" (verdict {council(state).verdict(agent, previous) or '(none)'}, "
                f"confidence {council(state).confidence(agent, previous) or 0.0:.2f})")
    lines = [f"{own}; the options: {', '.join(state.options)}."]
    exam = council(state).cross_exam(agent, previous) if previous else None
    if exam is not None:
        lines.append(f"You conceded: {_bullets(exam.concessions, None if compaction < 2 else 2)}")
    return "\n".join(lines)


def _open_points_block(state: DebateState, round_number: int, compaction: int) -> str:
    """The points raised before this round, with their ids, so that an agent restating
    one cites it and ``new_arguments`` need not guess from words (points.py)."""
    seen = council(state).points.raised_before(round_number)
    if not seen:
        return ""
    previous = round_number - 1
    still = [p for p in seen if p.open_after(previous)]
    dropped = [p for p in seen if not p.open_after(previous)]
    lines = ["Points raised so far, with their ids. Still open:"]
    lines += [f"- [{p.id}] {p.text}" for p in still] or ["(none)"]
    # Points dropped in the last round are worded (an agent may take one up again);
    # older ones are named by id only, so the list does not grow into a transcript.
    recent = [p for p in dropped if p.last_round == previous - 1]
    if recent and compaction == 0:
        lines += [f"No longer raised in round {previous}:"]
        lines += [f"- [{p.id}] {p.text}" for p in recent]
    if len(recent) < len(dropped) and compaction == 0:
        lines.append("Dropped earlier: " + ", ".join(
            f"[{p.id}]" for p in dropped if p not in recent))
    lines.append(
        "Begin a remaining disagreement or evidence item that restates one of these points, "
        f'even in other words, with its id in brackets, e.g. "[{seen[0].id}] ..."; a point '
        "not listed has no id."
    )
    return "\n" + "\n".join(lines) + "\n"


def step_schema(state: DebateState, step: Step) -> type[BaseModel]:
    """What ``step``'s answers must be: verdicts constrained to the debate's options, a
    composed panel of the size still missing."""
    if step.phase is CouncilPhase.COMPOSE:
        return composed_panel_of(council(state).target_agents - len(state.given_personas))
    if step.phase is CouncilPhase.POSITION:
        return verdicts.position_schema(state.options)
    if step.phase is CouncilPhase.CROSS_EXAM:
        return verdicts.cross_exam_schema(state.options)
    if step.phase is CouncilPhase.CHALLENGE:
        return verdicts.challenge_schema(state.options)
    if step.phase is CouncilPhase.CHALLENGE_ANSWER:
        return verdicts.challenge_answer_schema(state.options)
    answers: dict[Phase, type[BaseModel]] = {
        CouncilPhase.PREMORTEM: Premortem, Phase.SYNTHESIS: SynthesisNarrative,
        Phase.VERIFY: VerifierReport}
    return answers[step.phase]


def agent_request(
    state: DebateState, step: Step, agent: int, compaction: int
) -> tuple[type[BaseModel], list[dict[str, str]], dict[str, Any]]:
    hints: dict[str, Any] = {"question": state.question, "language": state.language,
                             "options": state.options}
    options = ", ".join(state.options)
    schema = step_schema(state, step)
    shared = ""
    if step.phase is CouncilPhase.PREMORTEM:
        user = PROMPTS.render("premortem")
    elif step.phase is CouncilPhase.CHALLENGE_ANSWER:
        user = _challenge_answer_prompt(state, agent, hints)
    elif step.phase is CouncilPhase.POSITION:
        premortem = council(state).premortem(agent)
        assert premortem is not None
        user = PROMPTS.render(
            "position",
            premortem=f"{premortem.failure_scenario}\nRoot causes: "
            f"{_bullets(premortem.root_causes)}",
            options=options,
        )
    else:
        previous = step.round - 1
        own_conf = council(state).confidence(agent, previous) or 0.0
        peer_confs = [
            council(state).confidence(i, previous) or 0.0
            for i in council(state).ok_agents(
                Step(CouncilPhase.CROSS_EXAM, previous) if previous else Step(CouncilPhase.POSITION)
            )
            if i != agent
        ]
        peers = [i for i in council(state).counted_agents(previous) if i != agent]
        hints.update(
            own_verdict=council(state).verdict(agent, previous),
            peer_verdict=verdicts.leading_of([council(state).verdict(i, previous) for i in peers]),
            round=step.round,
            own_confidence=own_conf,
            peer_mean=sum(peer_confs) / len(peer_confs) if peer_confs else own_conf,
            point_ids=council(state).points.text_ids(step.round),
        )
        shared = PROMPTS.render(
            "cross_exam_shared",
            round=step.round,
            positions=_positions_block(state, step.round, compaction),
            open_points=_open_points_block(state, step.round, compaction),
        )
        user = PROMPTS.render("cross_exam", own=_own_part(state, agent, step.round, compaction))
    model = state.config.model_for(step.phase.value, state.personas[agent])
    focus = _focus(state, step.round) if step.phase is CouncilPhase.CROSS_EXAM else ""
    return schema, sourced_messages(
        state, model, shared=shared, own=_persona_text(state, agent), user=user, schema=schema,
        hints=hints, focus=focus, compaction=compaction), hints


# ---------------------------------------------------------------------- panel calls


def compose_messages(state: DebateState) -> tuple[list[dict[str, str]], dict[str, Any]]:
    needed = council(state).target_agents - len(state.given_personas)
    reserved = [p.name for p in state.given_personas]
    hints: dict[str, Any] = {
        "n": needed, "question": state.question, "language": state.language,
        "reserved_names": reserved,
    }
    user = PROMPTS.render(
        "compose",
        n=needed,
        reserved_block=f"- Do not reuse these names: {', '.join(reserved)}."
        if reserved else "",
    )
    # The question and the sources' titles, not their text (docs/engine.md, "Sources"):
    # who should sit on the panel follows from what is asked and what the documents
    # are; their passages made compose the slowest call of every sourced run on a
    # small local model (1,785 prompt tokens, issue 42).
    titles = "\n".join(f"- {d.id}: {d.title}" for d in state.sources)
    if titles:
        user = (f"The panel will read these sources (titles only here):\n{titles}"
                f"\n\n{user}")
    messages = prompts.laid_out(
        head=prompts.head(state.language, state.question, state.context), own="",
        user=user, schema=composed_panel_of(needed))
    return messages, hints


# ---------------------------------------------------------------------- the challenge
# Deep mode's challenge round (docs/protocols.md 1.7a): a devil's advocate outside the
# panel attacks the leading view, then every agent answers it.


def challenge(state: DebateState) -> Challenge | None:
    """The devil's advocate's case, when it answered."""
    payload = state.ok_payload(CouncilPhase.CHALLENGE, 0, PANEL)
    return Challenge.model_validate(payload) if payload is not None else None


def attack_lines(attacks: list[Attack]) -> str:
    return "\n".join(f"{n}. {a.claim} (would have to be true: {a.would_have_to_be_true})"
                     for n, a in enumerate(attacks, 1)) or "(none)"


def challenge_messages(state: DebateState, compaction: int = 0
                       ) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """The devil's advocate's prompt: the leading view and every counted agent's final
    stance (no names: it attacks the view, not who holds it); shortened, stances are
    cut to their first 300 characters."""
    view = council(state)
    last = view.completed_rounds
    target = view.leading_view()
    assert target is not None
    split = view.verdict_split(last)
    assert split is not None
    positions = []
    for i in view.counted_agents(last):
        stance = view.stance(i, last) or ""
        if compaction >= 2:
            stance = stance[:300]
        positions.append(f"- [{view.verdict(i, last) or 'no verdict'}] {stance} "
                         f"({view.confidence(i, last) or 0.0:.2f})")
    hints: dict[str, Any] = {"question": state.question, "language": state.language,
                             "options": state.options, "target": target}
    user = PROMPTS.render("challenge", rounds=last, target=target,
                          supporters=split.supporters, agents=split.of,
                          options=", ".join(state.options),
                          positions="\n".join(positions) or "(none)")
    model = state.config.model_for(CouncilPhase.CHALLENGE.value)
    return sourced_messages(
        state, model, own="", user=user, schema=step_schema(state, Step(CouncilPhase.CHALLENGE)),
        hints=hints, focus=target, compaction=compaction), hints


def _challenge_answer_prompt(state: DebateState, agent: int, hints: dict[str, Any]) -> str:
    view = council(state)
    last = view.completed_rounds
    case = challenge(state)
    assert case is not None
    own_verdict = view.verdict(agent, last)
    hints.update(own_verdict=own_verdict, own_confidence=view.confidence(agent, last),
                 target=case.target_verdict, attacks=len(case.attacks))
    return PROMPTS.render(
        "challenge_answer", target=case.target_verdict,
        own_stance=view.stance(agent, last), own_verdict=own_verdict or "(none)",
        own_confidence=f"{view.confidence(agent, last) or 0.0:.2f}",
        options=", ".join(state.options), attacks=attack_lines(case.attacks))
