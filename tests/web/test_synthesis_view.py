"""The synthesis page: every part of the typed DebateResult, readable."""

from __future__ import annotations

from debates.engine.protocols.council.schemas import DebateResult
from tests.web.htmltools import elements


def test_synthesis_page_shows_every_part_of_the_result(member_client, finished):
    result = DebateResult.model_validate(finished.synthesis.result)
    response = member_client.get(f"/debates/{finished.code}/synthesis")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Simulated model" in html
    for heading in ("Recommended path" if result.recommended_path else "Divergence report",
                    "Convergence", "Panel", "Risks raised before anyone took a position",
                    "Concerns that survived", "Where they still disagree", "Agreed",
                    "Assumptions behind each final position", "Claims to verify",
                    "Cost and tokens"):
        assert heading in html, heading
    assert result.stop_reason.value.replace("_", " ") in html
    assert result.diagnostic.label.value.replace("_", " ") in html
    for risk in result.pre_positional_risks:
        assert ", ".join(risk.raised_by) in html
        assert f"sev-{risk.severity.value}" in html
        assert f"follow-{risk.follow_up.value}" in html
    for topic in result.disagreements:
        assert topic.topic in html
        for view in topic.views:
            assert view.agent in html
    for agent in result.agents:
        assert agent.persona.name in html
    assert f"{result.usage.calls} calls" in html
    assert "svg" in [el.tag for el in elements(html)]
    assert html.count("<tr>") >= len(result.metrics) + len(result.agents)


def test_divergence_report_replaces_the_recommendation(member_client, make_debate):
    script = {"agents": [
        {"name": "Ann Hawk", "position_confidence": 0.95,
         "rounds": [{"remaining_disagreements": ["Costs are understated"]},
                    {}, {}]},
        {"name": "Ben Dove", "position_confidence": 0.1,
         "rounds": [{"remaining_disagreements": ["Benefits are overstated"]}, {}, {}]},
        {"name": "Cy Owl", "position_confidence": 0.5,
         "rounds": [{"remaining_disagreements": ["Timeline is unclear"]}, {}, {}]},
    ]}
    debate = make_debate(script=script, max_rounds=4)
    assert debate.stop_reason == "genuine_disagreement"
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert "Divergence report" in html and "Recommended path" not in html


def test_unfinished_debate_has_no_synthesis_page(member_client, make_debate):
    debate = make_debate(run=False)
    assert member_client.get(f"/debates/{debate.code}/synthesis").status_code == 404


def test_a_japanese_debate_has_a_japanese_synthesis_page(member_client, make_debate):
    import re

    from debates.engine.protocols.council.report import render_markdown
    from tests.wording import page_wording

    script = {"agents": [{"name": "Ann", "position_confidence": 0.2,
                          "fail_in": ["cross_exam:1"]}]}
    debate = make_debate(question="請求サービスを来年 PostgreSQL に移行すべきでしょうか？",
                         script=script)
    result = DebateResult.model_validate(debate.synthesis.result)
    assert result.language == "ja"
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    ja, en = page_wording("ja"), page_wording("en")
    for key in ("title", "convergence", "agents", "concerns", "disagreements", "assumptions",
                "claims", "usage", "col.mean", "simulated_title", "nav.export_md"):
        assert ja[key] in html, key
    # h1/h2 are fixed headings (h3 holds the model's disagreement topics).
    headings = re.findall(r"<h[12][^>]*>(.*?)</h[12]>", html, re.S)
    assert len(headings) >= 9
    for heading in headings:
        text = re.sub(r"<[^>]+>", "", heading)
        assert not re.search(r"[A-Za-z]{3,}", text.replace("Markdown", "")), heading
    for key in ("convergence", "disagreements", "assumptions", "usage", "no_recommendation"):
        assert f">{en[key]}<" not in html, key
    # The same wording as the Markdown export.
    report = render_markdown(result)
    for key in ("recommended_path" if result.recommended_path else "divergence_title",
                "risks", "claims"):
        assert ja[key] in report and ja[key] in html
    assert ja["failed_in"].format(step="ラウンド 1") in html
