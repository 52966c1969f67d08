"""The audit log as JSON Lines: one event a line, the API list's item shape, for the
API's export and the page's download alike."""

from __future__ import annotations

import json
from collections.abc import Iterator

from django.db.models import QuerySet
from django.http import StreamingHttpResponse

from api_kit.timestamps import rfc3339
from audit import selectors
from audit.models import AuditEvent


def _lines(events: QuerySet[AuditEvent]) -> Iterator[str]:
    for event in events.iterator(chunk_size=500):
        fields = selectors.event_fields(event)
        fields["at"] = rfc3339(event.at)
        yield json.dumps(fields, default=str, ensure_ascii=False) + "\n"


def jsonl_response(events: QuerySet[AuditEvent], *, team_code: object) -> StreamingHttpResponse:
    response = StreamingHttpResponse(_lines(events),
                                     content_type="application/jsonl; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="council-audit-{team_code}.jsonl"'
    return response
