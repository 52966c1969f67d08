"""Cancel and "One more round" ask first (a dialog with JS, a page without); a
cancelled debate says who cancelled it and shows no red "failed" step; the "live"
dot is off once a debate has ended."""

from __future__ import annotations

from debates.models import Debate, DebateStatus
from debates.services import debate_cancel


def test_cancel_without_confirmation_asks_on_a_page_and_changes_nothing(member_client,
                                                                        make_debate):
    debate = make_debate(run=False)
    response = member_client.post(f"/debates/{debate.code}/cancel")
    html = response.content.decode()
    assert response.status_code == 200 and "Cancel this debate?" in html
    assert 'name="confirm" value="yes"' in html and "Keep it running" in html
    assert f'action="/debates/{debate.code}/cancel"' in html
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.QUEUED
    member_client.post(f"/debates/{debate.code}/cancel", {"confirm": "yes"})
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.CANCELLED


def test_one_more_round_without_confirmation_asks_first(member_client, finished):
    response = member_client.post(f"/debates/{finished.code}/more-round")
    assert "Run one more round?" in response.content.decode()
    assert Debate.objects.get(pk=finished.pk).status == DebateStatus.SUCCEEDED


def test_the_buttons_carry_the_question_for_the_dialog(member_client, make_debate, finished):
    queued = make_debate(run=False)
    html = member_client.get(f"/debates/{queued.code}/").content.decode()
    assert 'data-confirm="Cancel this debate?' in html
    html = member_client.get(f"/debates/{finished.code}/").content.decode()
    assert 'data-confirm="Run one more round?' in html


def test_a_cancelled_debate_names_who_cancelled_and_has_no_failed_step(member_client,
                                                                      make_debate):
    debate = make_debate(run=False)
    member_client.post(f"/debates/{debate.code}/cancel", {"confirm": "yes"})
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "Cancelled by <strong>member</strong>" in html
    assert "step-failed" not in html and "step-cancelled" in html


def test_a_failed_debate_still_shows_its_failed_step(member_client, make_debate):
    from debates.runtime.execution import _fail
    from debates.runtime.lease import claim

    debate = make_debate(run=False)
    assert claim(debate.code, "worker-1")  # only the lease holder fails a debate
    _fail(debate, "boom", "worker-1")
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "step-failed" in html and "Cancelled by" not in html


def test_the_api_and_a_service_call_record_who_cancelled(member_client, make_debate):
    via_api = make_debate(run=False)
    assert member_client.post(f"/api/debates/{via_api.code}/cancel").status_code == 200
    event = via_api.events.get(kind="debate_cancelled")
    assert event.payload == {"by": "member"}
    anonymous = debate_cancel(debate=make_debate(run=False))
    assert anonymous.events.get(kind="debate_cancelled").payload == {}


def test_the_live_dot_is_off_for_an_ended_debate(member_client, make_debate, finished):
    queued = make_debate(run=False)
    assert 'class="live-dot"' in member_client.get(f"/debates/{queued.code}/").content.decode()
    assert 'class="live-dot"' not in member_client.get(
        f"/debates/{finished.code}/").content.decode()


def test_the_stylesheet_hides_the_dot_when_the_status_card_ends(client):
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static/css/app.css").read_text()
    assert ":has(#debate-status:not(.status-queued):not(.status-running)) .live-dot" in css
    js = (Path(__file__).resolve().parents[2] / "static/js/council.js").read_text()
    assert 'data-confirm' in js and 'window.confirm' in js
