"""channels-redis with table updates that cost one Redis round trip, and none for a process's
own sockets (bench/ws_load.py, issue #16).

Stock `RedisChannelLayer` costs four round trips per `group_send` (expire the group, read it,
expire the queues, a script sent as text) and four or five per received message (a cleanup
script, BZPOPMIN, a backup ZADD, a cleaner), and its `receive` has every waiting socket race
for a lock with two fresh tasks per message. This subclass keeps its keys and rules for what it
keeps (a channel's queue, capacity, expiry, group memberships in Redis) and changes the path
of a group message:

* **A process's own sockets are reached from memory.** The layer remembers which of its own
  channels joined which group (`group_add` and `group_discard` still write Redis's group set,
  as stock). A group message reaches those channels straight from memory, on the sockets'
  event loop: the writer's own sockets see an update without waiting for Redis at all.
* **Other processes are reached by Redis pub/sub.** A process subscribes to the publications
  of every group it has a member in (and `group_add` returns once Redis confirmed, so nothing
  published after it is missed); a group message is one PUBLISH, which Redis pushes to the
  subscribed processes, each handing it to its members. One table update to five audiences is
  one pipelined round trip for the sender and no round trip at all for a receiver (it was two
  for the sender and two per receiving process, the take and the wake-up). Each publication
  starts with the publisher's mark, so the publisher skips its own when Redis hands it back.
  One publisher task per process sends them, in order: one table's updates leave in the order
  of their commits.
* **A lost subscription is healed by a resync.** Pub/sub does not keep what a disconnected
  subscriber missed. redis-py subscribes again when it makes the connection anew; the layer
  then tells every socket of the process that is in a group to resync (`layer.resync`, which
  sends each its current view), as a client does after a gap. A Redis restart also ends the
  reads of the channels' own queues, which closes the sockets as stock does: their clients
  reconnect.
* **Receiving without a lock and two tasks per message.** Each channel has an inbox and at
  most a future; one task per process reads the process's own queue (direct sends to a
  channel, below) while somebody waits.
* Direct sends to one channel (`send`, `send_to_members`) keep the stock queue per process,
  with fewer round trips: a delivery script (EVALSHA) that also pushes a token on the queue's
  *wake list*, and a take of up to RECEIVE_BATCH messages in one script call that clears the
  wake list; when nothing is waiting the reader blocks on BLPOP of the wake list. A batch
  whose answer never arrived is restored from its backup on the next take.

The class relies on channels-redis 4.3 helpers (`_map_channel_keys_to_connection`,
`_group_key`, `consistent_hash`, `connection`, `non_local_name`), hence the pin in
pyproject.toml; tests/live/test_channel_layer.py runs it against the real Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import logging
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer
from redis.asyncio import Redis

log = logging.getLogger(__name__)

RECEIVE_BATCH = 100
WAKE_TIMEOUT = 2  # seconds; only a sender that bypasses this class can need it
# An inbox nobody has received from for this long (its socket is gone) is dropped.
ABANDONED_AFTER = 60.0
SWEEP_EVERY = 10.0

# KEYS: n queue keys, then their n wake lists. ARGV: for each queue its message, capacity and
# score, then the queue expiry (seconds) and the oldest score still alive. As stock group_send:
# expired messages are removed first, and a message to a full queue is dropped and counted.
_SEND = """
local n = #KEYS / 2
local expiry = tonumber(ARGV[3 * n + 1])
local oldest = tonumber(ARGV[3 * n + 2])
local dropped = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, oldest)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], ARGV[2 * n + i], ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
        if redis.call('LLEN', KEYS[n + i]) == 0 then
            redis.call('RPUSH', KEYS[n + i], 1)
            redis.call('EXPIRE', KEYS[n + i], expiry)
        end
    else
        dropped = dropped + 1
    end
end
return dropped
"""

# KEYS: the queue, its wake list, its batch backup (a sorted set), the backup's token.
# ARGV: the token of the last batch this process received in full, a new token, the batch
# size, the backup's expiry. A backup whose token is not the received one belongs to a call
# whose answer never arrived (cancelled): its messages go back to the queue with their scores.
_TAKE = """
redis.call('DEL', KEYS[2])
local held = redis.call('GET', KEYS[4])
if held then
    if held ~= ARGV[1] then
        local lost = redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES')
        for i = 1, #lost, 2 do
            redis.call('ZADD', KEYS[1], lost[i + 1], lost[i])
        end
    end
    redis.call('DEL', KEYS[3], KEYS[4])
end
local popped = redis.call('ZPOPMIN', KEYS[1], tonumber(ARGV[3]))
if #popped == 0 then
    return popped
end
for i = 1, #popped, 2 do
    redis.call('ZADD', KEYS[3], popped[i + 1], popped[i])
end
redis.call('EXPIRE', KEYS[3], tonumber(ARGV[4]))
redis.call('SET', KEYS[4], ARGV[2], 'EX', tonumber(ARGV[4]))
return popped
"""


def _wake_key(queue_key: str | bytes) -> str:
    text = queue_key.decode("utf8") if isinstance(queue_key, bytes) else queue_key
    return text + "$wake"


Build = Callable[[str], dict[str, Any]]


class _Built:
    """A fan-out's message per group, built on first use and then shared."""

    def __init__(self, build: Build) -> None:
        self.build = build
        self.made: dict[str, dict[str, Any]] = {}

    def __call__(self, group: str) -> dict[str, Any]:
        found = self.made.get(group)
        if found is None:
            found = self.made[group] = self.build(group)
        return found


SUBSCRIBE_TIMEOUT = 10.0  # seconds for Redis to confirm a subscription
# Told to every socket of a process in a group when publications may have been missed.
RESYNC_MESSAGE = {"type": "layer.resync"}


class _Listener:
    """One Redis connection per shard that listens to the publications of the groups this
    process has members in, and hands each to the layer. redis-py subscribes again by itself
    when it makes the connection anew; what was published meanwhile is lost, so every
    reconnection also tells the layer to have its sockets resync."""

    def __init__(self, layer: BatchingRedisChannelLayer, index: int) -> None:
        self.layer = layer
        self.index = index
        # Its connection and task belong to the loop it was made on.
        self.loop = asyncio.get_running_loop()
        self.names: set[str] = set()
        self.pubsub: Any = None
        self.task: asyncio.Task[None] | None = None
        self.confirmations: dict[str, list[asyncio.Future[None]]] = defaultdict(list)
        self.connected_once = False
        # redis-py's PubSub makes its connection on the first command: two first commands at
        # once would make two, and one would never be read. One command at a time.
        self.lock = asyncio.Lock()

    async def subscribe(self, name: str) -> None:
        confirmed = asyncio.get_running_loop().create_future()
        async with self.lock:
            if self.pubsub is None:
                self.pubsub = self.layer.connection(self.index).pubsub()
            self.confirmations[name].append(confirmed)
            await self.pubsub.subscribe(name)
            self.names.add(name)
            if not self.connected_once:
                self.connected_once = True
                self.pubsub.connection.register_connect_callback(self._reconnected)
            if self.task is None or self.task.done():
                self.task = asyncio.get_running_loop().create_task(self._listen())
        await asyncio.wait_for(confirmed, SUBSCRIBE_TIMEOUT)

    async def unsubscribe(self, name: str) -> None:
        async with self.lock:
            if self.pubsub is not None and name in self.names:
                self.names.discard(name)
                await self.pubsub.unsubscribe(name)

    def _reconnected(self, _connection: Any) -> None:
        # Called on every connect after the first one (registered after it).
        log.warning("channel layer: listening to publications again after a lost connection")
        loop = self.layer._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon(self.layer._resync_all)

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away: try again, then resync
                log.warning("channel layer: publications unreachable, retrying", exc_info=True)
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            kind = message["type"]
            name = message["channel"]
            if isinstance(name, bytes):
                name = name.decode()
            if kind == "message":
                self.layer._published(name, message["data"])
            elif kind == "subscribe":
                for confirmed in self.confirmations.pop(name, []):
                    if not confirmed.done():
                        confirmed.set_result(None)

    async def close(self) -> None:
        if self.loop is not asyncio.get_running_loop():
            self.pubsub, self.task = None, None  # its loop is gone with its connection
            self.names.clear()
            return
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):  # cancelled, or already failed
                await self.task
        if self.pubsub is not None:
            with contextlib.suppress(Exception):  # the connection is gone anyway
                await self.pubsub.aclose()
        self.pubsub, self.task = None, None
        self.names.clear()


async def _wait_token(connection: Redis, key: str) -> None:
    """Block until a wake token for queue `key` arrives, or WAKE_TIMEOUT passes."""
    # redis-py types a command for both of its clients (a list, or an awaitable of one); the
    # asyncio client's is always awaitable.
    await cast("Awaitable[list[Any]]",
               connection.blpop([_wake_key(key)], timeout=WAKE_TIMEOUT))


class _TypedRedisChannelLayer(RedisChannelLayer):
    """RedisChannelLayer as this module calls it: channels-redis carries no annotations, so
    the signatures of the methods used here are declared for the type checker (channels-redis
    4.x, channels/layers.py); at run time this class adds nothing."""

    if TYPE_CHECKING:
        client_prefix: str

        def __init__(self, hosts: list[Any] | None = None, prefix: str = "asgi",
                     expiry: int = 60, group_expiry: int = 86400, capacity: int = 100,
                     channel_capacity: dict[str, int] | None = None,
                     symmetric_encryption_keys: list[str] | None = None,
                     random_prefix_length: int = 12, serializer_format: str = "msgpack"
                     ) -> None: ...

        def connection(self, index: int) -> Redis: ...

        def consistent_hash(self, value: str) -> int: ...

        def non_local_name(self, name: str) -> str: ...

        def require_valid_group_name(self, name: str) -> bool: ...

        def require_valid_channel_name(self, name: str, receive: bool = False) -> bool: ...

        def _group_key(self, group: str) -> bytes: ...

        def _map_channel_keys_to_connection(
                self, channel_names: list[str], message: dict[str, Any]
        ) -> tuple[dict[int, list[str]], dict[str, bytes], dict[str, int]]: ...

        def serialize(self, message: dict[str, Any]) -> bytes: ...

        def deserialize(self, message: bytes) -> dict[str, Any]: ...

        async def group_add(self, group: str, channel: str) -> None: ...

        async def group_discard(self, group: str, channel: str) -> None: ...

        async def flush(self) -> None: ...

        async def receive(self, channel: str) -> dict[str, Any]: ...

        async def receive_single(self, channel: str) -> tuple[str, dict[str, Any]]: ...


class BatchingRedisChannelLayer(_TypedRedisChannelLayer):
    """RedisChannelLayer with in-process delivery to its own sockets, pipelined fan-out and
    batched, lock-free receive (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending: dict[str, deque[bytes]] = defaultdict(deque)
        self._received_token: dict[str, str] = {}
        self._scripts: dict[str, Any] = {}
        self._batch_numbers = itertools.count(1)
        # Queue keys whose last take emptied them (and cleared their wake list): the next
        # receive blocks on the wake list at once instead of taking an empty batch first.
        self._drained: set[str] = set()
        # This process's channels by group, as they joined (the groups live in Redis too).
        self._own_groups: dict[str, set[str]] = defaultdict(set)
        # Per channel of this process: messages not yet received, and the receiver waiting.
        self._inboxes: dict[str, deque[dict[str, Any]]] = {}
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._abandoned: dict[str, float] = {}  # channel -> since when nobody receives
        self._next_sweep = 0.0
        self._readers: dict[str, asyncio.Task[None]] = {}  # queue -> the task reading it
        self._waiting: dict[str, int] = defaultdict(int)  # queue -> receivers waiting
        self._loop: asyncio.AbstractEventLoop | None = None  # the receivers' event loop
        # Group fan-out between processes: Redis pub/sub (see the module doc).
        self._origin = self.client_prefix.encode()
        self._listeners: dict[int, _Listener] = {}
        self._outbox: deque[tuple[list[tuple[str, bytes]], asyncio.Future[None] | None]] = (
            deque())
        self._publisher: asyncio.Task[None] | None = None

    def _own(self, channel: str) -> bool:
        return "!" in channel and self.non_local_name(channel).endswith(
            self.client_prefix + "!")

    def _on_loop(self) -> bool:
        """Whether this call runs on the receivers' loop (where the inboxes may be touched)."""
        try:
            return asyncio.get_running_loop() is self._loop
        except RuntimeError:
            return False

    # --- groups ---------------------------------------------------------------------------

    async def group_add(self, group: str, channel: str) -> None:
        await super().group_add(group, channel)
        if self._own(channel):
            first = group not in self._own_groups
            self._own_groups[group].add(channel)
            if first or not self._listening(group):
                await self._subscribe(group)

    async def group_discard(self, group: str, channel: str) -> None:
        members = self._own_groups.get(group)
        if members is not None:
            members.discard(channel)
            if not members:
                del self._own_groups[group]
                await self._unsubscribe(group)
        await super().group_discard(group, channel)

    def _listening(self, group: str) -> bool:
        listener = self._listeners.get(self.consistent_hash(group))
        return (listener is not None and self._fanout_name(group) in listener.names
                and listener.loop is asyncio.get_running_loop())

    async def flush(self) -> None:
        for listener in list(self._listeners.values()):
            await listener.close()
        self._listeners.clear()
        if self._publisher is not None:
            self._publisher.cancel()
            self._publisher = None
        self._outbox.clear()
        await super().flush()
        self._own_groups.clear()
        self._inboxes.clear()
        self._abandoned.clear()
        self._pending.clear()
        self._drained.clear()

    # --- sending -------------------------------------------------------------------------

    async def group_members(self, groups: list[str]) -> dict[str, list[str]]:
        """The current channels of each group (expired memberships dropped first)."""
        by_shard: dict[int, list[str]] = defaultdict(list)
        for group in groups:
            assert self.require_valid_group_name(group), "Group name not valid"
            by_shard[self.consistent_hash(group)].append(group)
        oldest = int(time.time()) - self.group_expiry
        members: dict[str, list[str]] = {}
        for index, shard_groups in by_shard.items():
            pipe = self.connection(index).pipeline(transaction=False)
            for group in shard_groups:
                key = self._group_key(group)
                pipe.zremrangebyscore(key, min=0, max=oldest)
                pipe.zrange(key, 0, -1)
            replies = await pipe.execute()
            for i, group in enumerate(shard_groups):
                members[group] = [m.decode("utf8") for m in replies[2 * i + 1]]
        return members

    async def send_to_members(self, sends: list[tuple[list[str], dict[str, Any]]]) -> int:
        """Deliver each message to its channels through Redis; returns how many were dropped
        (queue full). Messages for one queue keep their order (increasing scores)."""
        per_shard: dict[int, list[tuple[str, bytes, int]]] = defaultdict(list)
        for channels, message in sends:
            if not channels:
                continue
            shard_keys, key_message, key_capacity = self._map_channel_keys_to_connection(
                channels, message)
            for index, shard in shard_keys.items():
                per_shard[index].extend((k, key_message[k], key_capacity[k]) for k in shard)
        dropped = 0
        now = time.time()
        for index, items in per_shard.items():
            keys: list[Any] = [k for k, _, _ in items]
            keys += [_wake_key(k) for k, _, _ in items]
            args: list[Any] = [m for _, m, _ in items]
            args += [c for _, _, c in items]
            # Distinct, increasing scores: equal scores would be popped in byte order.
            args += [repr(now + i * 1e-6) for i in range(len(items))]
            args += [int(self.expiry), int(now) - int(self.expiry)]
            dropped += int(await self._run(index, _SEND, keys, args))
        return dropped

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.fan_out([group], lambda _group: message)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        assert "__asgi_channel__" not in message
        if self._own(channel) and self._on_loop():
            if not self._put(channel, message):
                raise ChannelFull()
            return
        if await self.send_to_members([([channel], message)]):
            raise ChannelFull()

    async def fan_out(self, groups: list[str], build: Build) -> int:
        """Send each group its message `build(group)`, built once per group: to this
        process's own members from memory (when called on the receivers' loop), to the other
        processes' members with one PUBLISH per group (one round trip for all). Returns how
        many of this process's deliveries were dropped (a full inbox)."""
        message = _Built(build)
        local = self._on_loop()
        dropped = self._deliver_own(groups, message) if local else 0
        items = [(g, self._payload(message(g), delivered_here=local)) for g in groups]
        if local:
            done = asyncio.get_running_loop().create_future()
            self._queue_publish(items, done)
            await done
        else:
            await self._publish_now(items)
        return dropped

    def fan_out_threadsafe(self, groups: list[str], build: Build) -> bool:
        """`fan_out` from a thread that is not the receivers' loop (the database thread
        after a commit), without waiting for it: on the loop, first in, first out, this
        process's sockets get their messages at once and the publishes leave in the same order
        (one publisher per process); called on that loop itself, at once. False (nothing done)
        without a running receivers' loop (a Celery worker, a script): the caller then sends
        the ordinary way."""
        loop = self._loop
        if loop is None or loop.is_closed() or not loop.is_running():
            return False

        def start() -> None:
            message = _Built(build)
            dropped = self._deliver_own(groups, message)
            if dropped:
                log.warning("%s update(s) dropped for %s: an inbox was full", dropped,
                            groups[0])
            self._queue_publish(
                [(g, self._payload(message(g), delivered_here=True)) for g in groups], None)

        if self._on_loop():
            start()  # a writer on the loop itself (games/services/writer.py `submit_move`): now
            return True
        try:
            # A fresh context: the calling thread's executor bookkeeping stays behind.
            loop.call_soon_threadsafe(start, context=contextvars.Context())
        except RuntimeError:  # the loop closed meanwhile
            return False
        return True

    # --- publishing ------------------------------------------------------------------------

    def _fanout_name(self, group: str) -> str:
        return f"{self.prefix}:fanout:{group}"

    def _payload(self, message: dict[str, Any], *, delivered_here: bool) -> bytes:
        # The publisher's mark first: a process that reached its own members from memory
        # skips its own publication when Redis hands it back.
        origin = self._origin if delivered_here else b"-" * len(self._origin)
        return origin + self.serialize(message)

    def _queue_publish(self, items: list[tuple[str, bytes]],
                       done: asyncio.Future[None] | None) -> None:
        """On the receivers' loop: hand publishes to the process's one publisher task, which
        sends everything waiting in one pipeline per shard (in order: one connection)."""
        self._outbox.append((items, done))
        task = self._publisher
        if task is None or task.done():
            assert self._loop is not None
            self._publisher = self._loop.create_task(self._publish_waiting())

    async def _publish_waiting(self) -> None:
        while self._outbox:
            batch = list(self._outbox)
            self._outbox.clear()
            items = [item for items, _ in batch for item in items]
            try:
                await self._publish_now(items)
            except Exception as exc:  # the sockets resync (below, and on gaps)
                log.exception("publishing %s message(s) failed", len(items))
                for _, done in batch:
                    if done is not None and not done.done():
                        done.set_exception(exc)
                continue
            for _, done in batch:
                if done is not None and not done.done():
                    done.set_result(None)

    async def _publish_now(self, items: list[tuple[str, bytes]]) -> None:
        by_shard: dict[int, list[tuple[str, bytes]]] = defaultdict(list)
        for group, payload in items:
            by_shard[self.consistent_hash(group)].append((self._fanout_name(group), payload))
        for index, publishes in by_shard.items():
            pipe = self.connection(index).pipeline(transaction=False)
            for name, payload in publishes:
                pipe.publish(name, payload)
            await pipe.execute()

    # --- subscribing -----------------------------------------------------------------------

    async def _subscribe(self, group: str) -> None:
        """Listen to a group's publications (this process has a member now); returns once
        Redis has confirmed, so nothing published after the caller's next step is missed."""
        name = self._fanout_name(group)
        index = self.consistent_hash(group)
        listener = self._listeners.get(index)
        if listener is None or listener.loop is not asyncio.get_running_loop():
            listener = self._listeners[index] = _Listener(self, index)
        await listener.subscribe(name)

    async def _listen_again(self) -> None:
        """On a new receivers' loop (the old one ended: a test's, a restarted server's): the
        subscriptions anew on this loop, then a resync, for what was published meanwhile."""
        for group in list(self._own_groups):
            if not self._listening(group):
                await self._subscribe(group)
        self._resync_all()

    async def _unsubscribe(self, group: str) -> None:
        listener = self._listeners.get(self.consistent_hash(group))
        if listener is not None:
            await listener.unsubscribe(self._fanout_name(group))

    def _published(self, name: str, payload: bytes) -> None:
        """A publication handed back by Redis: deliver it to this process's members."""
        if payload.startswith(self._origin):
            return  # ours, delivered from memory already
        group = name[len(self.prefix) + len(":fanout:"):]
        members = self._own_groups.get(group)
        if not members:
            return
        message = self.deserialize(payload[len(self._origin):])
        for channel in tuple(members):
            self._put(channel, message)

    def _resync_all(self) -> None:
        """After the connection that listens to publications was lost and made again, some
        may never have arrived: every socket of this process in a group is told to resync
        (RESYNC_MESSAGE), which sends each its current view."""
        channels = {c for members in self._own_groups.values() for c in members}
        for channel in channels:
            self._put(channel, dict(RESYNC_MESSAGE))

    def _deliver_own(self, groups: list[str], message: Callable[[str], dict[str, Any]]
                     ) -> int:
        dropped = 0
        for group in groups:
            for channel in tuple(self._own_groups.get(group, ())):
                if not self._put(channel, message(group)):
                    dropped += 1
        return dropped

    async def _run(self, index: int, source: str, keys: list[Any], args: list[Any]) -> Any:
        """EVALSHA of a cached script (redis-py loads it again after a Redis restart)."""
        connection = self.connection(index)
        script = self._scripts.get(source)
        if script is None:
            script = self._scripts[source] = connection.register_script(source)
        return await script(keys=keys, args=args, client=connection)

    # --- receiving -----------------------------------------------------------------------

    def _put(self, channel: str, message: dict[str, Any]) -> bool:
        """Queue a message for one of this process's channels and wake its receiver (on the
        receivers' loop). False when its inbox is full (the message is dropped)."""
        inbox = self._inboxes.get(channel)
        if inbox is None:
            inbox = self._inboxes[channel] = deque()
            # Nobody receives on it yet: dropped in time unless somebody starts to.
            self._abandoned.setdefault(channel, time.monotonic())
        if len(inbox) >= self.capacity:
            return False
        # Each receiver its own dict, as if it had come through Redis.
        inbox.append(dict(message))
        waiters = self._waiters.get(channel)
        if waiters:
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)
                    break
        return True

    async def receive(self, channel: str) -> dict[str, Any]:
        if "!" not in channel:
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        assert self._own(channel), "Wrong client prefix"
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            if self._loop is not None and self._loop.is_running() and self._waiters:
                raise RuntimeError(
                    "Two event loops are trying to receive() on one channel layer at once!")
            # A new loop (a test's, a restarted server's): the old one's futures stay behind.
            self._loop = loop
            self._waiters, self._readers = {}, {}
            self._waiting.clear()
            if any(listener.loop is not loop for listener in self._listeners.values()):
                loop.create_task(self._listen_again())
        self._sweep()
        self._abandoned.pop(channel, None)
        inbox = self._inboxes.setdefault(channel, deque())
        real = self.non_local_name(channel)
        try:
            while not inbox:
                waiter = loop.create_future()
                waiters = self._waiters.setdefault(channel, [])
                waiters.append(waiter)
                self._waiting[real] += 1
                self._ensure_reader(real)
                try:
                    await waiter
                finally:
                    self._waiting[real] -= 1
                    waiters.remove(waiter)
                    if not waiters and self._waiters.get(channel) is waiters:
                        del self._waiters[channel]
        except asyncio.CancelledError:
            self._abandoned[channel] = time.monotonic()
            raise
        return inbox.popleft()

    def _ensure_reader(self, real: str) -> None:
        """One task per process queue reads it while somebody waits on one of its channels."""
        task = self._readers.get(real)
        if task is None or task.done():
            assert self._loop is not None
            self._readers[real] = self._loop.create_task(self._read(real))

    async def _read(self, real: str) -> None:
        try:
            while self._waiting[real] > 0:
                target, message = await self.receive_single(real)
                for one in target if isinstance(target, list) else [target]:
                    self._put(one, message)
        except Exception as exc:  # noqa: BLE001 - handed to the receivers, as stock raises it
            # Redis is unreachable (a restart, a network cut): every receiver of this queue
            # gets the error, as each would from stock channels-redis, and its socket closes;
            # the clients reconnect and join their groups again.
            for channel, waiters in list(self._waiters.items()):
                if self.non_local_name(channel) == real:
                    for waiter in waiters:
                        if not waiter.done():
                            waiter.set_exception(exc)
        finally:
            try:
                current = asyncio.current_task()
            except RuntimeError:  # its loop is being closed under it
                current = None
            if current is not None and self._readers.get(real) is current:
                del self._readers[real]

    def _sweep(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY
        for channel, since in list(self._abandoned.items()):
            if now - since > ABANDONED_AFTER and channel not in self._waiters:
                del self._abandoned[channel]
                self._inboxes.pop(channel, None)
                for group in [g for g, chans in self._own_groups.items() if channel in chans]:
                    self._own_groups[group].discard(channel)
                    if not self._own_groups[group]:
                        del self._own_groups[group]
                        if self._loop is not None and self._loop.is_running():
                            self._loop.create_task(self._unsubscribe(group))

    async def receive_single(self, channel: str) -> tuple[Any, dict[str, Any]]:
        if "!" not in channel:
            return await super().receive_single(channel)
        # This process's own queue (one reader at a time: `_read`).
        key = self.prefix + channel
        index = self.consistent_hash(channel)
        pending = self._pending[key]
        while not pending:
            if key in self._drained:
                # The last take emptied the queue and its wake list: wait for a token first.
                self._drained.discard(key)
                await _wait_token(self.connection(index), key)
            await self._take_batch(index, key, pending)
            if not pending:
                await _wait_token(self.connection(index), key)
        message = self.deserialize(pending.popleft())
        target: Any = channel
        if "__asgi_channel__" in message:
            target = message.pop("__asgi_channel__")
        return target, message

    async def _take_batch(self, index: int, key: str, pending: deque[bytes]) -> None:
        # Unique per process and call; not uuid4 (an os.urandom call on every batch).
        token = f"{self.client_prefix}:{next(self._batch_numbers)}"
        backup = key + "$batch"
        popped = await self._run(
            index, _TAKE, [key, _wake_key(key), backup, backup + "$token"],
            [self._received_token.get(key, ""), token, RECEIVE_BATCH, max(int(self.expiry), 60)])
        # No await between the answer and here: once the batch is in memory it counts as
        # received (the next call deletes its backup instead of restoring it).
        if popped:
            self._received_token[key] = token
            pending.extend(popped[0::2])
            if len(popped) < 2 * RECEIVE_BATCH:
                self._drained.add(key)
