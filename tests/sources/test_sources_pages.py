"""The source pages: library upload and list, a source's versions and passages, the
new-debate form and the re-run with sources, a debate's source with cited passages
highlighted, and untrusted text kept harmless."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from debates.debate_sources import Upload
from debates.models import Debate, Synthesis
from sources.models import DebateSource, Source, SourceVersion
from sources.services import extract_version, sources_upload
from tests.source_files import docx_bytes, pdf_bytes, zip_bomb

pytestmark = pytest.mark.django_db

TEXT = ("# Costs\n\nKafka costs 4,200 USD a month.\n\n" + "Filler sentence. " * 90
        + "\n\nSQS costs 900 USD a month.\n\n<script>alert(1)</script> [x](javascript:alert(2))")


def ready_source(team, owner, name="costs.md", text=TEXT):
    [version] = sources_upload(team=team, user=owner, files=[Upload(name, text.encode())])
    extract_version(str(version.code))
    version.refresh_from_db()
    return version


def test_library_upload_lists_the_file_and_its_reading(owner_client, team):
    docx = SimpleUploadedFile("review.docx", docx_bytes("Review", ["Two outages."]))
    response = owner_client.post(reverse("sources:upload"), {"files": [docx]})
    assert response.status_code == 302
    version = SourceVersion.objects.get()
    page = owner_client.get(reverse("sources:library")).content.decode()
    assert "review" in page and "waiting to be read" in page and 'hx-trigger="every 3s"' in page
    extract_version(str(version.code))
    page = owner_client.get(reverse("sources:library")).content.decode()
    assert "ready" in page and "every 3s" not in page


def test_a_refused_upload_says_why_and_saves_nothing(owner_client, team):
    bomb = SimpleUploadedFile("bomb.xlsx", zip_bomb("xlsx"))
    response = owner_client.post(reverse("sources:upload"), {"files": [bomb]}, follow=True)
    assert "zip bomb" in response.content.decode()
    assert not Source.objects.exists()


def test_source_page_shows_versions_and_sanitised_passages(owner_client, team, owner):
    version = ready_source(team, owner)
    page = owner_client.get(reverse("sources:detail", args=[version.source.code])).content.decode()
    assert "Version 1" in page and 'id="p1"' in page and 'id="p2"' in page
    assert "<script>alert(1)" not in page and "href=\"javascript" not in page
    assert 'data-confirm="Delete costs and all its versions?' in page  # asks first
    assert "&lt;script&gt;alert(1)" in page


def test_viewers_read_but_get_no_upload_form(client, viewer, team, owner):
    version = ready_source(team, owner)
    client.force_login(viewer)
    page = client.get(reverse("sources:library")).content.decode()
    assert "costs" in page and 'action="/sources/upload"' not in page
    page = client.get(reverse("sources:detail", args=[version.source.code])).content.decode()
    assert "New version" not in page


def test_the_new_debate_form_uploads_and_picks_library_sources(owner_client, team, owner):
    version = ready_source(team, owner)
    form = owner_client.get(reverse("debates:new")).content.decode()
    assert 'enctype="multipart/form-data"' in form and 'name="source_files"' in form
    assert f'value="{version.source.code}"' in form
    upload = SimpleUploadedFile("notes.txt", b"The team prefers managed services.")
    response = owner_client.post(reverse("debates:new"), {
        "question": "Kafka or SQS for the event bus?", "mode": "quick", "model": "sim/default",
        "protocol": "council", "library_sources": [str(version.source.code)],
        "source_files": [upload]})
    assert response.status_code == 302, response.content.decode()[:2000]
    debate = Debate.objects.get()
    links = list(DebateSource.objects.filter(debate=debate))
    assert [(lk.source_id, lk.title) for lk in links] == [("S1", "costs"), ("S2", "notes")]
    page = owner_client.get(reverse("debates:detail", args=[debate.code])).content.decode()
    # The form read the upload before making the debate: nothing is left to wait for.
    assert "S2" in page and "being read" not in page
    assert links[1].version.status == "ready" and links[1].version.text.startswith("The team")


def test_a_scan_with_no_text_on_the_form_is_refused_and_no_debate_is_made(owner_client, team):
    """The form reads the file before it makes the debate: a scanned PDF is the form's
    answer, not a debate failing a few seconds later (issue 41, item 6)."""
    response = owner_client.post(reverse("debates:new"), {
        "question": "Kafka or SQS for the event bus?", "mode": "quick", "model": "sim/default",
        "protocol": "council", "source_files": [SimpleUploadedFile("scan.pdf", pdf_bytes())]})
    assert response.status_code == 400 and "no text layer" in response.content.decode()
    assert not Debate.objects.exists() and not Source.objects.exists()


def test_a_refused_file_on_the_form_leaves_no_debate(owner_client, team):
    response = owner_client.post(reverse("debates:new"), {
        "question": "Kafka or SQS for the event bus?", "mode": "quick", "model": "sim/default",
        "protocol": "council",
        "source_files": [SimpleUploadedFile("fake.pdf", b"just words")]})
    assert response.status_code == 400 and "not a PDF" in response.content.decode()
    assert not Debate.objects.exists() and not Source.objects.exists()


def test_the_rerun_form_keeps_or_drops_sources(owner_client, team, owner):
    from debates.services import DebateSpec, debate_start

    a, b = ready_source(team, owner), ready_source(team, owner, "plan.txt", "The plan.")
    parent = debate_start(team=team, user=owner, spec=DebateSpec(
        question="Kafka or SQS?", mode="quick", model="sim/default",
        sources=[str(a.code), str(b.code)]))
    form = owner_client.get(reverse("debates:rerun", args=[parent.code])).content.decode()
    assert "S1 · costs" in form and "checked" in form
    response = owner_client.post(reverse("debates:rerun", args=[parent.code]), {
        "question": "Kafka or SQS?", "mode": "quick", "model": "sim/default", "panel": "same",
        "sources_shown": "1", "keep_sources": [str(b.code)]})
    assert response.status_code == 302
    child = Debate.objects.get(parent=parent)
    assert [lk.version_id for lk in child.source_links.all()] == [b.pk]


def test_a_debate_source_anchors_passages_and_highlights_citations(owner_client, team, owner):
    from debates.services import DebateSpec, debate_start

    version = ready_source(team, owner)
    debate = debate_start(team=team, user=owner, spec=DebateSpec(
        question="Kafka or SQS?", mode="quick", model="sim/default", sources=[str(version.code)]))
    url = reverse("sources:debate_source", args=[debate.code, "S1"])
    page = owner_client.get(url, {"cited": "S1.2,bogus"}).content.decode()
    assert 'id="S1.1"' in page and 'class="passage cited" id="S1.2"' in page
    assert 'class="passage cited" id="S1.1"' not in page
    # A result's citations (whatever their shape) highlight their passages too.
    Synthesis.objects.create(debate=debate, result={"citations": [{"passage": "S1.1"}]})
    page = owner_client.get(url).content.decode()
    assert 'class="passage cited" id="S1.1"' in page
    assert owner_client.get(reverse("sources:debate_source",
                                    args=[debate.code, "S9"])).status_code == 404


def test_the_debate_page_reads_no_source_text(owner_client, team, owner):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from debates.services import DebateSpec, debate_start

    version = ready_source(team, owner, text="A long source. " * 20_000)
    debate = debate_start(team=team, user=owner, spec=DebateSpec(
        question="Kafka or SQS?", mode="quick", model="sim/default", sources=[str(version.code)]))
    with CaptureQueriesContext(connection) as queries:
        page = owner_client.get(reverse("debates:detail", args=[debate.code]))
    assert page.status_code == 200 and "S1" in page.content.decode()
    # Listing the sources reads titles and states; their texts (megabytes each) only
    # a debate's step reads.
    reads_text = [q["sql"] for q in queries.captured_queries
                  if '"sources_sourceversion"."text"' in q["sql"]]
    assert reads_text == []
