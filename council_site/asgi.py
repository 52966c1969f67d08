"""ASGI entry point: HTTP to Django (sync views on a thread pool, see site_edge.dispatch),
websockets to the debate consumers."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "council_site.settings")

# Set up Django (app registry included) before importing anything that touches models,
# such as the consumers behind the websocket routes.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import StaticFilesHandler  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from debates.engine import warm_model_stack  # noqa: E402
from site_edge.dispatch import SyncViewsOnThreads  # noqa: E402
from site_edge.http_limits import RequestLimits  # noqa: E402

# A web process loads the model stack (litellm, its first call's imports, its tokenizer)
# before it serves anything, so the first request that names a real model does not pay
# for it (21-33 s under load, measured in issue 39). ``manage.py serve`` lets a web
# process's socket take connections only once this is done (site_edge.serve_http);
# docs/performance.md, "Cold starts".
warm_model_stack()
# Likewise the URLconf: every view and API module (130 modules, 1.2 s at load 11),
# which Django otherwise imports at each web process's first request; with two web
# processes, the one that did not answer the first /healthz paid it on a real request.
get_resolver().reverse_dict  # noqa: B018 - populating it imports every URL's view

try:
    from debates.live.routing import websocket_urlpatterns
except ModuleNotFoundError as exc:  # the debates app may not ship routes yet
    if exc.name != "debates.live.routing":
        raise
    websocket_urlpatterns = []
from notifications.routing import websocket_urlpatterns as live_urlpatterns  # noqa: E402

websocket_urlpatterns = [*websocket_urlpatterns, *live_urlpatterns]

django_wsgi_app = get_wsgi_application()
# Static files are no view: they take the sync (WSGI) side too.
http_app = SyncViewsOnThreads(
    asgi=django_asgi_app,
    wsgi=StaticFilesHandler(django_wsgi_app) if settings.COUNCIL_SERVE_STATIC else django_wsgi_app,
)

# A URL or headers over 16 KiB are answered (414, 431) before anything else reads them.
application = RequestLimits(ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
))
