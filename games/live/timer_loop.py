"""The embedded mode's timers: wake-ups and the sweep on the ASGI process's own event loop
(ARCHITECTURE.md §8), calling the same service functions as the Celery tasks.

The deadline itself lives on the Round row; a scheduled call is only a wake-up. A lost wake-up
costs at most one sweep interval, because the sweep fires every overdue deadline, and any
request to the table after a deadline applies it too. games/apps.py registers `embedded` with
the services (games/services/wakeups.py), so the services never import this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from datetime import datetime

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from games import services
from games.clubs import rounds
from games.services import matchmaking
from games.talk import online

log = logging.getLogger(__name__)


class EmbeddedTimers:
    """Timers inside the one ASGI process of the embedded mode.

    Bound to the server's event loop at its start (the ASGI lifespan, games/live/lifespan.py),
    or else to the loop of the first table socket; calls from worker threads are handed to it
    thread-safely. Without a running loop (a management command, a test calling services
    directly) scheduling is a no-op: the next request or sweep applies the deadline.
    """

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sweeper: asyncio.Task[None] | None = None

    def ensure_started(self) -> None:
        """Bind to the running loop and start the sweep (call from async code)."""
        loop = asyncio.get_running_loop()
        if self.loop is loop and self.sweeper is not None and not self.sweeper.done():
            return
        self.loop = loop
        self.sweeper = loop.create_task(self._sweep_forever())

    def schedule(self, round_id: int, when: datetime) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        delay = max(0.0, (when - timezone.now()).total_seconds())
        with contextlib.suppress(RuntimeError):  # the loop has just closed
            # A fresh context: the caller runs in a sync_to_async worker thread, and a timer
            # task must not inherit that thread's executor bookkeeping (it would deadlock).
            loop.call_soon_threadsafe(self._arm, round_id, when, delay,
                                      context=contextvars.Context())

    def _arm(self, round_id: int, when: datetime, delay: float) -> None:
        assert self.loop is not None
        # A few milliseconds late rather than early: an early call only re-arms itself.
        self.loop.call_later(delay + 0.01, lambda: self.loop.create_task(  # type: ignore[union-attr]
            self._fire(round_id, when)))

    async def _fire(self, round_id: int, when: datetime) -> None:
        try:
            await database_sync_to_async(services.wake)(round_id, when)
        except Exception:  # the sweep retries
            log.exception("embedded timer of round %s failed", round_id)

    async def _sweep_forever(self) -> None:
        purged = queue_swept = tournaments_swept = time.monotonic()
        while True:
            await asyncio.sleep(settings.TROCCAS_SWEEP_SECONDS)
            try:
                await database_sync_to_async(services.sweep_deadlines)()
                # Lost bot turns too (Celery beat's sweep does the same): they are handed to
                # the bots' worker threads (games/live/bot_pool.py), never run on this loop.
                await database_sync_to_async(services.sweep_bot_turns)()
            except Exception:  # keep sweeping
                log.exception("embedded deadline sweep failed")
            if time.monotonic() - purged >= settings.TROCCAS_CONNECTION_PURGE_SECONDS:
                # Celery beat's "purge-connections" in the distributed mode.
                purged = time.monotonic()
                try:
                    await database_sync_to_async(services.purge_stale_connections)()
                    await database_sync_to_async(online.purge_stale)()
                    # Matches nobody is at end abandoned (issue #25 item 1): after the
                    # purge, which closes the rows of sockets whose process died.
                    await database_sync_to_async(services.sweep_idle_matches)()
                except Exception:  # the next round retries
                    log.exception("embedded purge of stale connections failed")
            if time.monotonic() - queue_swept >= settings.TROCCAS_QUEUE_SWEEP_SECONDS:
                # Celery beat's "sweep-queue" in the distributed mode.
                queue_swept = time.monotonic()
                try:
                    await database_sync_to_async(matchmaking.sweep)()
                except Exception:  # the next round retries
                    log.exception("embedded sweep of the queue failed")
            if time.monotonic() - tournaments_swept >= settings.TROCCAS_TOURNAMENT_SWEEP_SECONDS:
                # Celery beat's "sweep-tournaments" in the distributed mode.
                tournaments_swept = time.monotonic()
                try:
                    await database_sync_to_async(rounds.sweep_tournaments)()
                except Exception:  # the next round retries
                    log.exception("embedded sweep of the tournaments failed")


embedded = EmbeddedTimers()
