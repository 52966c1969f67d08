"""The finished debate page's body, rendered once and served from the cache.

A finished debate changes little, and every such change leaves a trace in rows the
view reads anyway: its own row (status, ``last_event_seq`` — every step, one more
round and a cancellation append an event —, stop flags, an admin's edit), its
re-runs' rows (the lineage line shows their status) and what other apps show in it
(``register_shown``: the team's decision in the answer block). The cache key is a
fingerprint of exactly those rows, so any change makes a new key at once, in every server process,
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

# What other apps show in the body, each as a function of the debate returning plain
# values that change whenever what it shows does (docs/web.md, "Answer first"). The
# apps above debates register theirs in their ready(), as export sections are.
_SHOWN: dict[str, Callable[[Debate], object]] = {}


def register_shown(name: str, fingerprint: Callable[[Debate], object]) -> None:
    _SHOWN[name] = fingerprint


def page_key(debate: Debate, role: str) -> str:
    """The fingerprint of everything the finished page shows (one query for the
    re-runs, and those of what other apps show: the team's decision)."""
    fields = [(f.attname, getattr(debate, f.attname)) for f in Debate._meta.concrete_fields]
    reruns = list(Debate.objects.filter(parent=debate).order_by("id")
                  .values_list("code", "status"))
    shown = [(name, fingerprint(debate)) for name, fingerprint in sorted(_SHOWN.items())]
    # The request's language too: the site's own words on the page speak it (docs/web.md,
    # "Languages"), so a body rendered for one reader's language is not another's.
    language = translation.get_language()
    digest = hashlib.blake2b(repr((fields, reruns, shown, role, language)).encode(),
                             digest_size=16)
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
