"""The live debate socket accepts before it checks access (issue 39: under load, a
handshake waiting on that database read was reset), then closes with 4404 (no such
debate, or not yours) or 4403 (access denied), or follows the debate for a viewer
(docs/web.md, "Reconnects")."""

from __future__ import annotations

import threading
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.core.exceptions import PermissionDenied

from debates.live import consumers
from debates.live.consumers import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND
from tests.waiting import PATIENCE_S
from tests.web.sockets import socket_for

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_viewer_is_accepted_and_gets_the_page_fragments(viewer_client, make_debate):
    debate = await sync_to_async(make_debate)(run=True)
    socket = socket_for(viewer_client, f"/ws/debates/{debate.code}/?after=0")
    connected, _ = await socket.connect(PATIENCE_S)
    assert connected
    assert 'id="debate-seq"' in await socket.receive_from(PATIENCE_S)
    await socket.disconnect(timeout=PATIENCE_S)


async def test_no_such_debate_is_accepted_then_closed_with_4404(member_client):
    socket = socket_for(member_client, f"/ws/debates/{uuid.uuid4()}/")
    connected, _ = await socket.connect(PATIENCE_S)
    assert connected
    assert await socket.receive_output(PATIENCE_S) == {"type": "websocket.close",
                                                       "code": CLOSE_NOT_FOUND}


async def test_denied_access_is_accepted_then_closed_with_4403(member_client, make_debate,
                                                              monkeypatch):
    debate = await sync_to_async(make_debate)(run=False)

    def denied(**_: object) -> None:
        raise PermissionDenied

    monkeypatch.setattr(consumers, "debate_access", denied)
    socket = socket_for(member_client, f"/ws/debates/{debate.code}/")
    connected, _ = await socket.connect(PATIENCE_S)
    assert connected
    assert await socket.receive_output(PATIENCE_S) == {"type": "websocket.close",
                                                       "code": CLOSE_FORBIDDEN}


async def test_the_handshake_completes_while_the_access_check_still_waits(
        member_client, make_debate, monkeypatch):
    debate = await sync_to_async(make_debate)(run=False)
    release = threading.Event()
    real = consumers.debate_access

    def slow(**kwargs: object):  # noqa: ANN202 - as debate_access
        release.wait(PATIENCE_S)  # a database busy with other sockets' reads
        return real(**kwargs)

    monkeypatch.setattr(consumers, "debate_access", slow)
    socket = socket_for(member_client, f"/ws/debates/{debate.code}/?after=0")
    try:
        connected, _ = await socket.connect(PATIENCE_S / 2)
        assert connected and not release.is_set()
    finally:
        release.set()
    assert 'id="debate-seq"' in await socket.receive_from(PATIENCE_S)
    await socket.disconnect(timeout=PATIENCE_S)
