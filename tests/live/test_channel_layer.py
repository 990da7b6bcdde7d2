"""games/live/channel_layer.py on the real Redis: group messages from memory to a process's own
sockets and by pub/sub to the others, in order and once each; a lost subscription healed by a
resync; direct sends with their capacity, wake-ups, and no message lost or repeated when a
batch's answer never arrives (the distributed run only)."""

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
    # Database index 9 of the same server: reserved for this module (the other tests' indexes
    # are in tests/support/servers.py), so no test running beside it flushes it.
    return REDIS_URL.rsplit("/", 1)[0] + "/9"


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
    for n in range(3):  # the fixture's capacity is 3 messages per queue
        await a.send_to_members([([sock], {"type": "m", "n": n})])
    assert [(await _receive(b, sock))["n"] for _ in range(3)] == [0, 1, 2]


async def test_group_messages_reach_other_processes_in_order_and_once(layers):
    a, b = layers
    here, there, elsewhere = (await a.new_channel(), await b.new_channel(),
                              await b.new_channel())
    receiving = asyncio.ensure_future(a.receive(here))  # binds a's loop: a sends from memory
    await a.group_add("table.T.seat.0", here)
    await b.group_add("table.T.seat.0", there)
    await b.group_add("table.T.public", elsewhere)
    got: dict[str, list] = {"here": [], "there": [], "elsewhere": []}
    for start in range(0, 30, 3):  # the fixture's capacity is 3 messages per inbox
        for n in range(start, start + 3):
            await a.fan_out(["table.T.seat.0", "table.T.public"],
                            lambda g, n=n: {"type": "table.update", "n": n, "for": g})
        for _ in range(3):
            if receiving is not None:
                got["here"].append((await asyncio.wait_for(receiving, 5))["n"])
                receiving = None
            else:
                got["here"].append((await _receive(a, here))["n"])
            got["there"].append((await _receive(b, there))["n"])
            got["elsewhere"].append((await _receive(b, elsewhere))["for"])
    assert got["here"] == got["there"] == list(range(30))
    assert got["elsewhere"] == ["table.T.public"] * 30
    # Once each: nothing more is waiting anywhere, the publisher's own copy included.
    await asyncio.sleep(0.3)
    assert not a._inboxes.get(here) and not b._inboxes.get(there)


async def test_own_sockets_are_reached_without_redis(layers, monkeypatch):
    a, _ = layers
    sock = await a.new_channel()
    receiving = asyncio.ensure_future(a.receive(sock))
    await a.group_add("g", sock)
    published: list[str] = []
    redis_answers = asyncio.Event()

    async def publish_now(items):
        published.extend(group for group, _ in items)
        await redis_answers.wait()  # Redis has not answered: the socket must not wait for it

    monkeypatch.setattr(a, "_publish_now", publish_now)
    sending = asyncio.ensure_future(a.group_send("g", {"type": "m", "n": 7}))
    assert (await asyncio.wait_for(receiving, 5))["n"] == 7
    assert not sending.done()  # the publication is still under way
    redis_answers.set()
    await asyncio.wait_for(sending, 5)
    assert published == ["g"]  # other processes' members still hear of it


async def test_a_handed_over_fan_out_keeps_the_order_of_the_threads_hand_overs(layers):
    a, b = layers
    a.capacity = b.capacity = 100  # twenty waiting messages per inbox
    here, there = await a.new_channel(), await b.new_channel()
    first = asyncio.ensure_future(a.receive(here))
    await a.group_add("table.T.seat.1", here)
    await b.group_add("table.T.seat.1", there)

    def writer() -> None:  # the database thread after its commits
        for n in range(20):
            assert a.fan_out_threadsafe(["table.T.seat.1"],
                                        lambda g, n=n: {"type": "table.update", "n": n})

    await asyncio.get_running_loop().run_in_executor(None, writer)
    got = [(await asyncio.wait_for(first, 5))["n"]]
    got += [(await _receive(a, here))["n"] for _ in range(19)]
    assert got == list(range(20))
    assert [(await _receive(b, there))["n"] for _ in range(20)] == list(range(20))
    # From the loop itself (a move written there, games/services/writer.py): delivered
    # at once, after what the thread handed over.
    assert a.fan_out_threadsafe(["table.T.seat.1"], lambda g: {"type": "table.update", "n": 20})
    assert (await _receive(a, here))["n"] == 20
    assert (await _receive(b, there))["n"] == 20


async def test_a_lost_subscription_makes_the_sockets_resync(layers):
    a, b = layers
    sock = await b.new_channel()
    receiving = asyncio.ensure_future(b.receive(sock))
    await b.group_add("table.T.seat.2", sock)
    await asyncio.sleep(0.1)
    client = aioredis.from_url(_url())
    try:
        # Cut the subscriber's connection, as a Redis restart or a network cut would.
        assert await client.execute_command("CLIENT", "KILL", "TYPE", "pubsub") >= 1
    finally:
        await client.aclose()
    assert (await asyncio.wait_for(receiving, 10)) == {"type": "layer.resync"}
    # Subscribed again: publications reach the socket as before.
    for _ in range(50):
        await a.group_send("table.T.seat.2", {"type": "m", "n": 1})
        try:
            assert (await asyncio.wait_for(b.receive(sock), 0.2))["n"] == 1
            break
        except TimeoutError:
            continue
    else:
        raise AssertionError("no publication after the subscription came back")


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
