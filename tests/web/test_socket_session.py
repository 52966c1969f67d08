"""The live sockets (/ws/live/ and /ws/debates/<code>/) end with their session: after a
logout, or a password change in another session, they push nothing more and close with
4401, within the re-check period even when idle."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from debates.live.session import CLOSE_SESSION_ENDED
from debates.runtime.execution import run_next_step
from tests.conftest import PASSWORD
from tests.waiting import PATIENCE_S
from tests.web.sockets import socket_for

pytestmark = pytest.mark.django_db(transaction=True)

CLOSED = {"type": "websocket.close", "code": CLOSE_SESSION_ENDED}


@pytest.fixture
def fast(settings):
    settings.COUNCIL_WS_POLL_SECONDS = 0.02
    settings.COUNCIL_STREAM_RECHECK_SECONDS = 0.05


def _log_out(client: Client, user: User) -> None:
    assert client.post("/accounts/logout/").status_code == 302


def _change_password_elsewhere(client: Client, user: User) -> None:
    other = Client()
    other.force_login(user)
    answer = other.post("/accounts/password_change/", {
        "old_password": PASSWORD, "new_password1": "a quite different passphrase 42",
        "new_password2": "a quite different passphrase 42"})
    assert answer.status_code == 302
    assert other.get("/debates/").status_code == 200  # session B carries on


ENDINGS = {"logout": _log_out, "password changed elsewhere": _change_password_elsewhere}


async def _open(client: Client, path: str, first: Callable[[str], bool]
                ) -> WebsocketCommunicator:
    communicator = socket_for(client, path)
    assert (await communicator.connect(PATIENCE_S))[0]
    assert first(await communicator.receive_from(PATIENCE_S))  # live before the change
    return communicator


async def _debate_socket(client: Client, make_debate: Any) -> tuple[WebsocketCommunicator,
                                                                   Callable[[], Awaitable[Any]]]:
    debate = await sync_to_async(make_debate)(run=False)
    communicator = await _open(client, f"/ws/debates/{debate.code}/?after=0",
                               lambda html: "debate-seq" in html)
    return communicator, sync_to_async(lambda: run_next_step(debate.code))


async def _live_socket(client: Client, make_debate: Any) -> tuple[WebsocketCommunicator,
                                                                 Callable[[], Awaitable[Any]]]:
    communicator = await _open(client, "/ws/live/", lambda html: "nav-notifications" in html)
    return communicator, sync_to_async(lambda: make_debate(run=False, question="After?"))


SOCKETS = {"debate page": _debate_socket, "live channel": _live_socket}


@pytest.mark.parametrize("socket", SOCKETS)
@pytest.mark.parametrize("ending", ENDINGS)
async def test_news_after_the_session_ended_never_reaches_the_socket(
        member, member_client, make_debate, fast, socket, ending):
    communicator, news = await SOCKETS[socket](member_client, make_debate)
    await sync_to_async(ENDINGS[ending])(member_client, member)
    await news()  # a step of the debate, or a debate started after the change
    assert await communicator.receive_output(PATIENCE_S) == CLOSED


@pytest.mark.parametrize("socket", SOCKETS)
async def test_an_idle_socket_closes_within_the_recheck_period(
        member, member_client, make_debate, fast, socket):
    communicator, _ = await SOCKETS[socket](member_client, make_debate)
    await sync_to_async(_log_out)(member_client, member)
    assert await communicator.receive_output(PATIENCE_S) == CLOSED


@pytest.mark.parametrize("socket", SOCKETS)
async def test_a_valid_session_keeps_its_socket(member, member_client, make_debate, fast,
                                                socket):
    communicator, news = await SOCKETS[socket](member_client, make_debate)
    await news()
    assert "hx-swap-oob" in await communicator.receive_from(PATIENCE_S)
    await communicator.disconnect(timeout=PATIENCE_S)
