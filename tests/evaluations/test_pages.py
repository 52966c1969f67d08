"""The Evaluations pages: list, form, detail with its live part, cancel, exports."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from debates.engine.prompts import PROMPT_VERSION
from evaluations import runner
from evaluations.models import Evaluation, EvaluationStatus
from evaluations.services import EvaluationRequest, evaluation_start
from tests.factories import versions_mixed

FORM = {"set_name": "compare", "n": "40", "seed": "3", "arms": ["single", "vote", "council"],
        "agents": "5", "model": "sim/default", "sim_accuracy": "0.6"}


def finished(team, owner, **given) -> Evaluation:  # noqa: ANN001, ANN003
    request = EvaluationRequest(**{"set_name": "compare", "n": 12, "seed": 3, "agents": 3,
                                   "sim_accuracy": 0.6, **given})
    evaluation = evaluation_start(team=team, user=owner, request=request)
    while runner.run(evaluation.code):
        pass
    evaluation.refresh_from_db()
    return evaluation


def test_the_nav_links_the_list_and_viewers_read_it(viewer_client, team, owner) -> None:
    e = finished(team, owner)
    page = viewer_client.get("/evaluations/").content.decode()
    assert 'href="/evaluations/"' in page and str(e.code) in page
    assert "New evaluation" not in page  # viewers read only
    assert "run an evaluation on your own model and panel" in page


def test_an_editor_starts_one_from_the_form(member_client) -> None:
    response = member_client.post("/evaluations/new", FORM)
    assert response.status_code == 302
    evaluation = Evaluation.objects.get()
    assert response["Location"] == f"/evaluations/{evaluation.code}/"
    assert evaluation.spec["sim_accuracy"] == 0.6 and evaluation.total == 40


def test_a_refused_upload_shows_every_problem_with_its_line(member_client) -> None:
    data = (b'{"question": "Is 2 > 1?", "options": ["yes", "no"], "answer": "maybe"}\n'
            b'{"question": "", "options": ["yes", "no"], "answer": "yes"}\n')
    response = member_client.post("/evaluations/new", {
        **FORM, "set_name": "upload",
        "upload": SimpleUploadedFile("mine.jsonl", data, "application/jsonl")})
    assert response.status_code == 400
    page = response.content.decode()
    assert "nothing was saved" in page
    assert "line 1:" in page and "line 2:" in page
    assert Evaluation.objects.count() == 0


def test_too_few_decisions_are_said_on_the_form(member_client) -> None:
    response = member_client.post("/evaluations/new", {**FORM, "set_name": "decisions"})
    assert response.status_code == 400
    assert "no reviewed decision" in response.content.decode()


def test_the_detail_page_polls_while_running_and_shows_the_results_when_done(
        viewer_client, team, owner) -> None:
    queued = evaluation_start(team=team, user=owner, request=EvaluationRequest(
        set_name="compare", n=12, agents=3, sim_accuracy=0.6))
    page = viewer_client.get(f"/evaluations/{queued.code}/").content.decode()
    assert f'hx-get="/evaluations/{queued.code}/progress"' in page
    assert "0 of 12 questions" in page and "Simulated:" in page
    while runner.run(queued.code):
        pass
    live = viewer_client.get(f"/evaluations/{queued.code}/progress").content.decode()
    assert "hx-trigger" not in live  # done: the polling stops
    assert 'id="arms-table"' in live and 'class="chart arms-chart"' in live
    assert "Exact McNemar" in live and 'id="paired-table"' in live
    assert "evaluation-cancel" not in live


def test_a_small_run_is_marked_not_a_finding(viewer_client, team, owner) -> None:
    e = finished(team, owner, n=10)
    page = viewer_client.get(f"/evaluations/{e.code}/").content.decode()
    assert page.count("not a finding") >= 4  # each arm, and the paired comparison


def test_an_editor_cancels_a_running_one(member_client, team, owner) -> None:
    e = evaluation_start(team=team, user=owner, request=EvaluationRequest(
        set_name="compare", n=40, sim_accuracy=0.6))
    runner.run(e.code, budget_s=-1)
    page = member_client.get(f"/evaluations/{e.code}/").content.decode()
    assert 'id="evaluation-cancel"' in page
    assert member_client.post(f"/evaluations/{e.code}/cancel").status_code == 302
    e.refresh_from_db()
    assert e.status == EvaluationStatus.CANCELLED


def test_exports(viewer_client, team, owner) -> None:
    e = finished(team, owner)
    data = json.loads(viewer_client.get(f"/evaluations/{e.code}/export.json").content)
    assert data["report"]["arms"]["vote"]["n"] == 12 and data["simulated"] is True
    arms = list(csv.DictReader(io.StringIO(
        viewer_client.get(f"/evaluations/{e.code}/arms.csv").content.decode())))
    assert [r["arm"] for r in arms] == ["single", "vote", "council", "synthesis"]
    assert float(arms[1]["accuracy"]) == data["report"]["arms"]["vote"]["accuracy"]
    questions = list(csv.DictReader(io.StringIO(
        viewer_client.get(f"/evaluations/{e.code}/questions.csv").content.decode())))
    assert len(questions) == 12 and questions[0]["answer"] in ("yes", "no")
    assert {"single_answer", "vote_right", "council_right"} <= set(questions[0])


def test_an_uploaded_formula_is_quoted_in_the_csv(viewer_client, team, owner) -> None:
    data = b'{"question": "=HYPERLINK(\\"x\\")", "options": ["yes", "no"], "answer": "yes"}\n'
    e = finished(team, owner, set_name="upload", upload=data, filename="f.jsonl", n=1)
    body = viewer_client.get(f"/evaluations/{e.code}/questions.csv").content.decode()
    assert "'=HYPERLINK" in body


@pytest.mark.parametrize("path", ["", "progress", "export.json", "arms.csv", "questions.csv"])
def test_other_teams_get_404(outsider_client, team, owner, path) -> None:
    e = finished(team, owner, n=3)
    assert outsider_client.get(f"/evaluations/{e.code}/{path}").status_code == 404


def test_a_model_without_a_price_shows_its_cost_as_unknown_not_free(
        viewer_client, team, owner) -> None:
    e = finished(team, owner, n=10)
    # As a run on an unpriced model stores it: no estimate, each arm's cost unknown.
    for result in e.results.all():
        for arm in result.outcome["arms"].values():
            arm["cost_usd"] = None
        result.save()
    Evaluation.objects.filter(pk=e.pk).update(estimated_cost_usd=None, report=None)
    page = viewer_client.get(f"/evaluations/{e.code}/").content.decode()
    assert "Cost: unknown" in page and "$0.0000" not in page
    row = page.split('data-arm="council"')[1].split("</tr>")[0]
    assert row.count(">unknown<") == 2  # the cost and the cost per right answer
    data = json.loads(viewer_client.get(f"/evaluations/{e.code}/export.json").content)
    assert data["cost_usd"] is None and data["report"]["arms"]["council"]["cost_known"] is False


def test_the_page_shows_the_arms_asked_for_free_when_simulated_and_right_plurals(
        viewer_client, team, owner) -> None:
    """Issue 41, item 6: no "synthesis" row nobody asked for (the exports keep it),
    "free (simulated)" instead of $0.0000, and "1 of 1 question"."""
    e = finished(team, owner, n=1, arms=["vote", "council"])
    page = viewer_client.get(f"/evaluations/{e.code}/").content.decode()
    assert 'data-arm="vote"' in page and 'data-arm="council"' in page
    assert 'data-arm="synthesis"' not in page and 'data-arm="single"' not in page
    assert "free (simulated)" in page and "$0.0000" not in page
    assert "1 of 1 question<" in page and "1 questions" not in page


def test_the_mixed_arms_name_their_models_and_their_paired_comparisons(
        member_client, viewer_client, team, owner) -> None:
    """Issue 42, item 5: the mixed arms beside the one-model arms, each naming its models,
    the mixed pairs with their McNemar p, the form taking the panel's models."""
    form = member_client.get("/evaluations/new").content.decode()
    assert 'name="panel_models"' in form and 'value="mixed_council"' in form
    response = member_client.post("/evaluations/new", {
        **FORM, "arms": ["vote", "council", "mixed_vote", "mixed_council"],
        "agents": "3", "panel_models": "sim/a, sim/b"})
    assert response.status_code == 302
    assert Evaluation.objects.get().spec["panel_models"] == ["sim/a", "sim/b"]
    e = finished(team, owner, n=2, arms=["council", "mixed_council"],
                 panel_models=["sim/a", "sim/b", "sim/c"])
    page = viewer_client.get(f"/evaluations/{e.code}/").content.decode()
    assert 'data-arm="mixed_council"' in page and 'data-arm="council"' in page
    assert "sim/a, sim/b, sim/c</td>" in page and ">sim/a</td>" in page
    assert "mixed panel sim/a, sim/b, sim/c" in page
    assert 'data-pair="mixed_council_vs_council"' in page
    assert "mixed_council against council: exact McNemar p = " in page
    arms = {r["arm"]: r for r in csv.DictReader(io.StringIO(viewer_client.get(
        f"/evaluations/{e.code}/arms.csv").content.decode()))}
    assert arms["mixed_council"]["models"] == "sim/a|sim/b|sim/c"
    # The questions' export names each seat's model in both debates.
    rows = list(csv.DictReader(io.StringIO(viewer_client.get(
        f"/evaluations/{e.code}/questions.csv").content.decode())))
    assert [(r["seat_models"], r["mixed_seat_models"]) for r in rows] == [
        ("sim/a|sim/a|sim/a", "sim/a|sim/b|sim/c")] * 2
    refused = member_client.post("/evaluations/new", {
        **FORM, "arms": ["mixed_vote"], "agents": "3", "panel_models": ""})
    assert refused.status_code == 400
    assert "need a panel of at least two different models" in refused.content.decode()


def test_a_run_that_spans_prompt_versions_says_so_and_its_questions_name_theirs(
        viewer_client, team, owner) -> None:
    e = finished(team, owner, n=3)
    page = viewer_client.get(f"/evaluations/{e.code}/").content.decode()
    assert 'id="mixed-prompt-versions"' not in page
    versions_mixed(e)
    page = viewer_client.get(f"/evaluations/{e.code}/").content.decode()
    assert f"Mixed prompt versions, questions each: v0 (1), {PROMPT_VERSION} (2)." in page
    data = json.loads(viewer_client.get(f"/evaluations/{e.code}/export.json").content)
    assert data["report"]["prompt_versions"] == {"v0": 1, PROMPT_VERSION: 2}
    rows = list(csv.DictReader(io.StringIO(viewer_client.get(
        f"/evaluations/{e.code}/questions.csv").content.decode())))
    assert [r["prompt_version"] for r in rows] == ["v0", PROMPT_VERSION, PROMPT_VERSION]
