"""Nested objects of stored turns read as text through the engine's models, never as
Python or JSON notation."""

from __future__ import annotations

from debates.engine.protocols.council.schemas import (
    AgentView,
    RiskFollowUp,
    RiskStatus,
    TopicDisagreement,
)
from debates.engine.schemas import ClaimType, UnverifiedClaim
from debates.web.pages import payload_item, readable


def _stored(model) -> dict:
    return model.model_dump(mode="json")


def test_a_stored_disagreement_reads_as_its_topic_and_each_view():
    disagreement = TopicDisagreement(topic="Cost", views=[
        AgentView(agent="Ops", view="too dear"), AgentView(agent="CFO", view="fine")])
    assert readable(_stored(disagreement)) == "Cost: Ops: too dear; CFO: fine"


def test_a_risk_follow_up_reads_with_its_status_and_note_only_when_there_is_one():
    assert readable(_stored(RiskFollowUp(risk_id="R2", status=RiskStatus.OPEN,
                                         note="no owner"))) == "R2 open: no owner"
    assert readable(_stored(RiskFollowUp(risk_id="R1", status=RiskStatus.MITIGATED))) \
        == "R1 mitigated"


def test_a_claim_to_verify_reads_as_a_quote_with_its_kind_and_reason():
    claim = UnverifiedClaim(quote="SQS costs $0.40 per million", type=ClaimType.PRODUCT_BEHAVIOUR,
                            why="prices change")
    assert readable([_stored(claim)]) == ("“SQS costs $0.40 per million” (product behaviour): "
                                          "prices change")


def test_an_object_no_item_model_describes_lists_its_filled_fields():
    value = {"stakes": "uptime", "recommendation": "Kafka", "risks": [], "confidence": 0.756}
    assert payload_item(value) is None
    assert readable(value) == "Stakes: uptime; Recommendation: Kafka; Confidence: 0.76"


def test_an_object_with_a_field_the_model_does_not_know_is_not_taken_for_it():
    value = {"agent": "Ops", "view": "too dear", "mood": "grim"}
    assert payload_item(value) is None
    assert readable(value) == "Agent: Ops; View: too dear; Mood: grim"
