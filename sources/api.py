"""JSON API for a team's sources, mounted at /api/sources/ (docs/api.md, "Sources").

A file comes base64-encoded in a JSON body (as MCP sends it): one shape for scripts and
agents, and the site's body limit (12 MiB) holds a file at the size limit (8 MiB)."""

from __future__ import annotations

import base64
import binascii
import uuid
from datetime import datetime
from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema, Status
from pydantic import ConfigDict, Field

from accounts.access import Need, current_team_access
from accounts.api_auth import api_auth
from api_kit.errors import errors, refuse
from debates.debate_sources import Upload
from debates.engine import MAX_SOURCE_BYTES
from sources import selectors, services
from sources.access import source_access
from sources.models import Source, SourceVersion
from view_kit.http import AuthenticatedHttpRequest

router = Router(tags=["sources"], auth=api_auth)

_BASE64_MAX = (MAX_SOURCE_BYTES + 2) // 3 * 4


class VersionOut(Schema):
    code: uuid.UUID = Field(description="Pass it in a debate's sources for exactly this "
                                        "version.")
    number: int
    filename: str
    kind: str
    size: int
    sha256: str
    status: str = Field(description="pending, extracting, ready or refused.")
    error: str = Field(description="Why it was refused (refused only).")
    uploaded_at: datetime
    extracted_at: datetime | None


class SourceOut(Schema):
    code: uuid.UUID
    title: str
    current: VersionOut | None


class SourceDetailOut(SourceOut):
    versions: list[VersionOut]
    text: str | None = Field(description="The current version's text, once it is read.")
    passages: int = Field(description="How many passages it splits into (S<n>.1 ...).")


class SourceUploadIn(Schema):
    model_config = ConfigDict(extra="forbid")
    filename: str = Field(min_length=1, max_length=255,
                          description="Its name says its kind: .pdf, .docx, .xlsx, .csv, "
                                      ".html, .md or .txt.")
    content_base64: str = Field(max_length=_BASE64_MAX,
                                description=f"The file, base64; at most {MAX_SOURCE_BYTES:,} "
                                            "bytes.")
    note: str = Field(default="", max_length=300)


class SourceDeletedOut(Schema):
    code: uuid.UUID
    deleted: bool


class SourceUsageOut(Schema):
    used_bytes: int
    quota_bytes: int


def _version(v: SourceVersion | None) -> dict[str, Any] | None:
    if v is None:
        return None
    return {"code": v.code, "number": v.number, "filename": v.filename, "kind": v.kind,
            "size": v.size, "sha256": v.sha256, "status": v.status, "error": v.error,
            "uploaded_at": v.uploaded_at, "extracted_at": v.extracted_at}


def _source(source: Source) -> dict[str, Any]:
    return {"code": source.code, "title": source.title, "current": _version(source.current)}


def _upload(payload: SourceUploadIn) -> Upload | str:
    try:
        data = base64.b64decode(payload.content_base64, validate=True)
    except (binascii.Error, ValueError):
        return "content_base64 is not base64"
    return Upload(payload.filename, data)


def _refuse_upload(problem: str | services.SourceError) -> Status[Any]:
    """400 naming the field at fault: the file's bytes travel as ``content_base64``; a
    refusal of no one field (the team's quota) names none."""
    field = "content_base64" if isinstance(problem, str) else problem.field
    field = "content_base64" if field == "content" else field
    return refuse(400, str(problem), {field: [str(problem)]} if field else None)


def source_detail_out(source: Source) -> dict[str, Any]:
    versions = list(selectors.source_versions(source=source))
    current = versions[0] if versions else None
    ready = current is not None and current.status == "ready"
    return {**_source(source), "versions": [_version(v) for v in versions],
            "text": current.text if ready and current else None,
            "passages": len(selectors.version_passages(current)) if current else 0}


@router.get("/", response=list[SourceOut], url_name="sources_list")
def list_sources(request: HttpRequest) -> list[dict[str, Any]]:
    """The current team's sources, each with its current version and how far its
    reading got."""
    team, _ = current_team_access(request, need=Need.READ)
    return [_source(s) for s in selectors.team_sources(team=team)]


@router.get("/usage", response=SourceUsageOut, url_name="sources_usage")
def usage(request: HttpRequest) -> dict[str, int]:
    """Bytes the team's stored files take, and its quota."""
    team, _ = current_team_access(request, need=Need.READ)
    return {"used_bytes": services.team_usage(team), "quota_bytes": services.quota_bytes()}


@router.post("/", response={201: SourceOut, **errors(400)}, url_name="sources_upload")
def upload_source(request: AuthenticatedHttpRequest, payload: SourceUploadIn) -> Status[Any]:
    """A new library source; its text is read in the background (poll GET
    /api/sources/{code} until current.status is ready or refused). A refused file
    saves nothing and says why."""
    team, _ = current_team_access(request, need=Need.WRITE)
    upload = _upload(payload)
    if isinstance(upload, str):
        return _refuse_upload(upload)
    try:
        [version] = services.sources_upload(team=team, user=request.user, files=[upload],
                                            note=payload.note)
    except services.SourceError as exc:
        return _refuse_upload(exc)
    return Status(201, _source(version.source))


@router.get("/{uuid:code}", response=SourceDetailOut, url_name="sources_detail")
def get_source(request: HttpRequest, code: uuid.UUID) -> dict[str, Any]:
    source, _ = source_access(request, code)
    return source_detail_out(source)


@router.post("/{uuid:code}/versions", response={201: SourceOut, **errors(400)},
             url_name="sources_version_upload")
def upload_version(request: AuthenticatedHttpRequest, code: uuid.UUID,
                   payload: SourceUploadIn) -> Status[Any]:
    """A new version of the source; debates that read an earlier one keep it."""
    source, _ = source_access(request, code, need=Need.WRITE)
    upload = _upload(payload)
    if isinstance(upload, str):
        return _refuse_upload(upload)
    try:
        services.sources_upload(team=source.team, user=request.user, files=[upload],
                                source=source, note=payload.note)
    except services.SourceError as exc:
        return _refuse_upload(exc)
    return Status(201, _source(source))


@router.delete("/{uuid:code}", response={200: SourceDeletedOut, **errors(409)},
               url_name="sources_delete")
def delete_source(request: AuthenticatedHttpRequest, code: uuid.UUID) -> Status[Any]:
    """Deletes the source, its versions and files (409 while a debate that has not
    ended uses it)."""
    source, _ = source_access(request, code, need=Need.WRITE)
    try:
        services.source_delete(source=source)
    except services.SourceError as exc:
        return refuse(409, str(exc))
    return Status(200, {"code": code, "deleted": True})
