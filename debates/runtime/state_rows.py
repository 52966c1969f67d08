"""The engine's view of a stored debate: rebuilt from rows, and the panel copied in.

Kept apart from ``execution`` so that pages reading a debate never import the
runner (and with it litellm, which takes seconds to import).
"""

from __future__ import annotations

from debates.debate_sources import debate_sources
from debates.engine import (
    DebateConfig,
    DebateState,
    Persona,
    Phase,
    Turn,
    TurnStatus,
    get_protocol,
)
from debates.models import Agent, Debate


def load_state(debate: Debate) -> DebateState:
    """The debate's state from its rows, without its sources' texts."""
    state = DebateState(
        question=debate.question,
        context=debate.context,
        config=DebateConfig.model_validate(debate.settings),
        given_personas=[Persona.model_validate(p) for p in debate.given_personas],
        stop_requested=debate.stop_requested,
        forced_rounds=debate.forced_rounds,
    )
    for row in debate.turns.all():
        state.add(Turn(phase=Phase(row.phase), round=row.round, agent=row.agent_index,
                       status=TurnStatus(row.status), payload=row.payload,
                       error=row.error or None, model=row.model or None,
                       compaction=row.compaction, offered=list(row.offered),
                       cut=list(row.cut), repaired=row.repaired))
    # The protocol fills what it derives before its first step (a fixed-role
    # protocol's roles as the panel), so pages and the agent snapshot can name them.
    get_protocol(state.config.protocol).prepare(state)
    return state


def load_state_with_sources(debate: Debate) -> DebateState:
    """``load_state`` with the texts of the sources that are read, which only a step
    reads (a page needs none of them, and each may be megabytes). A debate's first step
    waits for all of them (debates.runtime.execution, docs/web.md "Sources")."""
    state = load_state(debate)
    state.sources = debate_sources().documents(debate=debate) if debate.pk else []
    return state


def snapshot_agents(debate: Debate, state: DebateState) -> None:
    """Copies the panel into the debate (idempotent)."""
    existing = set(debate.agents.values_list("index", flat=True))
    protocol = get_protocol(state.config.protocol)
    Agent.objects.bulk_create([
        Agent(debate=debate, index=i, name=p.name, persona=p.model_dump(mode="json"),
              model=protocol.agent_model(state.config, i, p))
        for i, p in enumerate(state.personas) if i not in existing
    ])
