"""games/live/channel_layer.py on the real Redis: delivery, order, capacity, wake-ups, and no
message lost or repeated when a batch's answer never arrives (the distributed run only)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
import redis.asyncio as aioredis

from games.live.channel_layer import _TAKE, BatchingRedisChannelLayer, _wake_key

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.timeout(30),
    pytest.mark.skipif(not REDIS_URL, reason="needs Redis (the distributed run sets REDIS_URL)"),
]


def _url() -> str:
    # Database index 14 of the same server: nothing else of the site uses it.
    return REDIS_URL.rsplit("/", 1)[0] + "/14"


@pytest_asyncio.fixture
async def layers() -> AsyncIterator[list[BatchingRedisChannelLayer]]:
    """Two layers with their own process prefixes: two ASGI processes of one site."""
    made = [BatchingRedisChannelLayer(hosts=[_url()], prefix="test-layer", capacity=3)
            for _ in range(2)]
    yield made
    for layer in made:
        await layer.flush()
    client = aioredis.from_url(_url())
    await client.flushdb()
    await client.aclose()


async def _receive(layer: BatchingRedisChannelLayer, channel: str) -> dict:
    return await asyncio.wait_for(layer.receive(channel), 5)


async def test_fan_out_reaches_each_group_member_across_processes(layers):
    a, b = layers
    seat0, seat1, watcher = (await a.new_channel(), await b.new_channel(),
                             await b.new_channel())
    await a.group_add("table.T.seat.0", seat0)
    await b.group_add("table.T.seat.1", seat1)
    await b.group_add("table.T.public", watcher)
    members = await a.group_members(["table.T.seat.0", "table.T.seat.1", "table.T.seat.2",
                                     "table.T.public"])
    assert members == {"table.T.seat.0": [seat0], "table.T.seat.1": [seat1],
                       "table.T.seat.2": [], "table.T.public": [watcher]}
    dropped = await a.send_to_members([(members[g], {"type": "table.update", "for": g})
                                       for g in members])
    assert dropped == 0
    assert (await _receive(a, seat0))["for"] == "table.T.seat.0"
    assert (await _receive(b, seat1))["for"] == "table.T.seat.1"
    assert (await _receive(b, watcher))["for"] == "table.T.public"


async def test_messages_to_one_socket_keep_their_order(layers):
    a, b = layers
    sock = await b.new_channel()
    await b.group_add("g", sock)
    for n in range(2):  # the fixture's capacity is 3 messages per queue
        await a.group_send("g", {"type": "m", "n": n})
    await a.send_to_members([([sock], {"type": "m", "n": 2})])
    assert [(await _receive(b, sock))["n"] for _ in range(3)] == [0, 1, 2]


async def test_a_receiver_that_waits_is_woken_by_the_next_message(layers, monkeypatch):
    # With the fallback poll far away, only the wake list can deliver within the test.
    monkeypatch.setattr("games.live.channel_layer.WAKE_TIMEOUT", 60)
    a, b = layers
    sock = await b.new_channel()
    waiting = asyncio.ensure_future(b.receive(sock))
    await asyncio.sleep(0.3)  # the receiver is blocked on its wake list by now
    assert not waiting.done()
    await a.send(sock, {"type": "m", "n": 1})
    assert (await asyncio.wait_for(waiting, 20))["n"] == 1


async def test_a_full_queue_drops_and_says_so(layers):
    a, b = layers
    sock = await b.new_channel()
    # capacity 3 counts per process queue, as in stock channels-redis
    assert await a.send_to_members([([sock], {"type": "m", "n": n}) for n in range(5)]) == 2
    from channels.exceptions import ChannelFull

    with pytest.raises(ChannelFull):
        await a.send(sock, {"type": "m", "n": 9})
    assert [(await _receive(b, sock))["n"] for _ in range(3)] == [0, 1, 2]


async def test_a_batch_whose_answer_was_lost_is_delivered_again_once(layers):
    a, b = layers
    sock = await b.new_channel()
    await a.send_to_members([([sock], {"type": "m", "n": n}) for n in range(2)])
    key = b.prefix + b.non_local_name(sock)
    backup = key + "$batch"
    # A take whose reply never reached the process (its receive was cancelled mid-call):
    # the script ran, the process never recorded its token.
    taken = await b._run(b.consistent_hash(sock), _TAKE,
                         [key, _wake_key(key), backup, backup + "$token"],
                         ["", "lost-token", 100, 60])
    assert len(taken) == 4  # two messages with their scores
    got = [(await _receive(b, sock))["n"] for _ in range(2)]
    assert got == [0, 1]
    # Received in full now: the next take deletes the backup instead of restoring it.
    await a.send(sock, {"type": "m", "n": 2})
    assert (await _receive(b, sock))["n"] == 2
    client = aioredis.from_url(_url())
    try:
        assert await client.zcard(key) == 0
    finally:
        await client.aclose()
