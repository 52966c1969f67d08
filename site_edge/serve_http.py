"""``python -m site_edge.serve_http <daphne arguments>``: daphne, with Twisted reading
requests up to ``site_edge.http_limits.SERVER_READS``, so that a URL or headers over
the site's 16 KiB reach ``RequestLimits`` and get its 414 or 431 (docs/web.md, "API
errors"). ``manage.py serve`` starts its web processes with it.

Twisted's channel takes its limits from two documented attributes, ``MAX_LENGTH`` (a
line) and ``totalHeadersSize`` (request line and headers); daphne builds the channel
itself and has no option for them, so they are set on the class before daphne starts.
``daphne.server`` is imported first: it installs the asyncio reactor, which must happen
before anything else imports Twisted's default one.
"""

from __future__ import annotations

import daphne.server  # noqa: F401  # isort: skip
from daphne.cli import CommandLineInterface
from twisted.web.http import HTTPChannel

from site_edge.http_limits import SERVER_READS


def read_limits() -> None:
    """What Twisted reads of a request: ``SERVER_READS`` a line and in all."""
    HTTPChannel.MAX_LENGTH = SERVER_READS
    HTTPChannel.totalHeadersSize = SERVER_READS


def main() -> None:
    read_limits()
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
