"""The Redis channel layer as configured: a live page's consumer waits for its debate's
doorbell for as long as the debate is quiet, without its connection timing out."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels_redis.core import RedisChannelLayer

from council_site.env import redis_channel_layer
from tests.waiting import PATIENCE_S

pytestmark = pytest.mark.scaleout


async def test_a_receive_outlasts_a_quiet_spell_longer_than_the_blocking_read(scaleout):
    """channels_redis blocks 5 s per BZPOPMIN; with redis-py's default 5 s socket timeout
    the read timed out first (TimeoutError, the consumer closed with 1011)."""
    config = redis_channel_layer(scaleout.redis_url)["CONFIG"]
    layer = RedisChannelLayer(**{**config, "prefix": f"council-test-{time.monotonic_ns()}"})
    channel = await layer.new_channel()

    async def ring_later() -> None:
        await asyncio.sleep(layer.brpop_timeout + 2)
        await layer.send(channel, {"type": "debate.event", "seq": 1})

    ringing = asyncio.ensure_future(ring_later())
    started = time.monotonic()
    try:
        message = await asyncio.wait_for(layer.receive(channel), timeout=PATIENCE_S)
    finally:
        ringing.cancel()
        await layer.flush()
    assert message == {"type": "debate.event", "seq": 1}
    assert time.monotonic() - started >= layer.brpop_timeout + 2
