"""Uploads checked whole before anything is stored, the quota, the worker's one
extraction, and debates that wait for their sources and keep them on a re-run."""

from __future__ import annotations

from pathlib import Path

import pytest

from debates.debate_sources import Upload
from debates.engine import DebateConfig
from debates.models import Debate, DebateStatus, LLMCall
from debates.runtime.execution import run_next_step, run_to_completion
from debates.runtime.state_rows import load_state, load_state_with_sources
from debates.services import debate_create, debate_rerun
from sources.models import DebateSource, Source, SourceStatus, SourceVersion
from sources.services import SourceError, extract_version, source_delete, sources_upload
from tests.source_files import pdf_bytes, zip_bomb

pytestmark = pytest.mark.django_db

TEXT = b"Kafka costs 4,200 USD a month.\n\nSQS costs 900 USD a month."


def stored_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def test_upload_stores_the_file_and_queues_one_reading(team, owner, media_root,
                                                      django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        [version] = sources_upload(team=team, user=owner, files=[Upload("costs.md", TEXT)])
    assert len(callbacks) == 1
    assert version.status == SourceStatus.PENDING and version.kind == "markdown"
    assert version.size == len(TEXT) and len(version.sha256) == 64
    assert version.source.title == "costs" and version.number == 1
    assert len(stored_files(media_root)) == 1
    assert extract_version(str(version.code)) == SourceStatus.READY
    version.refresh_from_db()
    assert version.text.startswith("Kafka costs")
    # Once: a second delivery of the task reads nothing again.
    assert extract_version(str(version.code)) == SourceStatus.READY


@pytest.mark.parametrize(("name", "data", "says"), [
    ("bomb.docx", zip_bomb("docx"), "zip bomb"),
    ("fake.pdf", b"not a pdf", "not a PDF"),
    ("tool.exe", b"MZ", "not read"),
])
def test_a_refused_file_in_a_batch_saves_nothing(team, owner, media_root, name, data, says):
    with pytest.raises(SourceError, match=says):
        sources_upload(team=team, user=owner,
                       files=[Upload("good.txt", b"fine"), Upload(name, data)])
    assert not Source.objects.exists() and not SourceVersion.objects.exists()
    assert stored_files(media_root) == []


def test_the_quota_is_counted_before_saving(team, owner, media_root, settings):
    settings.COUNCIL_SOURCE_QUOTA_BYTES = 100
    sources_upload(team=team, user=owner, files=[Upload("a.txt", b"a" * 60)])
    with pytest.raises(SourceError, match="do not fit"):
        sources_upload(team=team, user=owner, files=[Upload("b.txt", b"b" * 60)])
    assert Source.objects.count() == 1 and len(stored_files(media_root)) == 1


def test_a_new_version_keeps_the_old_one(team, owner):
    [v1] = sources_upload(team=team, user=owner, files=[Upload("plan.txt", b"one")])
    [v2] = sources_upload(team=team, user=owner, files=[Upload("plan-2.txt", b"two")],
                          source=v1.source)
    assert (v2.source_id, v2.number) == (v1.source_id, 2)
    assert v1.source.current == v2


def test_the_worker_refuses_an_encrypted_pdf_and_deletes_its_file(team, owner, media_root):
    [version] = sources_upload(team=team, user=owner,
                               files=[Upload("locked.pdf", pdf_bytes(["x"], password="pw"))])
    assert extract_version(str(version.code)) == SourceStatus.REFUSED
    version.refresh_from_db()
    assert "encrypted" in version.error and not version.file and version.text == ""
    assert stored_files(media_root) == []


def _debate(team, owner, codes):
    from debates.services import DebateSpec, debate_start

    return debate_start(team=team, user=owner, spec=DebateSpec(
        question="Kafka or SQS for the event bus?", mode="quick", model="sim/default",
        sources=codes))


def test_a_debate_waits_for_its_sources_then_argues_from_them(team, owner):
    [a] = sources_upload(team=team, user=owner, files=[Upload("costs.md", TEXT)])
    [b] = sources_upload(team=team, user=owner, files=[Upload("review.txt", b"Two outages.")])
    debate = _debate(team, owner, [str(a.source.code), str(b.code)])
    assert [link.source_id for link in DebateSource.objects.filter(debate=debate)] == ["S1", "S2"]
    # Not read yet: the step is handed back, nothing asked of a model.
    assert run_next_step(debate.code) is False
    debate.refresh_from_db()
    assert debate.status == DebateStatus.QUEUED and debate.current_step == "sources"
    assert not LLMCall.objects.filter(debate=debate).exists()
    extract_version(str(a.code))
    extract_version(str(b.code))
    assert load_state(debate).sources == []  # what a page reads: no texts
    state = load_state_with_sources(debate)  # what a step reads
    assert [(s.id, s.title) for s in state.sources] == [("S1", "costs"), ("S2", "review")]
    assert state.sources[0].text.startswith("Kafka costs")
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.SUCCEEDED
    # Each turn keeps the passages it was shown, so the evidence need not rebuild them.
    shown = {(t.phase, t.round, t.agent_index): t.offered for t in debate.turns.all()}
    assert shown[("premortem", 0, 0)] and all(
        p.split(".")[0] in ("S1", "S2") for p in shown[("premortem", 0, 0)])
    loaded = load_state(debate)
    assert {(t.phase.value, t.round, t.agent): t.offered
            for t in loaded.turns.values()} == shown
    rerun = debate_rerun(debate=debate, user=owner)
    assert [s.id for s in load_state_with_sources(rerun).sources] == ["S1", "S2"]
    assert [link.version_id for link in rerun.source_links.all()] == [a.pk, b.pk]
    fresh = debate_rerun(debate=debate, user=owner, sources=[str(b.code)])
    assert [s.title for s in load_state_with_sources(fresh).sources] == ["review"]


def test_a_refused_source_fails_the_debate_before_any_model_call(team, owner):
    [version] = sources_upload(team=team, user=owner, files=[Upload("scan.pdf", pdf_bytes())])
    debate = _debate(team, owner, [str(version.code)])
    extract_version(str(version.code))
    run_to_completion(debate.code)
    debate.refresh_from_db()
    assert debate.status == DebateStatus.FAILED
    assert "no text layer" in debate.error and "no model" in debate.error
    assert not LLMCall.objects.filter(debate=debate).exists()


def test_another_teams_source_is_refused_and_nothing_saved(team, owner, other_team):
    [version] = sources_upload(team=other_team, user=None, files=[Upload("x.txt", b"x")])
    from debates.engine import InputError

    before = Debate.objects.count()
    with pytest.raises(InputError, match="Unknown sources"):
        _debate(team, owner, [str(version.source.code)])
    assert Debate.objects.count() == before


def test_delete_waits_for_active_debates_and_removes_files(team, owner, media_root):
    [version] = sources_upload(team=team, user=owner, files=[Upload("a.txt", b"words")])
    extract_version(str(version.code))
    debate = debate_create(team=team, user=owner, question="Kafka or SQS?",
                           config=DebateConfig(mode="quick"), start=False)
    DebateSource.objects.create(debate=debate, position=1, version=version, title="a")
    with pytest.raises(SourceError, match="in use"):
        source_delete(source=version.source)
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.SUCCEEDED)
    source_delete(source=version.source)
    assert stored_files(media_root) == [] and not Source.objects.exists()
    assert DebateSource.objects.get(debate=debate).version is None


def test_the_reading_is_a_worker_task_queued_once_the_upload_commits(
        team, owner, monkeypatch, django_capture_on_commit_callbacks):
    import django_q.tasks

    from sources import tasks

    queued: list[tuple[object, ...]] = []
    monkeypatch.setattr(django_q.tasks, "async_task", lambda *a, **k: queued.append(a))
    with django_capture_on_commit_callbacks(execute=True):
        [version] = sources_upload(team=team, user=owner, files=[Upload("a.md", b"# A")])
        assert queued == []  # nothing before the commit: a worker never reads a half-save
    assert queued == [("sources.tasks.extract_source", str(version.code))]
    func, code = queued[0]
    assert tasks.extract_source(str(code)) == SourceStatus.READY


def test_the_same_file_again_reuses_its_source(team, owner, other_team, media_root):
    """Same bytes (sha256), same team: the source the team has, not a second one of the
    same name; another team's copy, or a file since replaced by a new version, is not
    reused (issue 41, item 6)."""
    [first] = sources_upload(team=team, user=owner, files=[Upload("costs.md", TEXT)])
    [again, twice] = sources_upload(team=team, user=owner, files=[
        Upload("costs (1).md", TEXT), Upload("costs.md", TEXT)])
    assert again.pk == twice.pk == first.pk
    assert Source.objects.filter(team=team).count() == 1 and len(stored_files(media_root)) == 1
    [theirs] = sources_upload(team=other_team, user=None, files=[Upload("costs.md", TEXT)])
    assert theirs.source_id != first.source_id
    sources_upload(team=team, user=owner, files=[Upload("costs.md", b"new costs")],
                   source=first.source)
    [old_bytes] = sources_upload(team=team, user=owner, files=[Upload("costs.md", TEXT)])
    assert old_bytes.source_id != first.source_id


def test_read_now_refuses_a_scan_before_storing_anything(team, owner, media_root):
    with pytest.raises(SourceError, match="no text layer"):
        sources_upload(team=team, user=owner, read_now=True,
                       files=[Upload("notes.md", TEXT), Upload("scan.pdf", pdf_bytes())])
    assert not Source.objects.exists() and stored_files(media_root) == []
    [version] = sources_upload(team=team, user=owner, files=[Upload("notes.md", TEXT)],
                               read_now=True)
    assert version.status == SourceStatus.READY and version.text.startswith("Kafka costs")
