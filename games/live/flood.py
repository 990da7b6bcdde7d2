"""Flood control for a socket: a token bucket, pure (the clock is given), so it is tested
without sockets (tests/live/test_flood.py). Both sockets use it, through
games/live/socket_base.py (docs/protocol.md §4 "Flood limits").

A burst of BURST frames is fine, then PER_SECOND; a frame beyond is dropped unread. The first
drop and every 10th after it are answered (RATE_LIMITED), and a socket that keeps flooding
(CLOSE_AFTER drops within WINDOW seconds) is closed.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable

PER_SECOND = 10.0
BURST = 20.0
CLOSE_AFTER = 40
WINDOW = 10.0
# A drop is answered on the first of a run and then every ANSWER_EVERY drops: a client that
# floods is told why without the answers becoming a flood of their own.
ANSWER_EVERY = 10


class Verdict(enum.Enum):
    READ = "read"        # the frame is read
    DROP = "drop"        # dropped unread, no answer
    ANSWER = "answer"    # dropped unread, answered with RATE_LIMITED
    CLOSE = "close"      # dropped, answered, and the socket is closed (4429)


class Bucket:
    """One socket's bucket. `take()` for every frame, before it is parsed."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *,
                 per_second: float = PER_SECOND, burst: float = BURST,
                 close_after: int = CLOSE_AFTER, window: float = WINDOW) -> None:
        self.clock = clock
        self.per_second = per_second
        self.burst = burst
        self.close_after = close_after
        self.window = window
        self.tokens = burst
        self.last_refill = clock()
        self.drops: list[float] = []

    def take(self) -> Verdict:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last_refill) * self.per_second)
        self.last_refill = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return Verdict.READ
        self.drops = [t for t in self.drops if now - t < self.window]
        self.drops.append(now)
        if len(self.drops) >= self.close_after:
            self.drops.clear()
            return Verdict.CLOSE
        if len(self.drops) == 1 or len(self.drops) % ANSWER_EVERY == 0:
            return Verdict.ANSWER
        return Verdict.DROP
