"""``python -m site_edge.serve_http <daphne arguments>``: daphne, with the HTTP channel
of ``site_edge.http_limits`` (an answer for a URL or headers over 16 KiB, where Twisted
closed the connection). ``manage.py serve`` starts its web processes with it.

daphne builds its HTTP factory inside ``Server.run`` from its module's name
``HTTPFactory``, with no option to pass another; so that name is replaced before the
command line runs. ``daphne.server`` is imported first: it installs the asyncio reactor,
which must happen before anything else imports Twisted's default one.
"""

from __future__ import annotations

import daphne.server  # isort: skip
from daphne.cli import CommandLineInterface

from site_edge.http_limits import LimitedHTTPFactory


def main() -> None:
    daphne.server.HTTPFactory = LimitedHTTPFactory
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
