"""What a finished debate's panel answered, in terms every protocol can fill: what the
evaluation harness reads (docs/engine.md, "Evaluation harness") without naming a
protocol's phases or schemas."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class AgentAnswer:
    """One agent's answer at one point of the debate: the option it chose (None for a
    protocol or a question without options), its stance in words, how sure it was."""

    verdict: str | None
    stance: str | None
    confidence: float | None


@dataclass
class PanelReading:
    """A debate's answers, independent and final.

    ``first`` holds each agent's answer before it saw any other (None for an agent
    that gave none); ``final`` each agent's answer after the last completed round
    (empty when no round after the first completed). ``independent_phases`` name the
    calls that produced ``first``, so their cost can be told apart. The
    recommendation is the text the result recommends, or None with the reason in
    ``recommendation_note``; ``solution`` is the final text of a protocol that refines
    one answer rather than polling a panel."""

    first: list[AgentAnswer | None] = field(default_factory=list)
    final: list[AgentAnswer | None] = field(default_factory=list)
    rounds: int = 0
    stop_reason: str | None = None
    independent_phases: frozenset[str] = frozenset()
    recommendation: str | None = None
    recommendation_note: str = ""
    solution: str | None = None
