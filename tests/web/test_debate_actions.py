"""Cancel, stop now, one more round and re-run from the debate page (POST, editors)."""

from __future__ import annotations

from debates.models import Debate, DebateStatus
from debates.runtime.execution import run_next_step, run_to_completion
from debates.selectors import round_measures


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_cancel_a_running_debate(member_client, make_debate):
    debate = make_debate(run=False)
    run_next_step(debate.code)
    response = member_client.post(f"/debates/{debate.code}/cancel", {"confirm": "yes"},
                                  follow=True)
    assert response.redirect_chain[-1][0] == f"/debates/{debate.code}/"
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.CANCELLED
    assert "Debate cancelled." in _messages(response)


def test_cancel_of_a_finished_debate_is_refused_with_a_message(member_client, finished):
    response = member_client.post(f"/debates/{finished.code}/cancel", {"confirm": "yes"},
                                  follow=True)
    assert Debate.objects.get(pk=finished.pk).status == DebateStatus.SUCCEEDED
    assert any("Not possible now" in m for m in _messages(response))


def test_stop_now_ends_with_stopped_by_user(member_client, make_debate):
    debate = make_debate(run=False, mode="deep", threshold=0.01)
    for _ in range(4):  # compose, premortem, position, round 1
        run_next_step(debate.code)
    assert member_client.post(f"/debates/{debate.code}/stop").status_code == 302
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED
    assert debate.stop_reason == "stopped_by_user"
    html = member_client.get(f"/debates/{debate.code}/").content.decode()
    assert "stopped by user" in html


def test_one_more_round_reopens_a_finished_debate(member_client, finished):
    rounds = len(round_measures(debate=finished))
    member_client.post(f"/debates/{finished.code}/more-round", {"confirm": "yes"})
    finished.refresh_from_db()
    assert finished.status == DebateStatus.QUEUED
    run_to_completion(finished.code)
    finished.refresh_from_db()
    assert finished.status == DebateStatus.SUCCEEDED
    assert len(round_measures(debate=finished)) == rounds + 1


def test_rerun_form_is_prefilled_from_the_debate(member_client, make_debate):
    debate = make_debate(agents=4, max_rounds=3)
    html = member_client.get(f"/debates/{debate.code}/rerun").content.decode()
    assert debate.question in html
    assert 'name="agents" value="4"' in html and 'name="max_rounds" value="3"' in html
    assert 'value="quick"' in html and "checked" in html


def test_rerun_with_same_settings_links_child_to_parent(member_client, member, finished):
    cfg = finished.settings
    response = member_client.post(f"/debates/{finished.code}/rerun", {
        "question": finished.question, "mode": cfg["mode"], "model": cfg["model"],
        "agents": cfg["agents"], "max_rounds": cfg["max_rounds"],
        "threshold": cfg["threshold"]})
    child = Debate.objects.exclude(pk=finished.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/debates/{child.code}/"
    assert child.parent == finished and child.created_by == member
    # Same settings, but a new draw: the re-run gets (and records) a fresh seed.
    def unseeded(settings):
        return {**settings, "seed": None, "simulator": {**settings["simulator"], "seed": None}}
    assert unseeded(child.settings) == unseeded(finished.settings)
    assert child.settings["seed"] != finished.settings["seed"]
    assert child.settings["simulator"]["seed"] == child.settings["seed"]
    parent_page = member_client.get(f"/debates/{finished.code}/").content.decode()
    assert f"/debates/{child.code}/" in parent_page
    assert f"/debates/compare?a={finished.code}&amp;b={child.code}" in parent_page
    child_page = member_client.get(f"/debates/{child.code}/").content.decode()
    assert "Re-run of" in child_page and f"/debates/{finished.code}/" in child_page


def test_rerun_with_edited_settings(member_client, finished):
    member_client.post(f"/debates/{finished.code}/rerun", {
        "question": "Should we move billing to a new provider next year instead?",
        "mode": "deep", "model": "sim/other", "agents": "", "max_rounds": "2",
        "threshold": "", "anonymize_peers": "on"})
    child = Debate.objects.exclude(pk=finished.pk).get()
    s = child.settings
    assert child.question.endswith("next year instead?")
    assert (s["mode"], s["agents"], s["max_rounds"], s["threshold"], s["model"],
            s["anonymize_peers"]) == ("deep", 7, 2, 0.08, "sim/other", True)


def test_rerun_with_bad_settings_saves_nothing(member_client, finished):
    response = member_client.post(f"/debates/{finished.code}/rerun", {
        "question": " ", "mode": "quick", "model": "sim/default"})
    assert response.status_code == 400
    assert Debate.objects.count() == 1


def test_actions_need_post(member_client, finished):
    for action in ("cancel", "stop", "more-round"):
        assert member_client.get(f"/debates/{finished.code}/{action}").status_code == 405


def test_actions_are_csrf_protected(member, finished, make_debate):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    debate = make_debate(run=False)
    assert client.post(f"/debates/{debate.code}/cancel").status_code == 403
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.QUEUED
    page = client.get(f"/debates/{debate.code}/").content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    client.post(f"/debates/{debate.code}/cancel", {"csrfmiddlewaretoken": token,
                                                "confirm": "yes"})
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.CANCELLED
