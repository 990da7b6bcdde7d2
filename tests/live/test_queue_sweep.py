"""Find a game's sweep runs by itself in both modes (issue #24 item 15): in the embedded mode
the in-process timer loop sweeps the queue every TROCCAS_QUEUE_SWEEP_SECONDS; in the
distributed mode Celery beat's "sweep-queue" calls the task games.sweep_queue. A wait older
than TROCCAS_QUEUE_MAX_WAIT ends as "no table formed" without anyone loading a page."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from games import tasks
from games.live import timer_loop
from games.models import QueueEntry, QueueStatus

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


def _old_wait(user: Any) -> None:
    QueueEntry.objects.create(user=user, status=QueueStatus.WAITING, rules={}, bots_after=None,
                              joined=timezone.now() - timedelta(seconds=4000))


def _status(user: Any) -> str:
    return QueueEntry.objects.get(user=user).status


@pytest.mark.skipif(settings.TROCCAS_MODE != "embedded", reason="the embedded timer loop")
@override_settings(TROCCAS_QUEUE_SWEEP_SECONDS=0.2, TROCCAS_QUEUE_MAX_WAIT=1800)
@pytest.mark.asyncio
async def test_the_embedded_timer_loop_sweeps_the_queue(owner: Any) -> None:
    await sync_to_async(_old_wait)(owner)
    timer_loop.embedded.ensure_started()
    try:
        end = time.monotonic() + 30
        while await sync_to_async(_status)(owner) == QueueStatus.WAITING:
            assert time.monotonic() < end, "the timer loop never swept the queue"
            await asyncio.sleep(0.2)
    finally:
        if timer_loop.embedded.sweeper is not None:
            timer_loop.embedded.sweeper.cancel()
    assert await sync_to_async(_status)(owner) == QueueStatus.EXPIRED


@override_settings(TROCCAS_QUEUE_MAX_WAIT=1800)
def test_the_beat_task_sweeps_the_queue(owner: Any) -> None:
    if settings.TROCCAS_MODE == "distributed":
        assert settings.CELERY_BEAT_SCHEDULE["sweep-queue"]["task"] == "games.sweep_queue"
    _old_wait(owner)
    tasks.sweep_queue_task()
    assert _status(owner) == QueueStatus.EXPIRED
