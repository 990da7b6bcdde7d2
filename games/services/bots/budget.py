"""How much of its budget a bot may spend now: the bot runners' overload protection (issue #15
item 7, "Capacity").

A strong bot spends its whole budget in CPU, and three sit at every practice table. When the
runner of this process (the embedded mode's worker threads, or one Celery worker process) falls
behind, bot turns wait before their decision starts. That wait — the *lag*, from "a bot is to
act" (the wake-up's due time) to the decision starting — is the signal: above `LAG_HIGH_MS` the
budget handed to the decision is halved (down to the floor of the settings,
`TROCCAS_BOT_BUDGET_FLOOR_MS`), so each turn costs less and the
queue drains instead of growing; once the lag has stayed under `LAG_LOW_MS` for `CALM_SECONDS`
the budget doubles back, one step per calm period, up to the full budget of the settings.

Each process decides from its own lag alone (no shared state between Celery workers: a worker
that keeps up runs at full budget while a busy one shrinks). A change of level is one log line;
the current figures are `governor.figures()`, and when `TROCCAS_BOT_STATS_DIR` is set (the
capacity bench) they are also written to `<dir>/<host>-<pid>.json` after every decision.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

# A lag above this means turns are queueing behind each other: with a 200 ms budget, two
# decisions waited per worker, and a reply (lag + budget + the turn's own work) nears the 1 s a
# person should wait at most. Shrink (at most once per HOLD_SECONDS, so a single burst does not
# slam the budget to its floor before the first halving had any effect).
LAG_HIGH_MS = 400.0
HOLD_SECONDS = 1.0
# Recover once the lag stayed under this for a calm period (hysteresis: no flapping between
# two levels when the load sits near the edge).
LAG_LOW_MS = 100.0
CALM_SECONDS = 5.0


class BudgetGovernor:
    """The budget level of one process's bot runner. Thread-safe: the embedded pool's worker
    threads share one. `clock` is monotonic seconds (a fake one in the tests)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 full_ms: Callable[[], float] | None = None,
                 floor_ms: Callable[[], float] | None = None) -> None:
        self._clock = clock
        self._full_ms = full_ms or (lambda: float(settings.TROCCAS_BOT_BUDGET_MS))
        self._floor_ms = floor_ms or (lambda: float(settings.TROCCAS_BOT_BUDGET_FLOOR_MS))
        self._lock = threading.Lock()
        self._level = 0  # the budget is full / 2**level, never below FLOOR_MS
        self._changed_at = clock()
        self._busy_at = float("-inf")  # the last time the lag was above LAG_LOW_MS
        self._changes = 0
        self._fallbacks = 0
        self._lag_ms = 0.0
        self._lag_max_ms = 0.0
        self._queued = 0
        self._queued_max = 0
        self._decisions: dict[str, int] = {}
        self._spent_ms = 0.0

    # --- the level --------------------------------------------------------------------------

    def _budget(self, level: int, full: float) -> float:
        return max(min(self._floor_ms(), full), full / 2 ** level)

    def _deepest(self, full: float) -> int:
        """The level at which the budget reaches its floor (0: a floor at the full budget
        pins it there)."""
        level, floor = 0, min(self._floor_ms(), full)
        while self._budget(level, full) > floor:
            level += 1
        return level

    def budget_ms(self) -> float:
        """The budget a decision gets now (ms)."""
        with self._lock:
            return self._budget(self._level, self._full_ms())

    def start(self, lag_s: float) -> float:
        """A decision is about to start, `lag_s` seconds after its bot was to act: adjust the
        level from that lag and return the budget (ms) to pass to the decision."""
        now = self._clock()
        lag_ms = max(0.0, lag_s * 1000)
        with self._lock:
            full = self._full_ms()
            self._lag_ms = lag_ms
            self._lag_max_ms = max(self._lag_max_ms, lag_ms)
            old = self._level
            if lag_ms > LAG_LOW_MS:
                self._busy_at = now
            if lag_ms > LAG_HIGH_MS:
                if now - self._changed_at >= HOLD_SECONDS:
                    self._level = min(self._deepest(full), self._level + 1)
            elif self._level > 0:
                calm = now - max(self._busy_at, self._changed_at)
                # A process that was idle for a long time is back at full budget at once.
                steps = int(calm // CALM_SECONDS)
                self._level = max(0, self._level - steps)
            if self._level != old:
                self._changed_at = now
                self._changes += 1
                self._say(old, full, lag_ms)
            budget = self._budget(self._level, full)
        self._maybe_write()
        return budget

    def _say(self, old: int, full: float, lag_ms: float) -> None:
        before, after = self._budget(old, full), self._budget(self._level, full)
        if after < before:
            log.warning("bots behind: lag %.0f ms (over %.0f ms); decision budget %.0f -> "
                        "%.0f ms (full %.0f ms, pid %s)", lag_ms, LAG_HIGH_MS, before, after,
                        full, os.getpid())
        else:
            log.warning("bots caught up: lag %.0f ms (under %.0f ms for %.0f s); decision "
                        "budget %.0f -> %.0f ms (full %.0f ms, pid %s)", lag_ms, LAG_LOW_MS,
                        CALM_SECONDS, before, after, full, os.getpid())

    # --- the figures ------------------------------------------------------------------------

    def decided(self, budget_ms: float, spent_ms: float) -> None:
        """A decision ran with `budget_ms` and took `spent_ms` of wall-clock time."""
        with self._lock:
            key = f"{budget_ms:g}"
            self._decisions[key] = self._decisions.get(key, 0) + 1
            self._spent_ms += spent_ms
        self._maybe_write()

    def fell_back(self) -> None:
        """A decision failed (overran, raised, illegal) and the easy bot's choice was played."""
        with self._lock:
            self._fallbacks += 1
        self._maybe_write()

    def queue(self, delta: int) -> None:
        """A wake-up entered (+1) or left (-1) this process's queue (the embedded pool: a
        Celery worker's queue is the broker's, seen only as lag)."""
        with self._lock:
            self._queued = max(0, self._queued + delta)
            self._queued_max = max(self._queued_max, self._queued)

    def figures(self) -> dict[str, Any]:
        """The current figures: effective and full budget, the last and largest lag, the
        queue, how many decisions ran at each budget, level changes and fallbacks so far."""
        with self._lock:
            full = self._full_ms()
            count = sum(self._decisions.values())
            return {
                "pid": os.getpid(), "host": socket.gethostname(),
                "budget_ms": self._budget(self._level, full), "full_budget_ms": full,
                "lag_ms": round(self._lag_ms, 1), "lag_max_ms": round(self._lag_max_ms, 1),
                "queued": self._queued, "queued_max": self._queued_max,
                "decisions": count, "decisions_by_budget_ms": dict(self._decisions),
                "decision_mean_ms": round(self._spent_ms / count, 1) if count else 0.0,
                "level_changes": self._changes, "fallbacks": self._fallbacks,
            }

    def _maybe_write(self) -> None:
        # Only for the capacity bench: a small file per decision costs well under a
        # millisecond, and rewriting it every time leaves no figure stale at the end of a step.
        folder = getattr(settings, "TROCCAS_BOT_STATS_DIR", "")
        if folder:
            self.write(Path(folder))

    def write(self, folder: Path) -> Path:
        """Write the figures to `<folder>/<host>-<pid>.json` (replaced atomically)."""
        figures = self.figures()
        path = folder / f"{figures['host']}-{figures['pid']}.json"
        tmp = path.with_suffix(f".{threading.get_ident()}.tmp")
        tmp.write_text(json.dumps({**figures, "written": time.time()}))
        tmp.replace(path)
        return path


# One per process: the embedded pool's threads share it; each Celery worker process has its own.
governor = BudgetGovernor()
