"""Access on the live websocket holds for the socket's whole life, not just its
handshake: a member removed from the team, or a path that is no debate, gets a close
code and no fragments."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from accounts.models import Membership
from debates.live.consumers import CLOSE_NOT_FOUND
from debates.runtime.execution import run_next_step
from tests.waiting import PATIENCE_S
from tests.web.sockets import socket_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fast_poll(settings):
    settings.COUNCIL_WS_POLL_SECONDS = 0.05


async def test_removed_member_gets_no_more_fragments_and_the_socket_closes(
        member, member_client, make_debate, fast_poll):
    debate = await sync_to_async(make_debate)(run=False)
    await sync_to_async(run_next_step)(debate.code)
    await sync_to_async(debate.refresh_from_db)()
    communicator = socket_for(member_client, f"/ws/debates/{debate.code}/"
                                                f"?after={debate.last_event_seq}")
    connected, _ = await communicator.connect(PATIENCE_S)
    assert connected
    await sync_to_async(run_next_step)(debate.code)
    assert "debate-seq" in await communicator.receive_from(PATIENCE_S)  # still a member: updates

    await sync_to_async(Membership.objects.filter(user=member).delete)()
    for _ in range(3):  # the tester saw three more messages after removal
        await sync_to_async(run_next_step)(debate.code)
    message = await communicator.receive_output(PATIENCE_S)
    assert message == {"type": "websocket.close", "code": CLOSE_NOT_FOUND}
    assert await communicator.receive_nothing(0.3)
    page = await sync_to_async(member_client.get)(f"/debates/{debate.code}/")
    assert page.status_code == 404


async def test_a_member_made_viewer_gets_fragments_without_write_controls(
        member, member_client, make_debate, fast_poll):
    debate = await sync_to_async(make_debate)(run=False)
    await sync_to_async(run_next_step)(debate.code)
    communicator = socket_for(member_client, f"/ws/debates/{debate.code}/?after=0")
    await communicator.connect(PATIENCE_S)
    first = await communicator.receive_from(PATIENCE_S)
    assert f"/debates/{debate.code}/stop" in first  # an editor may stop the debate

    await sync_to_async(Membership.objects.filter(user=member).update)(
        role=Membership.Role.VIEWER)
    await sync_to_async(run_next_step)(debate.code)
    later = await communicator.receive_from(PATIENCE_S)
    assert "debate-seq" in later
    assert f"/debates/{debate.code}/stop" not in later
    await communicator.disconnect(timeout=PATIENCE_S)


@pytest.mark.parametrize("segment", ["notauuid", "12345", "%00", "x" * 300])
async def test_a_path_that_is_no_debate_code_closes_with_4404(member_client, segment):
    communicator = socket_for(member_client, f"/ws/debates/{segment}/")
    connected, _ = await communicator.connect(PATIENCE_S)
    assert connected
    message = await communicator.receive_output(PATIENCE_S)
    assert message == {"type": "websocket.close", "code": CLOSE_NOT_FOUND}
    await asyncio.sleep(0)
