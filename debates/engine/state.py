"""A debate's state: what every protocol stores, and the hook its derivations hang on.

The state is the configuration, the given personas and the stored turns. What a
protocol derives from them (the council's metrics, stop rule and next step; another
protocol's ledger) is its ``StateView``, built by the protocol and cached on the
state until a turn arrives, so a worker that picks up a half-finished debate from
the database reaches exactly the same conclusions as the process that started it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .language import detect_language
from .loading import plugins_needed
from .options import options_from_question
from .schemas import DebateConfig, Persona, Phase, Turn, TurnStatus
from .sources.documents import SourceDocument

__all__ = ["DebateState", "StateView", "Step", "detect_language", "register_view"]


@dataclass(frozen=True)
class Step:
    phase: Phase
    round: int = 0

    @property
    def order(self) -> tuple[int, int]:
        """Phases in the order they are registered, then rounds."""
        return (Phase.registered().index(self.phase), self.round)


class StateView:
    """What a protocol derives from a state's stored turns: every protocol's panel
    (``personas``) and options; a protocol's subclass adds its own derivations. A view
    lives until the state's next turn, so its cached properties need no invalidation."""

    def __init__(self, state: DebateState) -> None:
        self.state = state

    @cached_property
    def personas(self) -> list[Persona]:
        return list(self.state.given_personas)

    @cached_property
    def seated(self) -> list[Persona]:
        """The panel with each agent's model on its persona (``DebateConfig.seated``)."""
        return self.state.config.seated(self.personas)

    @cached_property
    def options(self) -> list[str]:
        """What a decision on the debate names (docs/protocols.md 1.4): the user's, else
        the ones the question names, else yes/no."""
        if self.state.config.options:
            return list(self.state.config.options)
        return options_from_question(self.state.question)

    @property
    def planned_rounds(self) -> int:
        """The rounds of debate the page shows panels for (none for a protocol whose
        page shows no rounds)."""
        return 0


# Each protocol's view, by protocol name: filled as protocols register
# (``protocols.registry.register``), so the store needs no protocol import.
_VIEWS: dict[str, type[StateView]] = {}


def register_view(protocol: str, view: type[StateView]) -> None:
    _VIEWS[protocol] = view


@dataclass
class DebateState:
    question: str
    config: DebateConfig
    context: str = ""
    # The team's documents the panel argues from (docs/engine.md, "Sources").
    sources: list[SourceDocument] = field(default_factory=list)
    given_personas: list[Persona] = field(default_factory=list)
    turns: dict[tuple[str, int, int], Turn] = field(default_factory=dict)
    stop_requested: bool = False
    # "One more round" after a stop (protocols whose ``more_rounds`` is set): rounds up
    # to this one run whatever the stopping rule says.
    forced_rounds: int = 0
    # The protocol's view of the turns, built on first use after each change.
    _view: StateView | None = field(default=None, repr=False, compare=False)

    def changed(self) -> None:
        """Drops what was derived from the turns (a turn arrived, or a protocol reset
        some): the next read derives it again."""
        self._view = None

    # ------------------------------------------------------------------ turns

    def add(self, turn: Turn) -> None:
        self.turns[turn.key] = turn
        self.changed()

    def turn(self, phase: Phase, round_number: int = 0, agent: int = -1) -> Turn | None:
        return self.turns.get((phase.value, round_number, agent))

    def ok_payload(self, phase: Phase, round_number: int, agent: int) -> dict | None:
        turn = self.turn(phase, round_number, agent)
        return turn.payload if turn is not None and turn.status is TurnStatus.OK else None

    def failed_steps(self, agent: int) -> list[Step]:
        """Every step in which this agent's turn failed, in no order."""
        return [Step(t.phase, t.round) for t in self.turns.values()
                if t.agent == agent and t.status is TurnStatus.FAILED]

    @property
    def language(self) -> str:
        return detect_language(self.question)

    # ------------------------------------------------------------------ derived

    @property
    def view(self) -> StateView:
        """The protocol's derivations over the current turns (``StateView``)."""
        if self._view is None:
            plugins_needed()  # the protocols register their views
            self._view = _VIEWS.get(self.config.protocol, StateView)(self)
        return self._view

    @property
    def personas(self) -> list[Persona]:
        return self.view.seated

    @property
    def options(self) -> list[str]:
        return self.view.options
