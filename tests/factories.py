"""Small builders for team data used across the accounts, personas, collab and
evaluations tests."""

from __future__ import annotations

from typing import Any

from debates.engine.configure import resolve_config
from debates.engine.protocols.council.schemas import (
    AgentResult,
    AgentView,
    ClusteredItem,
    DebateResult,
    Diagnostic,
    DiagnosticLabel,
    RecommendedPath,
    TopicDisagreement,
)
from debates.engine.schemas import DebateConfig, Mode, Persona, StopReason, Usage
from debates.models import Debate, Synthesis
from debates.services import debate_create
from evaluations.models import Evaluation

QUESTION = "Should we move the billing service to a managed database?"


def make_debate(team: Any, user: Any = None, *, personas: list[Persona] | None = None,
                **config: Any) -> Debate:
    """A stored debate that is not queued (no worker needed)."""
    return debate_create(team=team, user=user, question=QUESTION,
                         config=DebateConfig(mode="quick", **config), personas=personas,
                         start=False)


def synthesis_result(agents_in_majority: list[bool | None] | None = None) -> dict[str, Any]:
    """A small but valid DebateResult (as stored) for comments and usage figures."""
    verdicts = agents_in_majority if agents_in_majority is not None else [True, True, False]
    persona = Persona(name="A", background="b", expertise="e", approach="a", bias="x")
    return DebateResult(
        question=QUESTION, language="en", protocol="council", mode=Mode.QUICK,
        config=resolve_config(mode="quick"), prompt_version="test", simulated=True,
        agents=[AgentResult(index=i, persona=persona.model_copy(update={"name": f"A{i}"}),
                            model="sim/test", in_final_majority=v)
                for i, v in enumerate(verdicts)],
        rounds_completed=1, stop_reason=StopReason.CONVERGED, stop_explanation="",
        metrics=[], diagnostic=Diagnostic(
            label=DiagnosticLabel.GENUINE_CONVERGENCE, mean_before=0.5, mean_after=0.8,
            dispersion_before=0.2, dispersion_after=0.1, mean_trend="rose",
            dispersion_trend="narrowed"),
        baseline_majority=None, final_majority=None,
        pre_positional_risks=[
            ClusteredItem(id="R1", text="Migration downtime", raised_by=["A"]),
            ClusteredItem(id="R2", text="Vendor lock-in", raised_by=["B"]),
        ],
        post_positional_concerns=[ClusteredItem(id="C1", text="Cost growth", raised_by=["C"])],
        disagreements=[TopicDisagreement(topic="Timing",
                                         views=[AgentView(agent="A", view="Now")])],
        consensus_points=[],
        recommended_path=RecommendedPath(stakes="s", strongest_evidence="e",
                                         weakest_evidence="w", recommendation="Migrate in Q3"),
        divergence_report=None, unverified_claims=[], verifier_ok=True, degraded=False,
        degraded_notes=[], synthesis_model="sim/test", usage=Usage(),
    ).model_dump(mode="json")


def add_synthesis(debate: Debate, agents_in_majority: list[bool | None] | None = None) -> Synthesis:
    return Synthesis.objects.create(debate=debate, result=synthesis_result(agents_in_majority))


def versions_mixed(evaluation: Evaluation) -> None:
    """As a run resumed across a deploy stores it: its first question answered under an
    older prompt version; the report is computed again from the stored outcomes."""
    first = evaluation.results.order_by("position").first()
    first.outcome["prompt_version"] = "v0"
    first.save()
    Evaluation.objects.filter(pk=evaluation.pk).update(report=None)
