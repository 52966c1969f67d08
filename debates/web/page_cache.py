"""The finished debate page's body, rendered once and served from the cache.

A finished debate changes little, and every such change leaves a trace in rows the
view reads anyway: its own row (status, ``last_event_seq`` — every step, one more
round and a cancellation append an event —, stop flags, an admin's edit) and its
re-runs' rows (the lineage line shows their status). The cache key is a fingerprint of
exactly those rows, so any change makes a new key at once, in every server process,
with nothing to invalidate (entries of old keys simply expire). The caller's role is
part of the key: viewers see no action buttons; so is the request's language.

The body holds no CSRF token (the view renders it without a request); the page
around it gives each viewer's action forms their own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.core.cache import cache
from django.utils import translation
from django.utils.safestring import SafeString

from debates.models import Debate

TTL_SECONDS = 600


def page_key(debate: Debate, role: str) -> str:
    """The fingerprint of everything the finished page shows (one query: the re-runs)."""
    fields = [(f.attname, getattr(debate, f.attname)) for f in Debate._meta.concrete_fields]
    reruns = list(Debate.objects.filter(parent=debate).order_by("id")
                  .values_list("code", "status"))
    # The request's language too: the site's own words on the page speak it (docs/web.md,
    # "Languages"), so a body rendered for one reader's language is not another's.
    language = translation.get_language()
    digest = hashlib.blake2b(repr((fields, reruns, role, language)).encode(), digest_size=16)
    return f"debate-page:{debate.code}:{digest.hexdigest()}"


def finished_body(debate: Debate, role: str, render: Callable[[], SafeString]) -> SafeString:
    """The page body for a finished ``debate``; ``render()`` makes it on a miss. The
    cache keeps a ``SafeString`` as one (it pickles its class), so the body stays the
    autoescaped output of our own templates."""
    key = page_key(debate, role)
    body = cache.get(key)
    if not isinstance(body, SafeString):
        body = render()
        cache.set(key, body, TTL_SECONDS)
    return body
