"""File names as pages show them, and as forms take them (issue 39; docs/web.md,
"Sources"): a name with bidirectional controls is stored as given (the API returns it)
but shown without them, in the source's title, its pages and its refusals, and in an
evaluation's label; a NUL in an uploaded file's name is a 400 on a form, as on the API,
where Django's parser dropped it silently."""

from __future__ import annotations

import base64
import json

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from evaluations.models import Evaluation
from sources.models import Source, SourceVersion
from view_kit.file_names import shown_file_name

SPOOF = "invoice\u202egpj.txt"  # shows as "invoicetxt.jpg"


def test_the_helper_drops_every_bidirectional_control() -> None:
    name = "a\u202ab\u202bc\u202cd\u202de\u202ef\u2066g\u2067h\u2068i\u2069j\u200ek\u200fl\u061cm"
    assert shown_file_name(name) == "abcdefghijklm"
    assert shown_file_name("Résumé 2026 (final).pdf") == "Résumé 2026 (final).pdf"


def test_a_spoofed_source_name_is_stored_as_given_and_shown_without_controls(
        owner_client, team) -> None:
    answer = owner_client.post("/api/sources/", json.dumps({
        "filename": SPOOF, "content_base64": base64.b64encode(b"Numbers.").decode()}),
        content_type="application/json")
    assert answer.status_code == 201
    assert answer.json()["current"]["filename"] == SPOOF
    source = Source.objects.get()
    assert source.title == "invoicegpj"
    page = owner_client.get(reverse("sources:detail", args=[source.code])).content.decode()
    assert "invoicegpj.txt" in page and "\u202e" not in page
    assert SourceVersion.objects.get().filename == SPOOF


def test_a_refusal_names_the_file_without_controls(owner_client, team) -> None:
    answer = owner_client.post("/api/sources/", json.dumps({
        "filename": "x\u202eexe.md", "content_base64": base64.b64encode(b"a\x00b").decode()}),
        content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["message"].startswith("Nothing was saved: xexe.md: ")


def test_an_evaluation_label_is_shown_without_controls(member_client, team) -> None:
    text = '{"question": "Is 2 > 1?", "options": ["yes", "no"], "answer": "yes"}\n'
    created = member_client.post("/api/evaluations/", json.dumps({
        "set": "upload", "n": 1, "agents": 3, "sim_accuracy": 0.6,
        "upload": {"filename": "q\u202elsnoj.jsonl", "content": text}}),
        content_type="application/json")
    assert created.status_code == 201, created.content
    evaluation = Evaluation.objects.get()
    assert evaluation.set_label == "q\u202elsnoj.jsonl"
    for url in ("/evaluations/", f"/evaluations/{evaluation.code}/"):
        page = member_client.get(url).content.decode()
        assert "qlsnoj.jsonl" in page and "\u202e" not in page


def test_a_nul_in_an_uploaded_file_name_is_a_400_on_the_form(owner_client, team) -> None:
    upload = SimpleUploadedFile("notes\x00.md", b"Numbers.")
    response = owner_client.post(reverse("sources:upload"), {"files": [upload]})
    assert response.status_code == 400
    assert not Source.objects.exists()
    fine = owner_client.post(reverse("sources:upload"),
                             {"files": [SimpleUploadedFile("notes.md", b"Numbers.")]})
    assert fine.status_code == 302 and Source.objects.count() == 1
