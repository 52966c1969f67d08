"""WSGI entry point (management tooling only; the app is served over ASGI by daphne)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "council_site.settings")

application = get_wsgi_application()
