"""The embedded mode's channel layer: Channels' in-memory layer without its per-message sweep.

Stock `InMemoryChannelLayer` walks every queue of the process and every member of every group
(`_clean_expired`) on each `group_send` and on each `receive`: with a few hundred sockets that
walk is done thousands of times a second, and bench/ws_load.py's profile of the embedded mode
found it the largest single cost of a table update (issue #16: a third of the process's CPU at
100 tables). The walk only removes messages older than `expiry` and memberships older than
`group_expiry`, so doing it at most once per CLEAN_INTERVAL keeps those rules (an expired
message may live up to CLEAN_INTERVAL longer) at a cost that no longer grows with the number of
sockets times the number of messages.

`group_send` also puts the message on each member's queue directly instead of one task per
member: `send` never waits (a full queue drops the message, as stock), so the tasks bought
nothing but scheduling.

`fan_out_threadsafe` lets the writer's thread hand a table update to the event loop without
waiting for it. With `async_to_sync` the embedded mode's one database thread (SQLite: every
write of every table runs on it) stood still after each commit until the busy event loop got
round to the fan-out: at 300 tables the process served 78 actions/s at a third of a core, with
5 s medians (issue #16). Updates handed over from one thread keep their order: the loop runs
`call_soon_threadsafe` callbacks first in, first out, and each delivery runs to its end without
yielding.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from copy import deepcopy
from typing import TYPE_CHECKING, Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

CLEAN_INTERVAL = 1.0  # seconds between two sweeps of expired messages and memberships


class _TypedInMemoryChannelLayer(InMemoryChannelLayer):
    """InMemoryChannelLayer as this module calls it: Channels carries no annotations, so the
    signatures of the methods used here are declared for the type checker (channels/layers.py,
    4.x); at run time this class adds nothing."""

    if TYPE_CHECKING:
        expiry: int
        groups: dict[str, dict[str, float]]
        channels: dict[str, asyncio.Queue[tuple[float, dict[str, Any]]]]

        def __init__(self, expiry: int = 60, group_expiry: int = 86400, capacity: int = 100,
                     channel_capacity: dict[str, int] | None = None) -> None: ...

        def _clean_expired(self) -> None: ...

        def require_valid_group_name(self, name: str) -> bool: ...

        def get_capacity(self, channel: str) -> int: ...

        async def send(self, channel: str, message: dict[str, Any]) -> None: ...

        async def group_add(self, group: str, channel: str) -> None: ...


class LeanInMemoryChannelLayer(_TypedInMemoryChannelLayer):
    """InMemoryChannelLayer with its expiry sweep rate-limited and a task-free group_send."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._next_clean = 0.0
        # The event loop of the sockets (bound by every group_add, which runs on it).
        self._loop: asyncio.AbstractEventLoop | None = None

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_clean:
            return
        self._next_clean = now + CLEAN_INTERVAL
        super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            # As stock: a full queue loses the message; its socket resyncs on a gap.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)

    async def group_add(self, group: str, channel: str) -> None:
        self._loop = asyncio.get_running_loop()
        await super().group_add(group, channel)

    def members(self, group: str) -> list[str]:
        """The channels of a group now (a snapshot: read from any thread)."""
        return list(self.groups.get(group, {}))

    def _put(self, channel: str, message: dict[str, Any]) -> None:
        # As `send`, on the loop's thread, without a coroutine.
        queue = self.channels.setdefault(
            channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        # As group_send: a full queue loses the message; its socket resyncs on a gap.
        with contextlib.suppress(asyncio.QueueFull):
            queue.put_nowait((time.time() + self.expiry, deepcopy(message)))

    def fan_out_threadsafe(self, groups: list[str], build: Any) -> bool:
        """Queue each group's message `build(group)` for its members on the sockets' event
        loop, without waiting; the message is built there, and only for a group with members,
        so the writer's thread (SQLite's one: every table's writes) is back to the next command
        sooner (issue #16). Called on that loop itself, the messages are queued at once. False
        (nothing done) if no loop is bound and running: the caller then sends the ordinary
        way."""

        def sends() -> list[tuple[list[str], dict[str, Any]]]:
            out = []
            for group in groups:
                members = self.members(group)
                if members:
                    out.append((members, build(group)))
            return out

        return self._hand(sends)

    def _hand(self, sends: Any) -> bool:
        loop = self._loop
        if loop is None or loop.is_closed() or not loop.is_running():
            return False

        def deliver() -> None:
            self._clean_expired()
            for channels, message in sends():
                for channel in channels:
                    self._put(channel, message)

        try:
            if asyncio.get_running_loop() is loop:
                deliver()  # a writer on the loop itself: queued now, in its order
                return True
        except RuntimeError:
            pass  # a worker thread: the usual caller
        try:
            # A fresh context: the caller's thread-local executor bookkeeping stays behind.
            loop.call_soon_threadsafe(deliver, context=contextvars.Context())
        except RuntimeError:  # the loop closed meanwhile
            return False
        return True
