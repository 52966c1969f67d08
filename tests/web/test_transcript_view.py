"""The transcript: every turn by phase and round, collapsible."""

from __future__ import annotations

from debates.models import Turn


def test_transcript_lists_every_turn_by_phase_and_round(member_client, finished):
    response = member_client.get(f"/debates/{finished.code}/transcript")
    html = response.content.decode()
    assert response.status_code == 200
    for title in ("Compose: the panel", "Premortem", "Positions (round 0)",
                  "Cross-examination, round 1", "Synthesis", "Verifier"):
        assert title in html, title
    agent_turns = Turn.objects.filter(debate=finished, agent_index__gte=0).count()
    panel_turns = Turn.objects.filter(debate=finished, agent_index=-1).count()
    composed = finished.agents.count()
    assert html.count('<details class="turn">') == agent_turns + panel_turns - 1 + composed
    for agent in finished.agents.all():
        assert agent.name in html
    position = Turn.objects.filter(debate=finished, phase="position").first()
    assert position.payload["reasoning"][0].split(" ")[-1].rstrip(".") in html


def test_transcript_of_a_queued_debate_is_empty_but_fine(member_client, make_debate):
    debate = make_debate(run=False)
    assert "No turns yet" in member_client.get(
        f"/debates/{debate.code}/transcript").content.decode()
