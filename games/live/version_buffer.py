"""The order of one socket's table updates (docs/protocol.md §8), pure: no socket, no loop, no
clock, so it is tested alone (tests/live/test_version_buffer.py). RoomConsumer feeds it each
update and does what it answers.

Two processes' updates of one table can arrive out of order: a process reaches its own sockets
from memory at once and the others through Redis, a bot on a Celery worker publishes on its
own, and a resync reads a version whose update is still on its way. So an update older than the
last frame sent is dropped (a resync sent a newer view already); one ahead of the next expected
version is held until the missing ones arrive; after GAP_WAIT seconds without them the socket
resyncs from the database instead (a publication lost with a Redis connection, a full inbox),
and so it does at once when more than GAP_HELD updates are held.
"""

from __future__ import annotations

import enum
from typing import Generic, TypeVar

GAP_WAIT = 0.5
GAP_HELD = 64

Update = TypeVar("Update")


class Arrival(enum.Enum):
    FORWARD = "forward"  # send it now (then the held updates that follow, `next_ready`)
    HOLD = "hold"        # held; a gap check is already armed
    ARM = "arm"          # held; arm the gap check (GAP_WAIT, then `gap_expired`)
    RESYNC = "resync"    # too many held: they were forgotten, send the whole view instead


class VersionBuffer(Generic[Update]):
    """The version of the last `state` frame sent (-1: none yet) and the updates held back."""

    def __init__(self, limit: int = GAP_HELD) -> None:
        self.limit = limit
        self.sent = -1
        self.held: dict[int, Update] = {}
        self.armed = False

    def arrive(self, version: int, update: Update) -> Arrival:
        """An update for this socket: forward it, or hold it until the gap before it fills."""
        if self.sent >= 0 and version > self.sent + 1:
            self.held[version] = update
            if len(self.held) > self.limit:
                self.held.clear()
                return Arrival.RESYNC
            if self.armed:
                return Arrival.HOLD
            self.armed = True
            return Arrival.ARM
        return Arrival.FORWARD

    def is_stale(self, version: int) -> bool:
        """Older than the last frame sent: a newer view went out already."""
        return version < self.sent

    def sent_version(self, version: int) -> None:
        """A `state` frame of `version` went out (an update's, or a resync's whole view)."""
        self.sent = max(self.sent, version)

    def next_ready(self) -> Update | None:
        """The held update that is next in line, if any; those a resync made stale go."""
        for version in [v for v in self.held if v <= self.sent]:
            del self.held[version]
        return self.held.pop(self.sent + 1, None)

    def gap_armed_fired(self) -> bool:
        """The armed gap check fired: whether updates are still held (ask for `table.gap`)."""
        self.armed = False
        return bool(self.held)

    def give_up(self) -> bool:
        """The gap did not fill: forget the held updates; whether there were any (resync)."""
        if not self.held:
            return False
        self.held.clear()
        return True
