"""The one spelling of a moment in everything the API family sends: RFC 3339 in UTC
with ``Z`` (``2026-12-04T03:52:27.123456Z``; no fraction on a whole second), exactly as
pydantic writes a datetime. REST answers (``TimestampRenderer``), MCP tools (pydantic
models dumped as JSON), event streams and exports (``rfc3339``) all read the same
(docs/api.md, "Timestamps")."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ninja.renderers import JSONRenderer
from ninja.responses import NinjaJSONEncoder
from pydantic import TypeAdapter

_DATETIME = TypeAdapter(datetime)


def rfc3339(value: datetime) -> str:
    """``value`` (aware) in UTC, as pydantic writes it."""
    return str(_DATETIME.dump_python(value.astimezone(UTC), mode="json"))


class _Encoder(NinjaJSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, datetime) and o.tzinfo is not None:
            return rfc3339(o)
        return super().default(o)


class TimestampRenderer(JSONRenderer):
    """ninja's JSON renderer with our timestamps (Django's encoder cuts them to
    milliseconds)."""

    encoder_class = _Encoder
