"""Small builders for team data used across the accounts, personas and collab tests."""

from __future__ import annotations

from typing import Any

from debates.engine.schemas import DebateConfig, Persona
from debates.models import Debate, Synthesis
from debates.services import debate_create

QUESTION = "Should we move the billing service to a managed database?"


def make_debate(team: Any, user: Any = None, *, personas: list[Persona] | None = None,
                **config: Any) -> Debate:
    """A stored debate that is not queued (no worker needed)."""
    return debate_create(team=team, user=user, question=QUESTION,
                         config=DebateConfig(mode="quick", **config), personas=personas,
                         start=False)


def synthesis_result(agents_in_majority: list[bool | None] | None = None) -> dict[str, Any]:
    """Enough of a DebateResult for comments and usage figures."""
    verdicts = agents_in_majority if agents_in_majority is not None else [True, True, False]
    return {
        "agents": [{"index": i, "in_final_majority": v} for i, v in enumerate(verdicts)],
        "pre_positional_risks": [
            {"id": "R1", "text": "Migration downtime", "raised_by": ["A"]},
            {"id": "R2", "text": "Vendor lock-in", "raised_by": ["B"]},
        ],
        "post_positional_concerns": [{"id": "C1", "text": "Cost growth", "raised_by": ["C"]}],
        "disagreements": [{"topic": "Timing", "views": [{"agent": "A", "view": "Now"}]}],
        "recommended_path": {"stakes": "s", "strongest_evidence": "e", "weakest_evidence": "w",
                             "recommendation": "Migrate in Q3", "path_dependencies": [],
                             "risks": []},
        "consensus_points": [],
    }


def add_synthesis(debate: Debate, agents_in_majority: list[bool | None] | None = None) -> Synthesis:
    return Synthesis.objects.create(debate=debate, result=synthesis_result(agents_in_majority))
