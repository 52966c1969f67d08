"""Print and Markdown exports keep the R/C ids that comments refer to ("Is R2 real?"),
and a simulated debate's cost reads "free (simulated)" as on the pages."""

from __future__ import annotations

import re

from debates.engine.protocols.council.report import render_markdown
from debates.engine.protocols.council.schemas import DebateResult
from debates.selectors import debate_result


def test_markdown_names_every_risk_and_concern_by_id(member_client, finished):
    result = debate_result(debate=finished)
    assert result is not None and result.pre_positional_risks
    text = member_client.get(f"/debates/{finished.code}/export.md").content.decode()
    for risk in result.pre_positional_risks:
        assert re.search(rf"^\| \*\*{risk.id}\*\* ", text, re.M), risk.id
    for concern in result.post_positional_concerns:
        assert f"- **{concern.id}** " in text


def test_the_printable_page_shows_the_ids(member_client, finished):
    result = debate_result(debate=finished)
    html = member_client.get(f"/debates/{finished.code}/print").content.decode()
    for risk in result.pre_positional_risks:
        assert f"<strong>{risk.id}</strong>" in html


def test_cost_says_free_for_a_simulated_debate_and_dollars_otherwise(finished):
    result = debate_result(debate=finished)
    assert result.simulated
    assert "Cost: free (simulated) ·" in render_markdown(result)
    paid = DebateResult.model_validate({**result.model_dump(mode="json"), "simulated": False})
    assert "Cost: $" in render_markdown(paid)
    zh = DebateResult.model_validate({**result.model_dump(mode="json"), "language": "zh"})
    assert "免费（模拟）" in render_markdown(zh)
