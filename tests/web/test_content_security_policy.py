"""Every response carries a Content-Security-Policy that the site's own pages satisfy:
scripts and styles from our static files only, no inline script, handler, ``hx-on``
or style attribute in any template (the real browser walk is in test_browser_csp.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from debates.models import Debate

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = {
    "default-src": "'self'", "script-src": "'self'", "style-src": "'self'",
    "connect-src": "'self' ws://testserver", "object-src": "'none'",
    "frame-ancestors": "'none'", "base-uri": "'self'", "form-action": "'self'",
}


def _directives(header: str) -> dict[str, str]:
    pairs = (part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return {name: value for name, value in pairs}


def test_every_page_sends_the_policy(client, member_client, finished: Debate):
    responses = [client.get("/accounts/login/"), client.get("/healthz")]
    responses += [member_client.get(url) for url in (
        "/", "/debates/new", f"/debates/{finished.code}/", f"/debates/{finished.code}/synthesis",
        f"/debates/{finished.code}/print", f"/teams/{finished.team.code}/")]
    responses.append(member_client.get(f"/debates/{finished.code}/export.md"))
    for response in responses:
        assert response.status_code == 200, response.request["PATH_INFO"]
        assert _directives(response["Content-Security-Policy"]) == EXPECTED


def test_a_secure_request_allows_the_websocket_over_wss_only(member_client, finished):
    response = member_client.get(f"/debates/{finished.code}/", secure=True)
    assert _directives(response["Content-Security-Policy"])["connect-src"] == (
        "'self' wss://testserver")


def test_a_foreign_host_gets_its_400_with_a_policy(client):
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert _directives(response["Content-Security-Policy"])["connect-src"] == "'self'"


# {# … #} and {% comment %} blocks are not sent to the browser.
COMMENTS = re.compile(r"\{#.*?#\}|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S)
FORBIDDEN = {
    "inline script": re.compile(r"<script\b(?![^>]*\ssrc=)[^>]*>", re.I),
    "<style> element": re.compile(r"<style\b", re.I),
    "event handler attribute": re.compile(r"<[^>]*\son[a-z]+\s*=", re.I),
    "hx-on attribute": re.compile(r"\shx-on[:\-]", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
    "style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.I),
}


def _templates() -> list[Path]:
    return sorted(p for p in ROOT.glob("**/templates/**/*.html")
                  if ".venv" not in p.parts and "node_modules" not in p.parts)


def _violations(source: str) -> list[str]:
    source = COMMENTS.sub("", source)
    return [name for name, pattern in FORBIDDEN.items() if pattern.search(source)]


def test_no_template_has_markup_the_policy_refuses():
    templates = _templates()
    assert len(templates) > 50
    found = {str(p.relative_to(ROOT)): v for p in templates
             if (v := _violations(p.read_text(encoding="utf-8")))}
    assert found == {}


@pytest.mark.parametrize("markup", [
    "<script>alert(1)</script>", '<button onclick="go()">', '<div hx-on:click="go()">',
    '<a href="javascript:go()">', '<span style="color: red">', "<style>p{}</style>"])
def test_the_template_scan_catches_each_kind(markup):
    assert _violations(f"<p>{markup}</p>")
    assert not _violations(f"{{# {markup} #}}<script src=\"/static/x.js\" defer></script>")
