"""Timers on a real Celery worker (ARCHITECTURE.md §8, issue #4): the reveal window closes on
time, duplicate and stale wake-ups do nothing, and a timer whose worker was killed is fired by
the beat schedule's deadline sweep.

Distributed mode on PostgreSQL only. The worker (and beat) run as subprocesses on the test's own
database and on a Redis database index of their own; this process's Celery producer is pointed
at the same index, so the timers the services schedule after commit reach that worker.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from games.engine import SCART
from games.live import broadcast
from games.models import Room, Round, RoundAction
from games.tasks import fire_deadline_task, wake_deal_task
from tests.services.reveal import end_reveals, table_at_reveal
from tests.support.servers import Proc, Processes, requires_distributed_postgres

pytestmark = [requires_distributed_postgres, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(120)]

# Reserved for this module: flushed before and after each test.
REDIS_INDEX = 14
# The longest a timer may take on a healthy worker, with generous room for a slow machine.
FIRE_BOUND = 15.0


class Celery:
    """Workers and beat on the dedicated broker (tests/support/servers.py); all are killed
    after the test."""

    def __init__(self, procs: Processes) -> None:
        self._procs = procs
        self.broker_url = procs.redis_url
        self.redis = redis.Redis.from_url(procs.redis_url)

    def worker(self, name: str) -> Proc:
        return self._procs.worker(name)

    def beat(self) -> Proc:
        return self._procs.beat()

    def idle(self) -> bool:
        """No message waiting in the queue nor held (unacknowledged) by a worker."""
        return self.redis.llen("celery") == 0 and self.redis.hlen("unacked") == 0

    def wait_idle(self, timeout: float = FIRE_BOUND) -> None:
        # Seen idle twice, a moment apart: a message is briefly in neither place while a
        # worker moves it from the queue to its unacknowledged set.
        end = time.monotonic() + timeout
        streak = 0
        while streak < 2:
            streak = streak + 1 if self.idle() else 0
            assert time.monotonic() < end, "the worker did not drain its queue"
            time.sleep(0.3)


@pytest.fixture
def celery(server_procs: Processes) -> Iterator[Celery]:
    c = Celery(server_procs)
    try:
        yield c
    finally:
        c.redis.close()


# --- helpers -------------------------------------------------------------------------------

def wait_for_end_reveal(rnd: Round, timeout: float = FIRE_BOUND) -> None:
    end = time.monotonic() + timeout
    while end_reveals(rnd) == 0:
        assert time.monotonic() < end, f"no END_REVEAL within {timeout} s"
        time.sleep(0.2)


def fired_by(proc: Proc, task: str) -> list[str]:
    """The return values the worker logged for `task` ("succeeded in …s: <value>")."""
    pattern = re.escape(task) + r"\[[0-9a-f-]+\] succeeded in [0-9.e-]+s: (\S+)"
    return re.findall(pattern, proc.output())


# --- tests ------------------------------------------------------------------------------------

def listen(broker_url: str, group: str) -> tuple[Any, str]:
    """A channel on the worker's channel layer, as a uvicorn process of the site has it (its
    group messages come by Redis pub/sub: games/live/channel_layer.py)."""
    from games.live.channel_layer import BatchingRedisChannelLayer

    layer = BatchingRedisChannelLayer(
        hosts=[broker_url], prefix=settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"])
    loop = asyncio.new_event_loop()
    channel = loop.run_until_complete(layer.new_channel())
    loop.run_until_complete(layer.group_add(group, channel))
    layer.test_loop = loop  # the subscription lives on this loop: receive on it too
    return layer, channel


def receive(layer: Any, channel: str, timeout: float = FIRE_BOUND) -> dict[str, Any]:
    return layer.test_loop.run_until_complete(
        asyncio.wait_for(layer.receive(channel), timeout))


def test_the_worker_closes_the_reveal_window_on_time(celery: Celery, make_user: Any) -> None:
    worker = celery.worker("worker")
    rnd = table_at_reveal(make_user, reveal_seconds=2)
    code = rnd.match.room.code
    layer, channel = listen(celery.broker_url, broadcast.group_name(code, None))
    wait_for_end_reveal(rnd)
    # The worker announced it after commit: the spectators' group gets the table at SCART.
    message = receive(layer, channel)
    assert message["type"] == "table.update" and message["version"] == rnd.version + 1
    assert '"phase":"SCART"' in message["frame"]
    rnd.refresh_from_db()
    assert rnd.phase == SCART
    assert rnd.deadline is None and rnd.deadline_kind == ""
    action = RoundAction.objects.get(round=rnd, kind="end_reveal")
    assert action.actor is None and action.actor_seat is None
    assert action.version == rnd.version == Room.objects.get(pk=rnd.match.room_id).version
    celery.wait_idle()
    assert fired_by(worker, "games.wake_deal") == ["True"]


def test_duplicate_early_and_stale_timers_do_nothing(celery: Celery, make_user: Any) -> None:
    worker = celery.worker("worker")
    rnd = table_at_reveal(make_user, reveal_seconds=3)
    at, deadline = rnd.version, rnd.deadline
    # Besides the wake-up the services armed: two duplicates of it, and wake-ups of the kind
    # sent before one-per-deal (still queued during an upgrade): one early, two for an older
    # version of the table.
    wake_deal_task.apply_async((rnd.pk, deadline.isoformat()), eta=deadline)
    wake_deal_task.apply_async((rnd.pk, deadline.isoformat()), eta=deadline)
    fire_deadline_task.delay(rnd.pk, at)
    fire_deadline_task.delay(rnd.pk, at - 1)
    fire_deadline_task.apply_async((rnd.pk, at - 1), eta=deadline)
    wait_for_end_reveal(rnd)
    celery.wait_idle()
    assert end_reveals(rnd) == 1
    rnd.refresh_from_db()
    assert rnd.phase == SCART and rnd.version == at + 1
    # Once fired, the timer's own version is stale too.
    fire_deadline_task.delay(rnd.pk, at)
    wake_deal_task.delay(rnd.pk, deadline.isoformat())
    celery.wait_idle()
    assert end_reveals(rnd) == 1
    assert Room.objects.get(pk=rnd.match.room_id).version == at + 1
    results = fired_by(worker, "games.fire_deadline") + fired_by(worker, "games.wake_deal")
    assert results.count("True") == 1
    # 1 armed + 5 sent + 2 after firing, all run to completion (none re-armed: the window
    # has no later deadline to wait for).
    assert len(results) == 8, results


def test_a_timer_lost_with_its_worker_is_fired_by_the_beat_sweep(
        celery: Celery, make_user: Any) -> None:
    assert settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]["task"] == "games.sweep_deadlines"
    first = celery.worker("first")
    rnd = table_at_reveal(make_user, reveal_seconds=4)
    # The worker holds the ETA task unacknowledged until the deadline; kill it meanwhile.
    first.wait_for_output("] received", timeout=10)
    first.kill()
    assert celery.redis.hlen("unacked") == 1, "the pending timer died with its worker"
    # Redis hands an unacknowledged message out again only after visibility_timeout (hours):
    # past the deadline, nothing has fired it.
    wait = (rnd.deadline - timezone.now()).total_seconds() + 0.5
    time.sleep(max(0.0, wait))
    assert end_reveals(rnd) == 0
    second = celery.worker("second")
    celery.beat()
    wait_for_end_reveal(rnd, FIRE_BOUND + settings.TROCCAS_SWEEP_SECONDS)
    assert end_reveals(rnd) == 1
    rnd.refresh_from_db()
    assert rnd.phase == SCART
    deadline = time.monotonic() + 10
    while "1" not in fired_by(second, "games.sweep_deadlines"):
        assert time.monotonic() < deadline, second.output()
        time.sleep(0.2)
