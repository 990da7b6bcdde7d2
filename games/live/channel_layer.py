"""channels-redis with fewer Redis round trips per table update (bench/ws_load.py).

Stock `RedisChannelLayer` costs four round trips per `group_send` (expire the group, read it,
expire the queues, a script sent as text) and four or five per received message (a cleanup
script, BZPOPMIN, a backup ZADD, a cleaner): one table update to four seats and the spectators
took some 36 round trips, a large part of a process's CPU under load. This subclass keeps the
stock keys, message format and rules (capacity, expiry, group expiry, no message lost when a
receive is cancelled) and changes how they are reached:

* `group_members` reads several groups in one pipelined round trip, so a caller encodes
  frames only for audiences somebody listens to; `send_to_members` delivers several messages in
  one script call per shard (EVALSHA, cached by Redis);
* every delivery also pushes a token on the queue's *wake list*; a process takes everything
  waiting on its queue in one script call (up to RECEIVE_BATCH messages, which clears the wake
  list in the same step) and, when nothing is waiting, blocks on BLPOP of the wake list. A
  delivery after the take pushes a new token, so no wake-up is lost; a lost token only costs
  WAKE_TIMEOUT.

`send` and `group_send` go the same way, so whatever sends through this class wakes the
receivers. The class relies on channels-redis 4.3 helpers (`_map_channel_keys_to_connection`,
`_group_key`, `consistent_hash`, `connection`), hence the pin in pyproject.toml;
tests/games/test_channel_layer.py runs it against the real Redis.
"""

from __future__ import annotations

import itertools
import time
from collections import defaultdict, deque
from typing import Any

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer

RECEIVE_BATCH = 100
WAKE_TIMEOUT = 2  # seconds; only a sender that bypasses this class can need it

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


class BatchingRedisChannelLayer(RedisChannelLayer):
    """RedisChannelLayer with pipelined fan-out and batched receive (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending: dict[str, deque[bytes]] = defaultdict(deque)
        self._received_token: dict[str, str] = {}
        self._scripts: dict[str, Any] = {}
        self._batch_numbers = itertools.count(1)

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
        """Deliver each message to its channels; returns how many were dropped (queue full).

        Messages for one queue keep their order (increasing scores)."""
        per_shard: dict[int, list[tuple[str, bytes, int]]] = defaultdict(list)
        for channels, message in sends:
            if not channels:
                continue
            shard_keys, key_message, key_capacity = self._map_channel_keys_to_connection(
                channels, message)
            for index, keys in shard_keys.items():
                per_shard[index].extend((k, key_message[k], key_capacity[k]) for k in keys)
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
        members = await self.group_members([group])
        await self.send_to_members([(members[group], message)])

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        assert "__asgi_channel__" not in message
        if await self.send_to_members([([channel], message)]):
            raise ChannelFull()

    async def _run(self, index: int, source: str, keys: list[Any], args: list[Any]) -> Any:
        """EVALSHA of a cached script (redis-py loads it again after a Redis restart)."""
        connection = self.connection(index)
        script = self._scripts.get(source)
        if script is None:
            script = self._scripts[source] = connection.register_script(source)
        return await script(keys=keys, args=args, client=connection)

    # --- receiving -----------------------------------------------------------------------

    async def receive_single(self, channel: str) -> tuple[Any, dict[str, Any]]:
        if "!" not in channel:
            return await super().receive_single(channel)
        # This process's own queue (Channels calls this with its receive lock held).
        key = self.prefix + channel
        index = self.consistent_hash(channel)
        pending = self._pending[key]
        while not pending:
            await self._take_batch(index, key, pending)
            if not pending:
                await self.connection(index).blpop([_wake_key(key)], timeout=WAKE_TIMEOUT)
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
