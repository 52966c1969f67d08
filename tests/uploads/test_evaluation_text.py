"""An evaluation set's text is refused, not a server error, when it nests too deeply or
holds a NUL or a lone surrogate, written or escaped (issue 39; docs/engine.md,
"Uploaded text"): a 400 naming the file's line and the problem, on the page and the API,
with nothing saved. PostgreSQL refused such text with DataError (a 500) and SQLite stored
it, after which the questions CSV was a 500 for good: exports now print stored text safely.
"""

from __future__ import annotations

import base64
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from evaluations import runner
from evaluations.models import Evaluation
from evaluations.services import EvaluationRequest, evaluation_start

GOOD = '{"question": "Is 2 > 1?", "options": ["yes", "no"], "answer": "yes"}\n'
HOSTILE = {
    # json.loads recursed once per "[" until RecursionError, a 500 in _jsonl_rows
    "deep": (GOOD + "[" * 100_000 + "]" * 100_000 + "\n", 2, "nested too deeply"),
    "escaped NUL": (GOOD + '{"question": "a\\u0000b?", "options": ["yes", "no"], '
                    '"answer": "yes"}\n', 2, "NUL"),
    "escaped surrogate": ('{"question": "x\\ud800?", "options": ["yes", "no"], '
                          '"answer": "yes"}\n', 1, "surrogate"),
    "NUL in a CSV": ("question,options,answer\nIs 3 > 2?,yes|no,yes\nA\x00B?,yes|no,no\n",
                     3, "NUL"),
}
FORM = {"set_name": "upload", "n": "5", "seed": "3", "arms": ["single", "vote"],
        "agents": "3", "model": "sim/default", "sim_accuracy": "0.6"}
BODY = {"set": "upload", "n": 5, "seed": 3, "agents": 3, "sim_accuracy": 0.6}


def _name(case: str) -> str:
    return "q.csv" if "CSV" in case else "q.jsonl"


@pytest.mark.parametrize("case", HOSTILE)
def test_the_page_answers_400_naming_the_line_and_problem(member_client, case) -> None:
    text, line, problem = HOSTILE[case]
    response = member_client.post("/evaluations/new", {
        **FORM, "upload": SimpleUploadedFile(_name(case), text.encode(), "text/plain")})
    assert response.status_code == 400
    page = response.content.decode()
    assert f"{_name(case)} is refused" in page
    assert f"line {line}:" in page and problem in page
    assert Evaluation.objects.count() == 0


@pytest.mark.parametrize("encoding", ["text", "base64"])
@pytest.mark.parametrize("case", HOSTILE)
def test_the_api_answers_400_naming_the_line_and_problem(member_client, case,
                                                         encoding) -> None:
    text, line, problem = HOSTILE[case]
    if encoding == "text" and "\x00" in text:
        pytest.skip("a literal NUL in a JSON body is the parser's 400 (council_site.api)")
    content = base64.b64encode(text.encode()).decode() if encoding == "base64" else text
    response = member_client.post("/api/evaluations/", json.dumps({
        **BODY, "upload": {"filename": _name(case), "content": content,
                           "content_encoding": encoding}}), content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["message"].startswith(f"{_name(case)} is refused")
    first = response.json()["errors"]["upload"][0]
    assert first.startswith(f"line {line}:") and problem in first
    assert Evaluation.objects.count() == 0


def test_a_surrogate_stored_before_the_check_exports_as_a_replacement_character(
        viewer_client, team, owner) -> None:
    request = EvaluationRequest(set_name="upload", n=1, seed=3, agents=3, sim_accuracy=0.6,
                                upload=GOOD.encode(), filename="q.jsonl")
    evaluation = evaluation_start(team=team, user=owner, request=request)
    while runner.run(evaluation.code):
        pass
    # What SQLite kept from an upload before the check: JSON stores the escape.
    evaluation.refresh_from_db()
    evaluation.questions[0]["text"] = "Is 2 > 1\ud800?"
    Evaluation.objects.filter(pk=evaluation.pk).update(questions=evaluation.questions)
    for path in (f"/evaluations/{evaluation.code}/questions.csv",
                 f"/api/evaluations/{evaluation.code}/export.csv?rows=questions"):
        response = viewer_client.get(path)
        assert response.status_code == 200
        assert "Is 2 > 1\ufffd?" in response.content.decode()
