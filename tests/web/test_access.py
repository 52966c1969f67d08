"""debate_access everywhere: outsiders get 404 on every debate URL, viewers 403 on
every write."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404

from debates.access import debate_access
from debates.models import Debate, DebateStatus

READ_URLS = ["/debates/{c}/", "/debates/{c}/synthesis", "/debates/{c}/transcript",
             "/debates/{c}/print", "/debates/{c}/export.md", "/debates/{c}/export.json",
             "/debates/{c}/rerun", "/debates/compare?a={c}&b={c}",
             "/api/debates/{c}", "/api/debates/{c}/synthesis", "/api/debates/{c}/events"]
WRITE_URLS = ["/debates/{c}/cancel", "/debates/{c}/stop", "/debates/{c}/more-round",
              "/debates/{c}/rerun", "/api/debates/{c}/cancel", "/api/debates/{c}/stop"]


def test_helper_returns_debate_and_role(finished, owner, member, viewer, outsider):
    assert debate_access(user=owner, code=finished.code) == (finished, "owner")
    assert debate_access(user=member, code=str(finished.code), write=True)[1] == "editor"
    assert debate_access(user=viewer, code=finished.code)[1] == "viewer"
    with pytest.raises(PermissionDenied):
        debate_access(user=viewer, code=finished.code, write=True)
    with pytest.raises(Http404):
        debate_access(user=outsider, code=finished.code)
    with pytest.raises(Http404):
        debate_access(user=member, code="not-a-uuid")


def test_outsider_gets_404_on_every_debate_url(outsider_client, finished):
    # One finished debate for every URL: a 404 here cannot come from "no synthesis yet".
    for url in READ_URLS:
        response = outsider_client.get(url.format(c=finished.code))
        assert response.status_code == 404, url
    for url in WRITE_URLS:
        response = outsider_client.post(url.format(c=finished.code))
        assert response.status_code == 404, url
    assert Debate.objects.get(pk=finished.pk).status == DebateStatus.SUCCEEDED


def test_viewer_gets_403_on_every_write_and_nothing_changes(viewer_client, make_debate):
    debate = make_debate(run=False)
    for url in WRITE_URLS:
        response = viewer_client.post(url.format(c=debate.code), {
            "question": "x", "mode": "quick", "model": "sim/default"})
        assert response.status_code == 403, url
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.QUEUED
    assert not Debate.objects.get(pk=debate.pk).stop_requested
    assert Debate.objects.count() == 1


def test_members_can_read_every_debate_url(viewer_client, finished):
    for url in READ_URLS:
        if url.endswith("/rerun"):
            continue  # a write form
        response = viewer_client.get(url.format(c=finished.code))
        assert response.status_code == 200, url


def test_viewer_cannot_open_the_rerun_form(viewer_client, finished):
    assert viewer_client.get(f"/debates/{finished.code}/rerun").status_code == 403


def test_unknown_code_is_404_for_members(member_client):
    assert member_client.get(
        "/debates/00000000-0000-4000-8000-000000000000/").status_code == 404
