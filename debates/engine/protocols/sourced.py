"""Every protocol's prompts laid out around the debate's sources (docs/engine.md,
"Sources", "Prompt layout"): the shared prefix (preamble, the passages chosen for the
question, the question), then the passages on the points under discussion and the
step's material common to its agents, then the agent's own persona or role and its own
material. The passages a call was shown travel in its
hints (``PASSAGES_HINT``): the simulated model cites from them, and the step runner
records their ids on the turn (``Turn.offered``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from .. import prompts
from ..schemas import citing
from ..sources.offer import Offer, hint, offer, render_passages
from ..state import DebateState

PASSAGES_HINT = "passages"


@dataclass(frozen=True)
class Framing:
    head: str
    focused: str
    offer: Offer


def framing(state: DebateState, model: str, *, focus: str = "", compaction: int = 0,
            tag: str = "question") -> Framing:
    shown = offer(state.sources, state.config, model, question=state.question,
                  focus=focus, compaction=compaction)
    head = prompts.head(state.language, state.question, state.context,
                        render_passages(shown.shared, state.sources),
                        partial=not shown.whole, tag=tag)
    return Framing(head, prompts.focused_block(render_passages(shown.focused, state.sources)),
                   shown)


def sourced_messages(state: DebateState, model: str, *, own: str, user: str,
                     schema: type[BaseModel], hints: dict[str, Any], focus: str = "",
                     compaction: int = 0, tag: str = "question",
                     shared: str = "") -> list[dict[str, str]]:
    """The call's messages; the passages shown are added to ``hints``. With sources,
    a schema that may cite asks for its ``passages`` field (``asked_schema``)."""
    frame = framing(state, model, focus=focus, compaction=compaction, tag=tag)
    if frame.offer:
        hints[PASSAGES_HINT] = hint(frame.offer)
    return prompts.laid_out(head=frame.head, own=own, user=user, shared=shared,
                            schema=asked_schema(state, schema), focused=frame.focused)


def asked_schema(state: DebateState, schema: type[BaseModel]) -> type[BaseModel]:
    """The schema a call of ``state`` states and is answered in: with sources, one that
    may cite asks for the passage ids it rests on (``schemas.citing``)."""
    return citing(schema) if state.sources else schema


def offered_ids(hints: dict[str, Any]) -> list[str]:
    return [str(p["id"]) for p in hints.get(PASSAGES_HINT) or []]
