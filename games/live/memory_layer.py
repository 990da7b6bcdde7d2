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
"""

from __future__ import annotations

import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

CLEAN_INTERVAL = 1.0  # seconds between two sweeps of expired messages and memberships


class LeanInMemoryChannelLayer(InMemoryChannelLayer):
    """InMemoryChannelLayer with its expiry sweep rate-limited and a task-free group_send."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._next_clean = 0.0

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
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass  # as stock: a full queue loses the message, its socket resyncs on a gap
