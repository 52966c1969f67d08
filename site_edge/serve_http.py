"""``python -m site_edge.serve_http <daphne arguments>``: daphne, with Twisted reading
requests up to ``site_edge.http_limits.SERVER_READS``, so that a URL or headers over
the site's 16 KiB reach ``RequestLimits`` and get its 414 or 431 (docs/web.md, "API
errors"). ``manage.py serve`` starts its web processes with it.

Twisted's channel takes its limits from two documented attributes, ``MAX_LENGTH`` (a
line) and ``totalHeadersSize`` (request line and headers); daphne builds the channel
itself and has no option for them, so they are set on the class before daphne starts.
``daphne.server`` is imported first: it installs the asyncio reactor, which must happen
before anything else imports Twisted's default one.

``manage.py serve`` hands each web process a socket that is bound but not yet
listening (``--fd``): the process loads the application first (Django and the model
stack, which takes seconds: council_site/asgi.py) and only then listens, so the kernel
gives new connections only to processes ready to answer them (docs/performance.md,
"Cold starts").
"""

from __future__ import annotations

import daphne.server  # noqa: F401  # isort: skip
import importlib
import socket
import sys
from collections.abc import Sequence

from daphne.cli import CommandLineInterface
from twisted.web.http import HTTPChannel

from site_edge.http_limits import SERVER_READS

BACKLOG = 512


def read_limits() -> None:
    """What Twisted reads of a request: ``SERVER_READS`` a line and in all."""
    HTTPChannel.MAX_LENGTH = SERVER_READS
    HTTPChannel.totalHeadersSize = SERVER_READS


def _option(argv: Sequence[str], name: str) -> str | None:
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def listen_when_loaded(argv: Sequence[str]) -> None:
    """Import the application daphne is asked to serve (the last argument,
    ``module:attribute``), then let the ``--fd`` socket take connections."""
    application = argv[-1] if argv else ""
    if ":" in application and not application.startswith("-"):
        importlib.import_module(application.split(":", 1)[0])
    fd = _option(argv, "--fd")
    if fd is not None:
        sock = socket.socket(fileno=int(fd))
        try:
            sock.listen(BACKLOG)  # a socket already listening only gets its backlog set
        finally:
            sock.detach()  # the descriptor stays open for daphne


def main() -> None:
    read_limits()
    listen_when_loaded(sys.argv[1:])
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
