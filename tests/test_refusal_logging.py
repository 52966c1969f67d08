"""A refused request (a viewer's 403) is one line in the log, not a traceback; server
errors keep theirs (site_edge/log_filters.py)."""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Iterator

import pytest


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the site's console handler writes, captured."""
    handler = next(h for h in logging.getLogger("django").handlers
                   if isinstance(h, logging.StreamHandler))
    out = io.StringIO()
    previous = handler.setStream(out)
    try:
        yield out
    finally:
        handler.setStream(previous)


def test_a_viewers_refusal_is_logged_as_one_line(viewer_client, console):
    assert viewer_client.get("/debates/new").status_code == 403
    text = console.getvalue()
    assert "Forbidden (Permission denied): /debates/new" in text
    assert "Traceback" not in text and "PermissionDenied" not in text


def test_a_server_error_keeps_its_traceback(console):
    from site_edge.log_filters import ClientErrorsWithoutTraceback

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1,
                                   "Internal Server Error: /", None, sys.exc_info())
    record.status_code = 500
    assert ClientErrorsWithoutTraceback().filter(record) and record.exc_info is not None
