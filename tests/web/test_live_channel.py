"""The live channel (/ws/live/): the badge and the current team's running debates'
rows as out-of-band swaps, each sent again only when it changed."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from council_site.asgi import application
from debates.live.consumers import CLOSE_FORBIDDEN
from debates.models import Debate
from debates.runtime.execution import run_to_completion
from notifications.services import notification_create
from tests.waiting import PATIENCE_S

pytestmark = pytest.mark.django_db(transaction=True)


def _communicator(client: Client | None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if client is not None:
        cookie = "; ".join(f"{k}={v.value}" for k, v in client.cookies.items())
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, "/ws/live/", headers=headers)


@pytest.fixture
def fast_poll(settings):
    settings.COUNCIL_WS_POLL_SECONDS = 0.02


async def test_a_visitor_is_closed_with_4403():
    communicator = _communicator(None)
    assert (await communicator.connect(PATIENCE_S))[0]
    message = await communicator.receive_output(PATIENCE_S)
    assert message == {"type": "websocket.close", "code": CLOSE_FORBIDDEN}


async def test_rows_and_badge_follow_the_database(member, team, member_client, make_debate,
                                                  fast_poll):
    other = await sync_to_async(make_debate)(run=False, question="Elsewhere?")
    running = await sync_to_async(make_debate)(run=False)
    communicator = _communicator(member_client)
    assert (await communicator.connect(PATIENCE_S))[0]
    # The badge (nothing unread) and the rows of the running debates, out of band,
    # each in a message of its own (one parse each: a <tr> after an <a> would be lost).
    first = [await communicator.receive_from(PATIENCE_S) for _ in range(3)]
    assert 'id="nav-notifications" hx-swap-oob="true"' in first[0]
    rows = sorted(first[1:], key=lambda html: str(other.code) in html)
    assert rows[0].lstrip().startswith(f'<tr id="debate-row-{running.code}" hx-swap-oob="true"')
    assert rows[1].lstrip().startswith(f'<tr id="debate-row-{other.code}"')
    assert "Queued" in rows[0]

    await sync_to_async(run_to_completion)(running.code)
    changed = await communicator.receive_from(PATIENCE_S)
    # Only what changed: the finished debate's row, with its final status.
    assert f"debate-row-{running.code}" in changed and "Succeeded" in changed
    assert f"debate-row-{other.code}" not in changed and "nav-notifications" not in changed

    await sync_to_async(notification_create)(
        user=member, kind="debate_finished", key="k1", title="Done", body="",
        url="/", team=team)
    badge = await communicator.receive_from(PATIENCE_S)
    assert 'data-unread="1"' in badge and "debate-row" not in badge
    # A finished debate is followed no more: nothing else arrives.
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()
    assert (await sync_to_async(Debate.objects.count)()) == 2


async def test_the_badge_and_rows_speak_the_users_language(member, team, make_debate,
                                                           fast_poll):
    """The channel renders outside a request: it speaks the user's setting as the page
    does (issue 41, item 4)."""
    from accounts.models import AccountSettings

    await sync_to_async(make_debate)(run=False)
    await sync_to_async(AccountSettings.objects.create)(user=member, language="ja")
    client = Client()
    await sync_to_async(client.force_login)(member)  # the login reads the setting
    communicator = _communicator(client)
    assert (await communicator.connect(PATIENCE_S))[0]
    badge, row = [await communicator.receive_from(PATIENCE_S) for _ in range(2)]
    assert ">通知<" in badge and "Notifications" not in badge
    assert "待機中" in row and "Queued" not in row
    await communicator.disconnect()
