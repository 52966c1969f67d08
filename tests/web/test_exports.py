"""Exports: Markdown (the engine's report), JSON (the typed result), printable HTML."""

from __future__ import annotations

import json

from debates.engine.protocols.council.schemas import DebateResult


def test_markdown_export_is_the_engine_report(member_client, finished):
    response = member_client.get(f"/debates/{finished.code}/export.md")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode()
    assert text.startswith("# Council synthesis")
    assert "## Convergence" in text and finished.question in text


def test_json_export_validates_against_debate_result(member_client, finished):
    response = member_client.get(f"/debates/{finished.code}/export.json")
    assert response["Content-Type"].startswith("application/json")
    result = DebateResult.model_validate(json.loads(response.content))
    assert result.question == finished.question
    assert result.stop_reason.value == finished.stop_reason


def test_printable_page_renders_the_report_and_the_chart(member_client, finished):
    html = member_client.get(f"/debates/{finished.code}/print").content.decode()
    assert "Council synthesis" in html and "<table>" in html and "<svg" in html


def test_exports_of_an_unfinished_debate_are_404(member_client, make_debate):
    debate = make_debate(run=False)
    for suffix in ("export.md", "export.json", "print"):
        assert member_client.get(f"/debates/{debate.code}/{suffix}").status_code == 404
