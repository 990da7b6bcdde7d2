"""The embedded mode's bots: a small pool of worker threads in the ASGI process.

A bot's decision is CPU work (a strong bot spends its whole budget searching), so it never runs
on the event loop: a wake-up (games/services/bots/wakeups.py) hands (round, version) to a worker
thread, which calls the same service function as the Celery task. A delayed wake-up (a stand-in
waiting for the grace period to end) waits on a timer thread first. Until the process serves
its first websocket (or a test starts it) the pool is idle and wake-ups are dropped: the
deadline sweep wakes any bot whose turn was lost (games/live/timer_loop.py).

Each wake-up carries when its bot was to act; a worker thread hands that to the service, which
shrinks the decision's budget while turns queue up here (games/services/bots/budget.py, whose
queue count this pool keeps).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections, connection

from games import services
from games.services.bots.budget import governor
from games.teaching import hints, reviews

log = logging.getLogger(__name__)


class EmbeddedBots:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._timers: set[threading.Timer] = set()

    @property
    def running(self) -> bool:
        return self._pool is not None

    def ensure_started(self) -> None:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=settings.TROCCAS_BOT_THREADS,
                                                thread_name_prefix="troccas-bot")

    def stop(self) -> None:
        """Stop taking wake-ups and wait for the turns in progress (tests, shutdown)."""
        with self._lock:
            pool, self._pool = self._pool, None
            timers, self._timers = self._timers, set()
        for timer in timers:
            timer.cancel()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _stopped(self) -> bool:
        return self._pool is None

    def schedule(self, round_id: int, version: int, delay: float, due: float) -> None:
        if self._pool is None:
            return
        if delay <= 0:
            self._submit(round_id, version, due)
            return
        timer = threading.Timer(delay, self._due, (round_id, version, due))
        timer.daemon = True
        with self._lock:
            if self._stopped():  # by `stop` on another thread since the check above
                return
            self._timers.add(timer)
        timer.start()

    def _due(self, round_id: int, version: int, due: float) -> None:
        with self._lock:
            self._timers = {t for t in self._timers if t.is_alive()
                            and t is not threading.current_thread()}
        self._submit(round_id, version, due)

    def _submit(self, round_id: int, version: int, due: float) -> None:
        with self._lock:
            pool = self._pool
            if pool is None:
                return
            governor.queue(+1)  # before the submit: a free thread may start it at once
            try:
                pool.submit(self._run, round_id, version, due)
            except RuntimeError:  # shut down meanwhile
                governor.queue(-1)

    def hint(self, job: hints.HintJob, channel_name: str, action_id: str | None,
             deliver: Callable[[dict[str, Any]], None] | None = None) -> bool:
        """A hint (games/teaching/hints.py) on a bot thread, its answer sent to the asking
        socket's channel (or handed to `deliver`: bench/teaching.py); False if the pool is
        not running (the socket is told SERVER_ERROR)."""
        with self._lock:
            pool = self._pool
            if pool is None:
                return False
            try:
                pool.submit(self._hint, job, channel_name, action_id, deliver)
            except RuntimeError:  # shut down meanwhile
                return False
        return True

    @staticmethod
    def _hint(job: hints.HintJob, channel_name: str, action_id: str | None,
              deliver: Callable[[dict[str, Any]], None] | None) -> None:
        close_old_connections()
        try:
            message = hints.reply(job, action_id)
        finally:
            connection.close()
        if deliver is not None:
            deliver(message)
        else:
            async_to_sync(get_channel_layer().send)(channel_name, message)

    def review(self, review_id: int) -> None:
        """A deal's review (games/teaching/reviews.py) on a bot thread; dropped while the pool
        is idle (the review's page starts it again once it has made no progress for a while,
        `reviews.STALE_S`)."""
        with self._lock:
            pool = self._pool
            if pool is None:
                return
            try:
                pool.submit(self._review, review_id)
            except RuntimeError:  # shut down meanwhile
                return

    @staticmethod
    def _review(review_id: int) -> None:
        close_old_connections()
        try:
            reviews.work(review_id)
        finally:
            connection.close()

    @staticmethod
    def _run(round_id: int, version: int, due: float) -> None:
        governor.queue(-1)
        close_old_connections()
        try:
            services.wake_bot(round_id, version, due)
        except Exception:  # the sweep wakes it again
            log.exception("bot turn of round %s (v%s) failed", round_id, version)
        finally:
            connection.close()


embedded = EmbeddedBots()
