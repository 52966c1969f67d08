"""``python -m bench [--only AREA] [--output FILE]`` (``make bench``): Django's set-up
with the site's settings, then the areas (bench/run.py). The bench lives outside the
product's packages, so it is no management command: the wheel does not carry it."""

from __future__ import annotations

import os
import sys


def entry() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "council_site.settings")
    import django

    django.setup()
    from bench.run import main

    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    entry()
