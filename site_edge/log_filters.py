"""Logging filters for the console handler (council_site/settings.py ``LOGGING``)."""

from __future__ import annotations

import logging


class ClientErrorsWithoutTraceback(logging.Filter):
    """Django logs every refused request (403, 404, 400) at WARNING with the exception
    attached, so an ordinary viewer pressing a button they may not use printed a whole
    traceback. A 4xx is the client's doing: keep its one line ("Forbidden (Permission
    denied): /path"), drop the traceback. Server errors (5xx) keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
