"""A view whose request is annotated ``AuthenticatedHttpRequest`` tells the type checker
that ``request.user`` is a real User. That is true only if anonymous callers never
reach it: every such route, HTML or API, must refuse an anonymous request (HTML: a
redirect to the login page; API: 401) before the view runs."""

from __future__ import annotations

import functools
import inspect
import re
import uuid
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from ninja.operation import PathView

from view_kit.http import AuthenticatedHttpRequest


def _routes(patterns: list, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern


def _path_view(callback: Callable) -> PathView | None:
    # ninja's URL callback is a closure over its PathView, which lists the operations
    # (view function, methods) served at that path.
    for cell in getattr(callback, "__closure__", None) or ():
        if isinstance(cell.cell_contents, PathView):
            return cell.cell_contents
    return None


def _wants_a_user(view: Callable) -> bool:
    view = inspect.unwrap(view)
    if isinstance(view, functools.partial):  # ninja's docs views
        view = view.func
    request = inspect.signature(view).parameters.get("request")
    if request is None:
        return False
    # Annotations are strings (``from __future__ import annotations``); other names in
    # the signature may exist only for the type checker, so resolve just this one.
    annotation = request.annotation
    if isinstance(annotation, str):
        annotation = getattr(view, "__globals__", {}).get(annotation)
    return annotation is AuthenticatedHttpRequest


def _url(route: str) -> str:
    def sample(match: re.Match[str]) -> str:
        converter = match.group(1) or "str"
        return str(uuid.uuid4()) if converter.startswith("uuid") else (
            "1" if converter == "int" else "x")
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", sample, route)


def _annotated_routes() -> tuple[list[str], list[tuple[str, list[str]]]]:
    """(HTML routes, (API route, its methods)) whose view wants a signed-in user."""
    html, api = [], []
    for route, pattern in _routes(get_resolver().url_patterns):
        if route.startswith("admin/"):
            continue  # the admin site admits signed-in staff only, for all its views
        path_view = _path_view(pattern.callback)
        if path_view is None:
            if _wants_a_user(pattern.callback):
                html.append(route)
            continue
        for operation in path_view.operations:
            if _wants_a_user(operation.view_func):
                api.append((route, list(operation.methods)))
    return html, api


@pytest.mark.django_db
def test_every_view_annotated_as_authenticated_refuses_anonymous_callers():
    html, api = _annotated_routes()
    # Both kinds exist today; an empty list would mean this test checks nothing.
    assert len(html) >= 10 and len(api) >= 5, (html, api)
    login = resolve_url(settings.LOGIN_URL)
    anonymous = Client()
    for route in html:
        url = _url(route)
        answers = [anonymous.get(url), anonymous.post(url)]
        sent_to_login = [a for a in answers
                         if a.status_code == 302 and a["Location"].startswith(login)]
        # A method the view does not serve may answer 405 first; never anything else.
        assert sent_to_login and all(a in sent_to_login or a.status_code == 405
                                     for a in answers), (route, answers)
    for route, methods in api:
        for method in methods:
            answer = anonymous.generic(method, _url(route), "{}",
                                       content_type="application/json")
            assert answer.status_code == 401, (route, method, answer.status_code)
