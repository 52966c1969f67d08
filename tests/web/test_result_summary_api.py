"""The API's result and list agree on how a debate ended, under every protocol: the
result's summary names the stop reason the list shows (the workflow's too)."""

from __future__ import annotations

import pytest

from debates.models import DebateStatus


@pytest.mark.parametrize("protocol", ["council", "adversarial", "workflow"])
def test_the_synthesis_opens_with_the_summary_the_list_agrees_with(
        member_client, make_debate, protocol):
    debate = make_debate(protocol=protocol, seed=2)
    assert debate.status == DebateStatus.SUCCEEDED, debate.error
    result = member_client.get(f"/api/debates/{debate.code}/synthesis").json()
    assert list(result)[0] == "summary"
    summary = result["summary"]
    assert summary["protocol"] == protocol and summary["simulated"] is True
    assert summary["stop_reason"] and summary["stop_reason"] == debate.stop_reason
    assert summary["degraded"] is debate.degraded
    assert (summary["decision"] is None) != (summary["divergence"] is None)
    listed = member_client.get(f"/api/debates/?protocol={protocol}").json()["items"]
    assert [i["stop_reason"] for i in listed] == [summary["stop_reason"]]
    exported = member_client.get(f"/api/debates/{debate.code}/export.json").json()
    assert exported["summary"] == summary


def test_a_genuine_disagreement_has_no_decision_and_says_why(member_client, make_debate):
    script = {"agents": [
        {"name": "Ann Hawk", "position_confidence": 0.95,
         "rounds": [{"remaining_disagreements": ["Costs are understated"]}, {}, {}]},
        {"name": "Ben Dove", "position_confidence": 0.1,
         "rounds": [{"remaining_disagreements": ["Benefits are overstated"]}, {}, {}]},
        {"name": "Cy Owl", "position_confidence": 0.5,
         "rounds": [{"remaining_disagreements": ["Timeline is unclear"]}, {}, {}]},
    ]}
    debate = make_debate(script=script, max_rounds=4)
    summary = member_client.get(f"/api/debates/{debate.code}/synthesis").json()["summary"]
    assert summary["stop_reason"] == "genuine_disagreement"
    assert summary["decision"] is None and summary["divergence"]
