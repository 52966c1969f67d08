"""Verdicts on the web side: options on the form (editable, previewed), the API, stored
per-round agreement, agent cards, the chart's agreement line, the synthesis and compare."""

from __future__ import annotations

import json
import re

from debates.engine.protocols.council.schemas import DebateResult
from debates.models import Debate
from debates.selectors import round_measures
from debates.web.charts import convergence_chart
from tests.web.test_debate_new_view import GOOD

SPLIT = {"agents": [
    {"name": "Ann Hawk", "position_confidence": 0.8, "position_verdict": "against",
     "rounds": [{"updated_verdict": "for", "concessions": ["fair"]}]},
    {"name": "Bo Dove", "position_confidence": 0.8, "position_verdict": "for"},
    {"name": "Cy Owl", "position_confidence": 0.8, "position_verdict": "for"},
]}


def test_the_form_offers_options_and_previews_the_automatic_ones(member_client):
    html = member_client.get("/debates/new").content.decode()
    assert 'name="options"' in html and 'id="options-preview"' in html
    assert 'hx-get="/debates/options"' in html
    preview = member_client.get("/debates/options",
                                {"question": "Should we use Kafka or SQS for events?"})
    text = preview.content.decode()
    assert preview.status_code == 200 and "Kafka" in text and "SQS" in text
    assert "conditional" in text and "against" not in text
    yes_no = member_client.get("/debates/options", {"question": "Should we hire?"})
    assert "against" in yes_no.content.decode()


def test_edited_options_are_recorded_and_used(member_client):
    response = member_client.post("/debates/new", {**GOOD, "options": " Now, Next year ,Never"})
    assert response.status_code == 302
    debate = Debate.objects.get()
    assert debate.settings["options"] == ["Now", "Next year", "Never"]


def test_blank_options_are_automatic(member_client):
    member_client.post("/debates/new", {**GOOD, "options": "  "})
    assert Debate.objects.get().settings["options"] is None


def test_a_single_option_is_refused_next_to_its_field(member_client):
    response = member_client.post("/debates/new", {**GOOD, "options": "yes, Yes"})
    assert response.status_code == 400
    assert "at least 2 different options" in response.content.decode()
    assert not Debate.objects.exists()


def test_the_rerun_form_is_prefilled_with_the_options(member_client, make_debate):
    debate = make_debate(run=False, options=["Kafka", "SQS"])
    html = member_client.get(f"/debates/{debate.code}/rerun").content.decode()
    assert 'name="options"' in html and 'value="Kafka, SQS"' in html


def test_the_api_takes_options_and_returns_agreement_per_round(member_client, make_debate):
    response = member_client.post("/api/debates/", json.dumps(
        {"question": "Kafka or SQS?", "mode": "quick", "options": ["Kafka", "SQS", "either"]}),
        content_type="application/json")
    assert response.status_code == 201, response.content
    created = Debate.objects.get(code=response.json()["code"])
    assert created.settings["options"] == ["Kafka", "SQS", "either"]
    bad = member_client.post("/api/debates/", json.dumps(
        {"question": "Kafka or SQS?", "options": "Kafka"}), content_type="application/json")
    assert bad.status_code == 400 and "at least 2" in bad.json()["detail"]

    debate = make_debate(script=SPLIT, max_rounds=1)
    detail = member_client.get(f"/api/debates/{debate.code}").json()
    assert detail["options"] is None
    rounds = {m["round"]: m for m in detail["metrics"]}
    assert rounds[0]["verdict_counts"] == {"for": 2, "against": 1}
    assert abs(rounds[0]["agreement"] - 2 / 3) < 1e-9 and rounds[0]["leading_verdict"] == "for"
    assert rounds[1]["agreement"] == 1.0
    synthesis = member_client.get(f"/api/debates/{debate.code}/synthesis").json()
    assert synthesis["verdicts_before"]["counts"] == {"for": 2, "against": 1}
    assert synthesis["verdicts_after"]["supporters"] == 3
    assert synthesis["options"] == ["for", "against", "conditional"]


def test_agreement_is_measured_with_the_other_round_metrics(make_debate):
    debate = make_debate(script=SPLIT, max_rounds=1)
    rows = round_measures(debate=debate)
    assert [round(r["agreement"], 2) for r in rows] == [0.67, 1.0]
    assert [r["leading_verdict"] for r in rows] == ["for", "for"]
    assert rows[1]["verdict_counts"] == {"for": 3}


def test_agent_cards_carry_each_verdict_and_the_chart_draws_agreement(member_client,
                                                                      make_debate):
    debate = make_debate(script=SPLIT, max_rounds=1)
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert html.count('class="badge verdict-badge"') == 3
    assert 'class="series agreement"' in html
    assert "agreement, round 0: 0.67" in html and "agreement, round 1: 1.00" in html


def test_the_chart_has_an_agreement_series_only_when_there_are_verdicts():
    chart = convergence_chart([("Ann", [0.5, 0.6])], [0.0, 0.1], [0.5, 1.0])
    assert chart.agreement is not None
    assert [p.value for p in chart.agreement.points] == [0.5, 1.0]
    assert chart.agreement.points[1].y == chart.top  # 1.0 at the top of the plot
    assert convergence_chart([("Ann", [0.5, 0.6])], [0.0, 0.1]).agreement is None


def test_the_synthesis_opens_with_the_split_before_and_after(member_client, make_debate):
    debate = make_debate(script=SPLIT, max_rounds=1)
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    split = html.index("before the debate 2 of 3 for, 1 against · after the debate 3 of 3 for")
    assert split < html.index("Protocol") < html.index("Recommended path")
    assert "against → for" in html  # Ann's verdict by round in the panel table
    assert "Largest group" not in html


def test_a_japanese_synthesis_gives_the_split_in_japanese(member_client, make_debate):
    debate = make_debate(script=SPLIT, max_rounds=1,
                         question="来年、東京に新しいオフィスを開設すべきでしょうか？")
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert "議論前 3 名中 2 名が賛成、1 名が反対 · 議論後 3 名中 3 名が賛成" in html


def test_compare_shows_how_the_split_moved_in_each_run(member_client, make_debate):
    a = make_debate(script=SPLIT, max_rounds=1)
    b = make_debate(script={"agents": [
        {"name": "Ann Hawk", "position_confidence": 0.8, "position_verdict": "against"},
        {"name": "Bo Dove", "position_confidence": 0.8, "position_verdict": "against"},
        {"name": "Cy Owl", "position_confidence": 0.8, "position_verdict": "for"},
    ]}, max_rounds=1, parent=a)
    html = member_client.get("/debates/compare", {"a": a.code, "b": b.code}).content.decode()
    assert "How the verdicts moved" in html
    cells = re.sub(r'<td[^>]*>', "<td>", html)  # the cells carry their column (phones)
    assert "2 of 3 for, 1 against</td><td>3 of 3 for</td><td>0.67 → 1.00" in cells
    assert "2 of 3 against, 1 for</td><td>2 of 3 against, 1 for</td><td>0.67 → 0.67" in cells
    result = DebateResult.model_validate(b.synthesis.result)
    assert result.verdicts_after.leading == "against"
