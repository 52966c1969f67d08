"""Re-runs: the same panel by default (composed members included), or a fresh one; the
background can be edited on the re-run form."""

from __future__ import annotations

import pytest

from debates.engine.inputs import InputError
from debates.models import Debate
from debates.runtime.execution import run_to_completion
from debates.services import debate_rerun


def _names(debate):
    return list(debate.agents.order_by("index").values_list("name", flat=True))


def _personas(debate):
    return [a.persona for a in debate.agents.order_by("index")]


def test_a_rerun_sits_the_same_panel_by_default(finished, member):
    assert finished.given_personas == []  # the whole panel was composed
    rerun = debate_rerun(debate=finished, user=member)
    assert [p["name"] for p in rerun.given_personas] == _names(finished)
    run_to_completion(rerun.code)
    assert _personas(rerun) == _personas(finished)
    assert rerun.llm_calls.filter(phase="compose").count() == 0  # nobody composed anew


def test_a_fresh_panel_composes_anew(finished, member):
    rerun = debate_rerun(debate=finished, user=member, panel="fresh")
    assert rerun.given_personas == []
    run_to_completion(rerun.code)
    assert rerun.llm_calls.filter(phase="compose").exists()


def test_an_unknown_panel_choice_is_refused(finished, member):
    with pytest.raises(InputError, match="unknown panel choice"):
        debate_rerun(debate=finished, user=member, panel="random")
    assert Debate.objects.count() == 1


def test_the_form_offers_the_panel_and_the_background(member_client, make_debate):
    parent = make_debate()
    Debate.objects.filter(pk=parent.pk).update(context="Budget: 40k EUR.")
    html = member_client.get(f"/debates/{parent.code}/rerun").content.decode()
    assert 'name="context"' in html and "Budget: 40k EUR." in html
    assert 'name="panel" value="same"' in html and 'value="fresh"' in html
    same = html.split('value="same"')[1].split("</label>")[0]
    assert "checked" in same and all(name in same for name in _names(parent))


def test_posting_a_fresh_panel_and_an_edited_background(member_client, finished):
    cfg = finished.settings
    response = member_client.post(f"/debates/{finished.code}/rerun", {
        "question": finished.question, "context": "  The vendor cut prices by 30%.  ",
        "panel": "fresh", "mode": cfg["mode"], "model": cfg["model"]})
    child = Debate.objects.exclude(pk=finished.pk).get()
    assert response.status_code == 302
    assert child.context == "The vendor cut prices by 30%." and child.given_personas == []


def test_posting_the_default_keeps_the_panel(member_client, finished):
    cfg = finished.settings
    member_client.post(f"/debates/{finished.code}/rerun", {
        "question": finished.question, "context": "", "panel": "same",
        "mode": cfg["mode"], "model": cfg["model"]})
    child = Debate.objects.exclude(pk=finished.pk).get()
    assert [p["name"] for p in child.given_personas] == _names(finished)
    assert child.context == ""


def test_a_background_over_the_limit_is_refused(member_client, finished):
    cfg = finished.settings
    response = member_client.post(f"/debates/{finished.code}/rerun", {
        "question": finished.question, "context": "x" * 20_001, "mode": cfg["mode"],
        "model": cfg["model"]})
    assert response.status_code == 400 and "The background is 20,001 characters" in \
        response.content.decode()
    assert Debate.objects.count() == 1


def test_a_rerun_keeps_the_parents_decision_rule(member, make_debate, member_client):
    parent = make_debate()
    Debate.objects.filter(pk=parent.pk).update(
        settings={**parent.settings, "decision_rule": "confidence"})
    html = member_client.get(f"/debates/{parent.code}/rerun").content.decode()
    chosen = html.split('name="decision_rule"')[1].split("</select>")[0]
    assert '<option value="confidence" selected>' in chosen
    rerun = debate_rerun(debate=Debate.objects.get(pk=parent.pk), user=member)
    assert rerun.settings["decision_rule"] == "confidence"
