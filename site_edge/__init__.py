"""The site's edge: what every request passes before and after the apps' views (the
middleware: content security policy, request guard, the API's error bodies for unknown
routes), how requests reach threads under ASGI, and the health check. It knows none of
the apps."""
