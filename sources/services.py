"""Writes on a team's sources: upload (checked whole before a byte is stored), the
worker's one extraction, delete. docs/web.md, "Sources"."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from pathlib import PurePath

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from accounts.models import Team
from audit.services import record
from debates.debate_sources import Upload
from debates.engine import SourceRefused, check_source_file, extract_text
from debates.models import ACTIVE_STATUSES
from debates.runtime.queue import enqueue_step
from sources import signals
from sources.models import DebateSource, Source, SourceStatus, SourceVersion
from view_kit.file_names import shown_file_name
from view_kit.site_words import Words

log = logging.getLogger(__name__)

EXTRACT_TASK = "sources.tasks.extract_source"
MAX_FILES_AT_ONCE = 20
TITLE_MAX = 300


class SourceError(ValueError):
    """A refused upload or change; the message is meant for the user. ``field`` names
    the upload's part at fault when one is: "filename" or "content" (its bytes)."""

    def __init__(self, message: str, *, field: str | None = None,
                 words: Words | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.words = words  # the pages' words for it (view_kit.site_words.said)


def quota_bytes() -> int:
    return int(settings.COUNCIL_SOURCE_QUOTA_BYTES)


def team_usage(team: Team) -> int:
    """Bytes of the team's stored files (refused ones keep none)."""
    total = SourceVersion.objects.filter(source__team=team).exclude(file="").aggregate(
        n=Sum("size"))["n"]
    return int(total or 0)


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def _checked(files: Sequence[Upload]) -> list[tuple[Upload, str]]:
    if not files:
        raise SourceError("Choose at least one file.", words=("site.sources.refused.no_file", {}))
    if len(files) > MAX_FILES_AT_ONCE:
        raise SourceError(f"At most {MAX_FILES_AT_ONCE} files at once.",
                          words=("site.sources.refused.too_many", {"max": MAX_FILES_AT_ONCE}))
    checked = []
    for upload in files:
        try:
            # A refusal names the file as a page shows it (no bidirectional controls).
            checked.append((upload, check_source_file(upload.data,
                                                      shown_file_name(upload.name))))
        except SourceRefused as exc:
            raise SourceError(f"Nothing was saved: {exc}", field=exc.field or "content",
                              words=("site.sources.refused.nothing_saved", {"why": str(exc)})
                              ) from None
    return checked


def _check_quota(team: Team, adding: int) -> None:
    used, quota = team_usage(team), quota_bytes()
    if used + adding > quota:
        raise SourceError(
            f"Nothing was saved: your team's sources take {_mb(used)} of its {_mb(quota)}; "
            f"these files ({_mb(adding)}) do not fit. Delete sources you no longer need.",
            words=("site.sources.refused.quota",
                   {"used": _mb(used), "quota": _mb(quota), "adding": _mb(adding)}))


def _title(name: str) -> str:
    """The title a file's name suggests, as a page would show the name: a title is
    shown everywhere, where bidirectional controls would reorder it."""
    name = shown_file_name(name)
    return (PurePath(name).stem or name).strip()[:TITLE_MAX] or "Untitled"


def _store(source: Source, upload: Upload, kind: str, user: User | None,
           note: str, text: str | None = None) -> SourceVersion:
    last = source.versions.order_by("-number").values_list("number", flat=True).first() or 0
    version = SourceVersion(
        source=source, number=last + 1, filename=PurePath(upload.name).name[:255],
        sha256=_sha256(upload), size=len(upload.data), kind=kind,
        uploaded_by=user, note=note[:300])
    if text is not None:  # read in the request already: ready, no worker needed
        version.status, version.text = SourceStatus.READY, text
        version.extracted_at = timezone.now()
    version.file.save(upload.name, ContentFile(upload.data), save=False)
    version.save()
    return version


def _sha256(upload: Upload) -> str:
    return hashlib.sha256(upload.data).hexdigest()


def _same_file(team: Team, sha256: str) -> SourceVersion | None:
    """The team's source whose current version is this very file (not refused): an
    upload of the same bytes again reuses it instead of making a second source of the
    same name (docs/web.md, "Sources")."""
    for version in (SourceVersion.objects.select_related("source")
                    .filter(source__team=team, sha256=sha256)
                    .exclude(status=SourceStatus.REFUSED).order_by("-number")):
        latest = version.source.versions.order_by("-number").first()
        if latest is not None and latest.pk == version.pk:
            return version
    return None


def _read(checked: list[tuple[Upload, str]]) -> list[str]:
    """Each file's text, read now: a refusal (a scan without a text layer, a locked PDF)
    raises before anything is stored."""
    texts = []
    for upload, _ in checked:
        try:
            texts.append(extract_text(upload.data, shown_file_name(upload.name)).text)
        except SourceRefused as exc:
            raise SourceError(f"Nothing was saved: {exc}", field=exc.field or "content",
                              words=("site.sources.refused.nothing_saved", {"why": str(exc)})
                              ) from None
    return texts


def _queue_extraction(version: SourceVersion) -> None:
    from django_q.tasks import async_task

    code = str(version.code)
    transaction.on_commit(lambda: async_task(EXTRACT_TASK, code, task_name=f"source-{code}"))


def sources_upload(*, team: Team, user: User | None, files: Sequence[Upload],
                   source: Source | None = None, note: str = "",
                   read_now: bool = False) -> list[SourceVersion]:
    """New library sources (or, with ``source``, one new version of it), each queued to
    be read. Every file is checked (kind, bytes, size, zip bomb) and the quota counted
    before anything is stored; a failure part way deletes what was written, so a
    refusal leaves nothing behind. A file the team already has as a source's current
    version (same sha256) is that version again, not a second source. ``read_now``
    reads every file here instead of in the worker, so a refused one (a scan with no
    text) is refused to the caller and nothing is made: the new-debate form's way, so a
    debate is never created to fail on its source (docs/web.md, "Sources")."""
    checked = _checked(files)
    if source is not None and len(checked) != 1:
        raise SourceError("A new version is one file.",
                          words=("site.sources.refused.one_file", {}))
    reused: dict[str, SourceVersion] = {}
    if source is None:
        for upload, _ in checked:
            digest = _sha256(upload)
            if digest not in reused and (same := _same_file(team, digest)) is not None:
                reused[digest] = same
    fresh = [(u, k) for u, k in checked if _sha256(u) not in reused]
    texts: list[str | None] = list(_read(fresh)) if read_now else [None] * len(fresh)
    written: list[SourceVersion] = []
    made: dict[str, SourceVersion] = {}
    try:
        with transaction.atomic():
            Team.objects.select_for_update().filter(pk=team.pk).first()  # one quota count at a time
            _check_quota(team, sum(len(u.data) for u, _ in fresh))
            for (upload, kind), text in zip(fresh, texts, strict=True):
                if (digest := _sha256(upload)) in made:  # the same file twice in one go
                    continue
                target = source or Source.objects.create(
                    team=team, title=_title(upload.name), created_by=user)
                made[digest] = _store(target, upload, kind, user,
                                      note or ("New version" if source else "Uploaded"),
                                      text)
                written.append(made[digest])
                if text is None:
                    _queue_extraction(made[digest])
                else:  # read already: settled now, as the worker's reading says so
                    signals.source_settled.send(SourceVersion, version=made[digest])
                record("source.version" if source else "source.upload", target, user=user,
                       data={"file": written[-1].filename, "sha256": written[-1].sha256})
    except Exception:
        for version in written:
            version.file.delete(save=False)
        raise
    return [reused.get(_sha256(u)) or made[_sha256(u)] for u, _ in checked]


def _settle(version: SourceVersion, *, text: str = "", error: str = "") -> None:
    SourceVersion.objects.filter(pk=version.pk).update(
        status=SourceStatus.REFUSED if error else SourceStatus.READY, text=text, error=error,
        extracted_at=timezone.now(), **({"file": ""} if error else {}))
    signals.source_settled.send(SourceVersion, version=version)


def extract_version(code: str) -> str:
    """The worker's reading of one version: once (a version already read is left as it
    is), its text stored, or the refusal with the file deleted. Debates waiting on it are
    handed to a worker, which starts them or fails them with the refusal."""
    claimed = SourceVersion.objects.filter(code=code, status=SourceStatus.PENDING).update(
        status=SourceStatus.EXTRACTING)
    version = SourceVersion.objects.select_related("source").filter(code=code).first()
    if version is None:
        return "gone"
    if not claimed and version.status != SourceStatus.EXTRACTING:
        return version.status
    try:
        with version.file.open("rb") as handle:
            data = handle.read()
        extracted = extract_text(data, shown_file_name(version.filename))
    except SourceRefused as exc:
        version.file.delete(save=False)
        _settle(version, error=str(exc))
    except Exception as exc:  # a converter's bug: refused and said, not retried forever
        log.exception("source %s: extraction crashed", code)
        version.file.delete(save=False)
        _settle(version, error=f"{shown_file_name(version.filename)}: could not be read "
                               f"({type(exc).__name__})")
    else:
        _settle(version, text=extracted.text)
    _wake_debates(version)
    return SourceVersion.objects.get(pk=version.pk).status


def _wake_debates(version: SourceVersion) -> None:
    debates = {link.debate for link in DebateSource.objects.filter(
        version=version, debate__status__in=ACTIVE_STATUSES).select_related("debate")}
    with transaction.atomic():
        for debate in debates:
            enqueue_step(debate)


@transaction.atomic
def source_rename(*, source: Source, title: str) -> Source:
    title = title.strip()
    if not title:
        raise SourceError("A source needs a title.", field="title")
    source.title = title[:TITLE_MAX]
    source.save(update_fields=["title", "updated_at"])
    record("source.rename", source, data={"title": source.title})
    return source


def source_delete(*, source: Source) -> None:
    """Deletes the source, its versions and their files. A debate still waiting on it
    or running with it keeps it until it ends; a finished debate keeps the title."""
    if DebateSource.objects.filter(version__source=source,
                                   debate__status__in=ACTIVE_STATUSES).exists():
        raise SourceError(f"'{source.title}' is in use by a debate that has not ended; "
                          "delete it once the debate is over.",
                          words=("site.sources.refused.in_use", {"title": source.title}))
    files = [v.file for v in source.versions.exclude(file="")]
    with transaction.atomic():
        record("source.delete", source, data={"title": source.title})
        source.delete()
    for stored in files:
        stored.delete(save=False)
