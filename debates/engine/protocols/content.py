"""What every protocol's content checks share (docs/engine.md, "Content checks"):
each stored turn as text to read, named in words, the echo vocabulary of the
protocol's prompts and schemas, and the result with its verdict filled in."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from pydantic import BaseModel

from ..i18n import option_label, translator
from ..prompts import PromptFolder
from ..quality import TextPolicy, TurnText, panel
from ..quality.assess import assess, registered_reasons, schema_words
from ..quality.text import EchoVocabulary, normalised
from ..quality.turns import leaves
from ..quality.verdict import verdict
from ..schemas import (
    ContentRepair,
    Phase,
    ProtocolResult,
    QualityReason,
    TurnStatus,
    UnverifiedClaim,
)
from ..state import DebateState, Step

R = TypeVar("R", bound=ProtocolResult)

# Fields that hold an id, an enum value, an option or a name, in every protocol.
CONSTRAINED = frozenset({
    "id", "issue_id", "risk_id", "verdict", "updated_verdict", "options", "status", "type",
    "severity", "basis", "kind", "likelihood", "impact", "source_role", "agent", "model",
    "passages"})


def read_turns(state: DebateState, label: Callable[[Step], str]) -> list[TurnText]:
    """Every answered turn, in the order the debate ran, named "step · agent" (``label``:
    the protocol's words for a step)."""
    texts = []
    for turn in sorted(state.turns.values(), key=lambda t: (Step(t.phase, t.round).order,
                                                            t.agent)):
        if turn.status is not TurnStatus.OK or not turn.payload:
            continue
        where = label(Step(turn.phase, turn.round))
        if 0 <= turn.agent < len(state.personas):
            where += f" · {state.personas[turn.agent].name}"
        texts.append(TurnText(where=where, phase=turn.phase.value, round=turn.round,
                              agent=turn.agent, payload=turn.payload, cut=tuple(turn.cut),
                              repaired=turn.repaired))
    return texts


def policy(state: DebateState, schemas: tuple[type[BaseModel], ...],
           templates: tuple[PromptFolder, Iterable[str]], prose: Iterable[str],
           decision: Iterable[tuple[str, str]], constrained: Iterable[str] = ()) -> TextPolicy:
    """``templates``: the protocol's prompts and the names of those its calls use."""
    folder, names = templates
    echo = EchoVocabulary(schema_words(schemas), state.question,
                          [folder.text(name) for name in names])
    return TextPolicy(echo=echo, prose=frozenset(prose),
                      constrained=CONSTRAINED | frozenset(constrained),
                      decision=frozenset(decision),
                      options=frozenset(option_names(state)))


def option_names(state: DebateState) -> dict[str, str]:
    """The debate's options by every name a model may write them under, normalised:
    the identifier, and its label in English and in the debate's language ("sous
    conditions" for conditional)."""
    names: dict[str, str] = {}
    for language in dict.fromkeys(("en", state.language)):
        t = translator(language)
        for option in state.options:
            for name in (option, option_label(option, t)):
                if flat := normalised(name):
                    names.setdefault(flat, option)
    return names


def corpus(state: DebateState, skip: Iterable[Phase] = (Phase.VERIFY,)) -> str:
    """The debate's own words (every answered turn but ``skip``), its question and its
    sources: what a quote must be found in."""
    skipped = set(skip)
    parts = [state.question, state.context, *(d.text for d in state.sources)]
    for turn in state.turns.values():
        if turn.status is TurnStatus.OK and turn.payload and turn.phase not in skipped:
            # The field names too: a verifier reads a payload as "- field: text" lines.
            for path, text in leaves(turn.payload):
                parts += [*path, text]
    return "\n".join(parts)


def claim_quotes(claims: list[UnverifiedClaim]
                 ) -> list[tuple[str, str, str | None, int | None, int | None]]:
    return [(f"verify · claim {n}", c.quote, Phase.VERIFY.value, 0, None)
            for n, c in enumerate(claims, 1)]


def citation_reasons(result: ProtocolResult) -> list[QualityReason]:
    """The citations of the sources that do not check out, when they are a pattern
    (``evidence.unfound_citation``); none without sources."""
    if result.evidence is None:
        return []
    # What was copied without quotes shows the passage used; it claims no citation.
    return panel.unfound_citations([(c.where, c.passage, c.quote, c.known, c.found, c.agent)
                                    for c in result.evidence.citations
                                    if c.way != "copied"])


def judged(state: DebateState, result: R, turns: list[TurnText], text_policy: TextPolicy,
           more: Iterable[QualityReason]) -> R:
    """``result`` with its quality and reasons filled in: the text rules over ``turns``,
    the protocol's own reasons (``more``) and the registered rules' checks."""
    quality, reasons = assess(turns, text_policy,
                              [*more, *cut_reasons(turns), *citation_reasons(result),
                               *registered_reasons(state, result)])
    result.quality, result.quality_reasons = quality, reasons
    result.repairs = [ContentRepair(step=t.where, taken=bool(t.repaired))
                      for t in turns if t.repaired is not None]
    return result


def cut_reasons(turns: Iterable[TurnText]) -> list[QualityReason]:
    """One ``text.cut`` per turn with a text field cut at its sent bound, naming the
    fields (docs/models.md, "Text bounds from the context")."""
    return [panel.reason("text.cut", t.where, ", ".join(t.cut), t.phase, t.round, t.agent)
            for t in turns if t.cut]


def checked(state: DebateState, result: R, more: Iterable[QualityReason] = ()) -> R:
    """``result`` with its quality filled in from the registered rules' checks and
    ``more`` alone: how a protocol without text policies of its own (a plugin's) has
    its result judged (docs/engine.md, "Plugins")."""
    reasons = [*more, *registered_reasons(state, result)]
    read = sum(1 for t in state.turns.values() if t.status is TurnStatus.OK)
    result.quality, result.quality_reasons = verdict(reasons, read, 0), reasons
    return result
