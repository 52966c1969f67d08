"""The live page's websocket: access on connect, replay from a sequence number,
then follow the event log (polling, with the channel layer as a doorbell)."""

from __future__ import annotations

import re
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from council_site.asgi import application
from debates.live.consumers import CLOSE_NOT_FOUND
from debates.runtime.execution import run_next_step, run_to_completion
from tests.waiting import PATIENCE_S
from tests.web.htmltools import apply_oob, outer_html, top_level

pytestmark = pytest.mark.django_db(transaction=True)

SWAP_TARGETS = ("debate-answer", "debate-decision", "debate-status", "debate-stepper",
                "debate-agents", "debate-chart", "debate-synthesis", "debate-rounds",
                "debate-activity", "debate-seq")
# A fresh page's action forms take the viewer's CSRF token from inputs outside the
# (possibly cached) body; a live fragment's forms carry their own. Either way the form
# posts a working token (tested below), so the comparisons leave token inputs out.
TOKEN_INPUT = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')


def _normal(html: str) -> str:
    return TOKEN_INPUT.sub("", html)


def _communicator(client: Client | None, code: object, after: int | None) -> WebsocketCommunicator:
    path = f"/ws/debates/{code}/" + ("" if after is None else f"?after={after}")
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if client is not None:
        cookie = "; ".join(f"{k}={v.value}" for k, v in client.cookies.items())
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def _get(client: Client, url: str) -> str:
    response = await sync_to_async(client.get)(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def fast_poll(settings):
    settings.COUNCIL_WS_POLL_SECONDS = 0.05


async def test_outsider_connect_is_closed_with_4404(outsider_client, make_debate):
    debate = await sync_to_async(make_debate)(run=False)
    communicator = _communicator(outsider_client, debate.code, 0)
    connected, _ = await communicator.connect(PATIENCE_S)
    assert connected
    message = await communicator.receive_output(PATIENCE_S)
    assert message == {"type": "websocket.close", "code": CLOSE_NOT_FOUND}


async def test_anonymous_and_unknown_debates_are_closed_with_4404(member_client, make_debate):
    debate = await sync_to_async(make_debate)(run=False)
    for client, code in [(None, debate.code), (member_client, uuid.uuid4())]:
        communicator = _communicator(client, code, 0)
        await communicator.connect(PATIENCE_S)
        assert (await communicator.receive_output(PATIENCE_S))["code"] == CLOSE_NOT_FOUND


async def test_reconnect_with_a_stale_sequence_replays_the_gap_and_ends_like_a_fresh_load(
        member_client, make_debate, fast_poll):
    debate = await sync_to_async(make_debate)(run=False)
    for _ in range(3):  # compose, premortem, position: the page the user had open
        await sync_to_async(run_next_step)(debate.code)
    url = f"/debates/{debate.code}/"
    stale_page = await _get(member_client, url)
    stale_seq = int(re.search(r'data-last-seq="(\d+)"', stale_page).group(1))
    await sync_to_async(run_to_completion)(debate.code)  # ... while it was disconnected
    await sync_to_async(debate.refresh_from_db)()
    assert debate.last_event_seq > stale_seq

    communicator = _communicator(member_client, debate.code, stale_seq)
    connected, _ = await communicator.connect(PATIENCE_S)
    assert connected
    batch = await communicator.receive_from(PATIENCE_S)
    await communicator.disconnect(timeout=PATIENCE_S)

    ids = [el.attrs.get("id") for el in top_level(batch)]
    assert set(ids) == set(SWAP_TARGETS)
    replayed = [int(s) for s in re.findall(r'<li data-seq="(\d+)"', batch)]
    assert replayed == list(range(stale_seq + 1, debate.last_event_seq + 1))

    updated = apply_oob(stale_page, batch)
    fresh = await _get(member_client, url)
    for target in SWAP_TARGETS:
        assert _normal(outer_html(updated, target)) == _normal(outer_html(fresh, target)), target


async def test_up_to_date_client_gets_nothing_until_the_log_grows(
        member_client, make_debate, fast_poll):
    debate = await sync_to_async(make_debate)(run=False)
    await sync_to_async(run_next_step)(debate.code)
    await sync_to_async(debate.refresh_from_db)()
    seq = debate.last_event_seq

    communicator = _communicator(member_client, debate.code, seq)
    await communicator.connect(PATIENCE_S)
    assert await communicator.receive_nothing(0.3)
    await sync_to_async(run_next_step)(debate.code)  # premortem: a turn per agent
    batch = await communicator.receive_from(PATIENCE_S)
    assert 'id="debate-seq"' in batch
    new = [int(s) for s in re.findall(r'<li data-seq="(\d+)"', batch)]
    assert new and new[0] == seq + 1
    await communicator.disconnect(timeout=PATIENCE_S)


async def test_the_channel_layer_doorbell_wakes_the_consumer_before_the_next_poll(
        member_client, make_debate, settings):
    # The next poll is an hour away: only the doorbell can deliver within the wait.
    settings.COUNCIL_WS_POLL_SECONDS = 3600
    debate = await sync_to_async(make_debate)(run=False)
    communicator = _communicator(member_client, debate.code, debate.last_event_seq - 1)
    await communicator.connect(PATIENCE_S)
    # The last event, sent by the follower's first look: from here on it waits.
    assert 'id="debate-seq"' in await communicator.receive_from(PATIENCE_S)
    await sync_to_async(run_next_step)(debate.code)
    batch = await communicator.receive_from(PATIENCE_S)
    assert "debate-stepper" in batch
    await communicator.disconnect(timeout=PATIENCE_S)


async def test_without_after_the_client_gets_the_full_state(member_client, make_debate):
    debate = await sync_to_async(make_debate)()
    communicator = _communicator(member_client, debate.code, None)
    await communicator.connect(PATIENCE_S)
    batch = await communicator.receive_from(PATIENCE_S)
    assert len(re.findall(r"<li data-seq=", batch)) == debate.last_event_seq
    await communicator.disconnect(timeout=PATIENCE_S)


async def test_action_forms_in_live_fragments_carry_a_working_csrf_token(member, make_debate):
    client = Client(enforce_csrf_checks=True)
    await sync_to_async(client.force_login)(member)
    debate = await sync_to_async(make_debate)(run=False)
    await sync_to_async(run_next_step)(debate.code)
    await _get(client, f"/debates/{debate.code}/")  # sets the CSRF cookie, as a page load does

    communicator = _communicator(client, debate.code, 0)
    await communicator.connect(PATIENCE_S)
    batch = await communicator.receive_from(PATIENCE_S)
    await communicator.disconnect(timeout=PATIENCE_S)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', batch).group(1)
    response = await sync_to_async(client.post)(f"/debates/{debate.code}/stop",
                                                {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    await sync_to_async(debate.refresh_from_db)()
    assert debate.stop_requested


async def test_after_the_first_push_only_the_parts_that_changed_are_sent(
        member_client, make_debate, fast_poll):
    debate = await sync_to_async(make_debate)(run=False)
    await sync_to_async(run_next_step)(debate.code)  # compose
    url = f"/debates/{debate.code}/"
    page = await _get(member_client, url)
    seq = int(re.search(r'data-last-seq="(\d+)"', page).group(1))

    communicator = _communicator(member_client, debate.code, seq)
    await communicator.connect(PATIENCE_S)
    await sync_to_async(run_next_step)(debate.code)  # premortem
    first = await communicator.receive_from(PATIENCE_S)  # the socket has seen nothing: all parts
    assert {el.attrs.get("id") for el in top_level(first)} == set(SWAP_TARGETS)
    await sync_to_async(run_next_step)(debate.code)  # position: still no synthesis
    second = await communicator.receive_from(PATIENCE_S)
    await communicator.disconnect(timeout=PATIENCE_S)

    sent = {el.attrs.get("id") for el in top_level(second)}
    assert {"debate-stepper", "debate-rounds", "debate-activity", "debate-seq"} <= sent
    assert "debate-synthesis" not in sent  # unchanged, so not sent again
    assert "debate-decision" not in sent
    updated = apply_oob(apply_oob(page, first), second)
    fresh = await _get(member_client, url)
    for target in SWAP_TARGETS:
        assert _normal(outer_html(updated, target)) == _normal(outer_html(fresh, target)), target
