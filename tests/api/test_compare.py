"""GET /api/debates/compare and the JSON export: the web compare page's comparison
(debates.web.compare) and the web export, over the API."""

from __future__ import annotations

import json

from debates.models import Synthesis
from debates.web.export_sections import export_filename
from tests.factories import add_synthesis, make_debate, synthesis_result


def test_compare_says_what_each_run_found_that_the_other_did_not(member_client, team, owner):
    a = make_debate(team, owner)
    add_synthesis(a)
    b = make_debate(team, owner)
    other = synthesis_result()
    other["pre_positional_risks"][1]["text"] = "Regulators object to the data residency"
    other["consensus_points"] = ["Keep the old system read-only for a year"]
    Synthesis.objects.create(debate=b, result=other)

    response = member_client.get("/api/debates/compare", {"a": a.code, "b": b.code})
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["a"]["code"] == str(a.code) and data["b"]["has_result"] is True
    only_a, only_b = data["comparison"]["only_a"], data["comparison"]["only_b"]
    assert [r["text"] for r in only_a["risks"]] == ["Vendor lock-in"]
    assert [r["text"] for r in only_b["risks"]] == ["Regulators object to the data residency"]
    assert only_b["consensus"] == ["Keep the old system read-only for a year"]
    assert only_a["consensus"] == [] and data["note"] == ""


def test_compare_without_a_result_says_why(member_client, team, owner):
    a = make_debate(team, owner)
    add_synthesis(a)
    b = make_debate(team, owner)
    data = member_client.get("/api/debates/compare", {"a": a.code, "b": b.code}).json()
    assert data["comparison"] is None and "b is queued" in data["note"]


def test_compare_of_another_teams_run_is_404(member_client, team, owner, other_team):
    a = make_debate(team, owner)
    theirs = make_debate(other_team)
    response = member_client.get("/api/debates/compare", {"a": a.code, "b": theirs.code})
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert member_client.get("/api/debates/compare", {"a": a.code}).status_code == 422


def test_export_json_is_the_result_as_a_download(member_client, team, owner):
    debate = make_debate(team, owner)
    url = f"/api/debates/{debate.code}/export.json"
    missing = member_client.get(url)
    assert missing.status_code == 404 and missing.json()["code"] == "no_result"
    add_synthesis(debate)
    response = member_client.get(url)
    assert response.status_code == 200
    filename = export_filename(debate, "json")
    assert filename.endswith(".json") and str(debate.code) not in filename
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    assert json.loads(response.content) == member_client.get(
        f"/api/debates/{debate.code}/synthesis").json()
