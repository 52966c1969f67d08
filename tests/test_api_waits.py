"""The cap on open long-polls and streams (api_kit.waits): slots in the cache,
per user and per token, that free themselves when their holder is gone."""

from __future__ import annotations

import time
import uuid
from types import SimpleNamespace

import pytest
from django.core.cache import cache

from api_kit import waits as api_waits
from api_kit.waits import TooManyWaits, slots_take
from tests.waiting import PATIENCE_S


def caller(user_id: int, token_id: int | None = None) -> SimpleNamespace:
    request = SimpleNamespace(user=SimpleNamespace(pk=user_id))
    if token_id is not None:
        request.api_token = SimpleNamespace(pk=token_id)
    return request


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_a_user_gets_as_many_slots_as_the_cap_and_a_released_one_is_free_again(settings):
    settings.COUNCIL_STREAMS_PER_USER = 2
    first, second = slots_take(caller(1)), slots_take(caller(1))
    with pytest.raises(TooManyWaits) as refused:
        slots_take(caller(1))
    assert refused.value.status_code == 429 and refused.value.wait > 0
    slots_take(caller(2))  # another user's slots are their own
    first.release()
    first.release()  # twice is harmless
    slots_take(caller(1))
    second.release()


def test_a_token_refused_gives_its_user_slot_back(settings):
    settings.COUNCIL_STREAMS_PER_USER = 3
    settings.COUNCIL_STREAMS_PER_TOKEN = 1
    slots_take(caller(1, token_id=7))
    with pytest.raises(TooManyWaits, match="per API token"):
        slots_take(caller(1, token_id=7))
    # The refused request took no user slot: two are still free.
    slots_take(caller(1, token_id=8))
    slots_take(caller(1, token_id=9))
    with pytest.raises(TooManyWaits, match="per user"):
        slots_take(caller(1, token_id=10))


def test_a_slot_whose_holder_died_frees_itself_and_a_renewed_one_does_not(settings,
                                                                          monkeypatch):
    settings.COUNCIL_STREAMS_PER_USER = 1
    # Long enough that a loaded machine's stall between two renewals cannot expire the
    # renewed slot; short enough to wait out.
    monkeypatch.setattr(api_waits, "SLOT_SECONDS", 4)
    slots_take(caller(1))  # never released: its process "died"
    kept = slots_take(caller(2))
    deadline = time.monotonic() + PATIENCE_S
    while True:
        kept.renew()
        try:
            slots_take(caller(1))
            break
        except TooManyWaits:
            assert time.monotonic() < deadline, "the dead holder's slot never expired"
            time.sleep(0.1)
    with pytest.raises(TooManyWaits):
        slots_take(caller(2))


@pytest.mark.scaleout
def test_the_cap_holds_across_processes_sharing_redis(scaleout, settings):
    """Two web processes are two clients of one Redis: what one took, the other sees."""
    from django.core.cache import caches

    settings.CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": scaleout.redis_url, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}
    settings.COUNCIL_STREAMS_PER_USER = 1
    held = slots_take(caller(1))
    caches["default"].close()  # a fresh connection, as another process would have
    with pytest.raises(TooManyWaits):
        slots_take(caller(1))
    held.release()
    slots_take(caller(1)).release()
