"""The whole loop on the simulated model, with a fixed clock: three debates of the same
three library personas -> the team's decisions -> the daily schedule finds the reviews
due and reminds once -> outcomes recorded over the API -> calibration equal to a hand
computation (docs/teams.md, Scoring)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.module_loading import import_string
from django_q.models import Schedule

from accounts.services import api_token_create
from debates.engine.schemas import Persona, SimulatorOptions
from debates.models import Synthesis
from debates.runtime.execution import run_to_completion
from debates.services import DebateSpec, debate_start
from decisions.models import Decision
from decisions.selectors import decision_state
from decisions.services import decision_record
from notifications.models import Kind, Notification
from notifications.schedules import FOLLOW_UP_SCHEDULE
from personas.services import library_create, persona_create

DECIDED_AT = datetime(2030, 3, 10, 9, 0, tzinfo=UTC)
REVIEW_ON = (DECIDED_AT + timedelta(days=30)).date()
OPTIONS = ["Kafka", "SQS", "Stay"]


def _agent(name, verdict, confidence, *, then=None):
    """A scripted persona: its position, and optionally a change in round 1."""
    scripted = {"name": name, "position_verdict": verdict, "position_confidence": confidence}
    if then:
        scripted["rounds"] = [{"updated_verdict": then[0], "updated_confidence": then[1]}]
    return scripted


# (question, script, the option that proved right). Round-0 majorities: SQS, SQS, Kafka;
# final majorities: Kafka (Ben changes his mind in round 1), SQS, Kafka.
DEBATES = [
    ("Kafka, SQS or stay for billing events?", [
        _agent("Ana", "Kafka", 0.8), _agent("Ben", "SQS", 0.6, then=("Kafka", 0.65)),
        _agent("Cleo", "SQS", 0.7)], "Kafka"),
    ("Kafka, SQS or stay for audit logs?", [
        _agent("Ana", "Kafka", 0.9), _agent("Ben", "SQS", 0.7), _agent("Cleo", "SQS", 0.5)],
     "SQS"),
    ("Kafka, SQS or stay for search indexing?", [
        _agent("Ana", "Stay", 0.6), _agent("Ben", "Kafka", 0.55), _agent("Cleo", "Kafka", 0.75)],
     "Stay"),
]

# By hand, K = 3: a verdict with confidence c puts c on its option and (1 - c)/2 on each
# other; Brier = the mean over the three options of (p - truth)^2.
HAND_BRIER = {
    "Ana": (
        ((1 - .8) ** 2 + .1 ** 2 + .1 ** 2) / 3          # Kafka .8, right
        + (.9 ** 2 + (1 - .05) ** 2 + .05 ** 2) / 3      # Kafka .9, SQS was right
        + (.2 ** 2 + .2 ** 2 + (1 - .6) ** 2) / 3        # Stay .6, right
    ) / 3,
    "Ben": (
        ((1 - .65) ** 2 + .175 ** 2 + .175 ** 2) / 3     # Kafka .65 after round 1, right
        + (.15 ** 2 + (1 - .7) ** 2 + .15 ** 2) / 3      # SQS .7, right
        + (.55 ** 2 + .225 ** 2 + (1 - .225) ** 2) / 3   # Kafka .55, Stay was right
    ) / 3,
    "Cleo": (
        ((1 - .15) ** 2 + .7 ** 2 + .15 ** 2) / 3        # SQS .7, Kafka was right
        + (.25 ** 2 + (1 - .5) ** 2 + .25 ** 2) / 3      # SQS .5, right
        + (.75 ** 2 + .125 ** 2 + (1 - .125) ** 2) / 3   # Kafka .75, Stay was right
    ) / 3,
}


@pytest.fixture
def panel(team, owner):
    library = library_create(team=team, user=owner, name="Platform")
    return [persona_create(library=library, user=owner, data=Persona(
        name=name, background="b", expertise="e", approach="a", bias="x"))
        for name in ("Ana", "Ben", "Cleo")]


def test_debate_decision_review_reminder_outcome_calibration(team, owner, member, panel,
                                                             monkeypatch):
    debates = []
    for question, script, right in DEBATES:
        debate = debate_start(team=team, user=owner, start=False, spec=DebateSpec(
            question=question, mode="quick", options=OPTIONS, model="sim/default",
            simulator=SimulatorOptions(script={"agents": script}),
            library_personas=[str(p.code) for p in panel]))
        run_to_completion(debate.code)
        debate.refresh_from_db()
        assert debate.status == "succeeded", debate.error
        debates.append((debate, right))
    # The simulated debates ended as scripted: Ben moved to Kafka in the first.
    first = Synthesis.objects.get(debate=debates[0][0]).result
    assert first["verdicts_before"]["leading"] == "SQS"
    assert first["verdicts_after"]["leading"] == "Kafka"

    # --- the team decides, with a review in 30 days.
    monkeypatch.setattr(timezone, "now", lambda: DECIDED_AT)
    for debate, _ in debates:
        decision_record(debate=debate, user=member, option="Kafka", rationale="One bus.",
                        review_on=REVIEW_ON)

    # --- the daily schedule: nothing the day before, the reviews on the day, once.
    run = import_string(Schedule.objects.get(name=FOLLOW_UP_SCHEDULE).func)
    monkeypatch.setattr(timezone, "now", lambda: DECIDED_AT + timedelta(days=29))
    assert run()["reviews"] == 0
    on_the_day = DECIDED_AT + timedelta(days=30)
    monkeypatch.setattr(timezone, "now", lambda: on_the_day)
    assert {decision_state(d) for d in Decision.objects.all()} == {"review_due"}
    assert run()["reviews"] == 3
    assert run()["reviews"] == 0
    reminders = Notification.objects.filter(user=member, kind=Kind.REVIEW_DUE)
    assert reminders.count() == 3

    # --- the outcomes, over the API, as a script with the member's token would.
    _, secret = api_token_create(user=member, name="review script")
    api = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    for debate, right in debates:
        response = api.post(
            f"/api/debates/{debate.code}/outcome",
            {"right_option": right, "result": "worked" if right == "Kafka" else "failed"},
            content_type="application/json")
        assert response.status_code == 201, response.content
        assert response.json()["decision_state"] == "reviewed"
    assert run()["reviews"] == 0  # reviewed: no more reminders

    # --- calibration, against the hand computation.
    body = api.get("/api/calibration").json()
    assert [(p["name"], p["scored_decisions"], p["too_few"]) for p in body["personas"]] == [
        ("Ben", 3, True), ("Ana", 3, True), ("Cleo", 3, True)]
    for scored in body["personas"]:
        assert scored["brier"] == pytest.approx(HAND_BRIER[scored["name"]], abs=1e-4)
        assert scored["library_persona"] == str(
            next(p.code for p in panel if p.name == scored["name"]))
    # Round 0 right once (SQS in the second), final right twice: a lift of one in three.
    assert body["panel"]["decisions_scored"] == 3
    assert body["panel"]["initial_accuracy"] == pytest.approx(1 / 3)
    assert body["panel"]["final_accuracy"] == pytest.approx(2 / 3)
    assert body["panel"]["lift"] == pytest.approx(1 / 3)
    # The persona API carries the same records, and the export the outcome.
    for persona in panel:
        record = api.get(f"/api/personas/{persona.code}").json()["calibration"]
        assert record["scored_decisions"] == 3 and record["too_few"]
        assert record["brier"] == pytest.approx(HAND_BRIER[persona.name], abs=1e-4)
    exported = api.get(f"/api/debates/{debates[1][0].code}/export.json").json()
    assert exported["decision"]["outcome"]["right_option"] == "SQS"
    # The calibration page says, per reviewed decision, what its debate changed.
    web = Client()
    web.force_login(member)
    page = web.get("/calibration/").content.decode()
    first = page.split(f'id="reviewed-{debates[0][0].code}"')[1].split("</tr>")[0]
    assert ("First vote: SQS 2:1; after cross-examination: Kafka 2:1 "
            "(the debate changed the answer)") in first
    second = page.split(f'id="reviewed-{debates[1][0].code}"')[1].split("</tr>")[0]
    assert "SQS 2:1 (the debate kept the answer)" in second
