"""After Stop the round a worker is still running stays on the page (running); the
diagnostic's words on the pages follow its numbers."""

from __future__ import annotations

from debates.models import Debate
from debates.runtime.execution import run_next_step
from debates.services import debate_stop


def _positions_done(make_debate):
    debate = make_debate(run=False)
    for _ in range(3):  # compose, premortem, positions
        assert run_next_step(debate.code)
    return Debate.objects.get(pk=debate.pk)


def test_after_stop_the_running_round_stays_visible(member_client, make_debate):
    debate = _positions_done(make_debate)
    # A worker has started round 1 (its first turn not in yet) when the user stops.
    Debate.objects.filter(pk=debate.pk).update(current_step="round 1", status="running")
    debate_stop(debate=debate)
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "stop requested" in html
    assert 'aria-current="step"><span class="dot" aria-hidden="true"></span>round 1' in html
    assert "now: <strong>round 1</strong>" in html
    # Synthesis waits for that round, it is not the step running now.
    assert 'aria-current="step"><span class="dot" aria-hidden="true"></span>synthesis' \
        not in html


def test_without_a_running_round_stop_shows_no_phantom_round(member_client, make_debate):
    debate = _positions_done(make_debate)
    Debate.objects.filter(pk=debate.pk).update(current_step="", status="running")
    debate_stop(debate=debate)
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "</span>round 1" not in html


def test_the_pages_word_the_diagnostic_from_its_numbers(member_client, team, owner):
    from tests.factories import add_synthesis, make_debate

    debate = make_debate(team, owner)
    synthesis = add_synthesis(debate)
    synthesis.result["diagnostic"] = {
        "label": "false_consensus_risk", "mean_before": 0.61, "mean_after": 0.63,
        "dispersion_before": 0.16, "dispersion_after": 0.03, "mean_trend": "stable",
        "dispersion_trend": "narrowed", "largest_move": 0.2, "agreement_after": 1.0,
        "dispersion_limit": 0.3}
    synthesis.save()
    Debate.objects.filter(pk=debate.pk).update(status="succeeded")
    for url in (f"/debates/{debate.code}/", f"/debates/{debate.code}/synthesis"):
        html = member_client.get(url).content.decode()
        assert "agents met in the middle without growing surer" in html, url
        assert "without moving" not in html, url
