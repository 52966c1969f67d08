"""A reviewed decision's outcome travels with the debate: in the Markdown export, the
print view and the JSON export, on the web and through the API, beside the earlier
versions of the decision."""

from __future__ import annotations

import json

from decisions.outcomes import outcome_record
from decisions.services import decision_record

STAY, Q3 = "Stay", "Migrate in Q3"


def _reviewed(debate, owner, member):
    decision_record(debate=debate, user=owner, option=STAY, rationale="Too risky.")
    decision_record(debate=debate, user=owner, option=Q3, rationale="After the freeze.")
    outcome_record(debate=debate, user=member, right_option=Q3, result="mixed",
                   notes="Late by a month.\n\n<script>alert(1)</script>")


def test_the_outcome_is_in_the_markdown_and_print_exports(member_client, debate, owner,
                                                          member):
    _reviewed(debate, owner, member)
    for url in (f"/debates/{debate.code}/export.md", f"/api/debates/{debate.code}/export.md"):
        md = member_client.get(url).content.decode()
        assert "### Outcome" in md, url
        assert f"**{Q3}** proved right · result: mixed · reviewed by {member.username}" in md
        assert "> Late by a month." in md
        assert "v1" in md and f"**{STAY}**" in md  # the earlier version stays readable
    printed = member_client.get(f"/debates/{debate.code}/print").content.decode()
    assert "proved right" in printed and "Late by a month." in printed
    assert "Earlier versions" in printed and "Too risky." in printed
    assert "<script>alert(1)" not in printed  # notes are untrusted Markdown


def test_the_outcome_is_in_the_json_exports(member_client, debate, owner, member):
    _reviewed(debate, owner, member)
    for url in (f"/debates/{debate.code}/export.json",
                f"/api/debates/{debate.code}/export.json"):
        decision = json.loads(member_client.get(url).content)["decision"]
        outcome = decision["outcome"]
        assert (outcome["right_option"], outcome["result"]) == (Q3, "mixed"), url
        assert outcome["notes"].startswith("Late by a month.")
        assert outcome["recorded_by"] == member.username and outcome["recorded_at"]
        assert decision["state"] == "reviewed"
        assert [v["option"] for v in decision["earlier_versions"]] == [STAY]


def test_cant_tell_yet_exports_as_such_and_no_review_as_null(member_client, debate, owner):
    decision_record(debate=debate, user=owner, option=STAY, rationale="Too risky.")
    data = json.loads(member_client.get(f"/debates/{debate.code}/export.json").content)
    assert data["decision"]["outcome"] is None
    assert "### Outcome" not in member_client.get(
        f"/debates/{debate.code}/export.md").content.decode()
    outcome = outcome_record(debate=debate, user=owner, right_option=None)
    md = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert f"Can't tell yet (reviewed by {owner.username}" in md
    assert f"next review {outcome.review_again_on:%Y-%m-%d}" in md
    data = json.loads(member_client.get(f"/debates/{debate.code}/export.json").content)
    assert data["decision"]["outcome"]["right_option"] is None


def test_the_decision_api_carries_the_latest_review(member_client, debate, owner, member):
    decision_record(debate=debate, user=owner, option=STAY, rationale="Too risky.")
    url = f"/api/debates/{debate.code}/decision"
    assert member_client.get(url).json()["outcome"] is None
    outcome_record(debate=debate, user=owner, right_option=None)
    outcome_record(debate=debate, user=member, right_option=Q3, result="worked", notes="ok")
    review = member_client.get(url).json()["outcome"]
    assert (review["right_option"], review["result"], review["notes"],
            review["recorded_by"]) == (Q3, "worked", "ok", member.username)
