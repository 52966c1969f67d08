"""The live debate page (/debates/<uuid>/) of a running or finished debate."""

from __future__ import annotations

from debates.runtime.execution import run_next_step
from debates.selectors import round_measures
from tests.web.htmltools import elements, id_counts

SWAP_TARGETS = ("debate-answer", "debate-decision", "debate-status", "debate-stepper",
                "debate-agents", "debate-chart", "debate-synthesis", "debate-rounds",
                "debate-activity", "debate-seq")


def test_finished_debate_page_shows_stepper_agents_rounds_chart_and_synthesis(
        member_client, finished):
    response = member_client.get(f"/debates/{finished.code}/")
    assert response.status_code == 200
    html = response.content.decode()
    for target in SWAP_TARGETS:
        assert id_counts(html)[target] == 1, target
    tags = [el.tag for el in elements(html)]
    assert "svg" in tags and "polyline" in tags
    assert "Simulated model" in html
    assert finished.stop_reason.replace("_", " ") in html
    assert finished.stop_explanation.split(" ")[0] in html
    assert "Diagnostic" in html
    for agent in finished.agents.all():
        assert agent.name in html
    assert f"/debates/{finished.code}/synthesis" in html
    assert 'ws-connect="/ws/debates/' in html
    assert f'data-last-seq="{finished.last_event_seq}"' in html
    assert "Round 1" in html and "Positions (round 0)" in html
    assert 'class="step step-done"' in html and "step-running" not in html
    assert 'value="100"' in html  # progress


def test_running_debate_shows_the_current_step_and_who_is_thinking(member_client, make_debate):
    debate = make_debate(run=False)
    for _ in range(3):  # compose, premortem, position
        run_next_step(debate.code)
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "step-running" in html
    assert "now: <strong>round 1</strong>" in html
    assert "thinking…" in html
    assert "Stop now" in html and "Cancel" in html


def test_viewer_sees_the_page_without_action_buttons(viewer_client, finished):
    html = viewer_client.get(f"/debates/{finished.code}/").content.decode()
    assert "One more round" not in html and "Re-run" not in html


# session, user, access (2), the detail selector (7), nav (team switcher), the debate's
# sources (their text for the state, their list on the page: the sources app's)
QUERY_BOUND = 18


def test_page_runs_the_same_bounded_number_of_queries_for_3_and_7_agents(
        member_client, make_debate, django_assert_max_num_queries):
    counts = []
    for agents in (3, 7):
        # A fixed seed: a random one could let the simulated panel agree in round 1.
        debate = make_debate(mode="deep", agents=agents, threshold=0.01, max_rounds=4, seed=7)
        assert len(round_measures(debate=debate)) >= 3  # positions and at least two rounds
        with django_assert_max_num_queries(QUERY_BOUND) as queries:
            response = member_client.get(f"/debates/{debate.code}/")
        assert response.status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1], counts


def test_after_the_rule_stops_the_synthesis_runs_not_a_round_the_cap_would_allow(
        member_client, make_debate):
    stuck = {"remaining_disagreements": ["Usage pricing will scare our largest customers"]}
    script = {"agents": [{"name": n, "position_confidence": c, "rounds": [stuck, stuck]}
                         for n, c in (("Ann", 0.1), ("Bo", 0.9), ("Cy", 0.5))]}
    debate = make_debate(run=False, script=script, max_rounds=4)
    for _ in range(5):  # compose, premortem, position, round 1, round 2
        run_next_step(debate.code)
    debate.refresh_from_db()
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "now: <strong>synthesis</strong>" in html
    assert "round 3" not in html.split('id="debate-stepper"')[1].split("</ol>")[0]
