"""The client address login throttling counts failures by (django-axes' IP callable)."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def client_ip(request: HttpRequest) -> str:
    """The connecting address, or behind the reverse proxy (``DJANGO_BEHIND_PROXY``) the
    address that proxy appended to X-Forwarded-For: the right-most entry, because every
    entry left of it came from the client and could be invented to dodge the lockout."""
    if settings.DJANGO_BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return str(request.META.get("REMOTE_ADDR", ""))


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """The page a locked-out login gets (django-axes' lockout callable): what happened,
    how long it lasts, and the ways out, instead of a bare status line."""
    minutes = math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    return render(request, "registration/locked_out.html", {
        "username": username,
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": minutes,
    }, status=429)
