"""Waking a table when its deadline falls due (ARCHITECTURE.md §8).

The deadline itself lives on the Round row; a wake-up is only a hint. In the distributed mode it
is a Celery task sent by name (so the services never import the task module that imports them);
in the embedded mode the ASGI process's own timer loop registers itself here
(games/live/timer_loop.py). A lost wake-up costs at most one sweep interval.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from django.conf import settings

log = logging.getLogger(__name__)

FIRE_DEADLINE_TASK = "games.fire_deadline"
SWEEP_DEADLINES_TASK = "games.sweep_deadlines"

Scheduler = Callable[[int, int, datetime], None]
_local: Scheduler | None = None


def register_local(scheduler: Scheduler) -> None:
    """The embedded mode's in-process timer loop: called with (round, version, when)."""
    global _local
    _local = scheduler


def schedule(round_id: int, version: int, when: datetime) -> None:
    """Wake the table at `when` to fire the deadline set at `version` (after commit)."""
    if settings.TROCCAS_MODE == "distributed":
        from troccas_site.celery import app

        try:
            app.send_task(FIRE_DEADLINE_TASK, (round_id, version), eta=when)
        except Exception:  # noqa: BLE001 - the sweep fires it anyway
            log.exception("could not schedule the timer of round %s", round_id)
        return
    if _local is not None:
        _local(round_id, version, when)
