"""Waking a table when its deadline falls due (ARCHITECTURE.md §8).

The deadline itself lives on the Round row; a wake-up is only a hint, one per deal at a time
(Round.wakeup_at: games/services/timers.py `aim_wakeup`, games/services/deadlines.py `wake`). In
the distributed mode it is a Celery task sent by name (so the services never import the task
module that imports them); in the embedded mode it goes to the ASGI process's own timer loop
through the after-commit port (games/models/after_commit.py, games/live/timer_loop.py). A lost
wake-up costs at most one sweep interval.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings

from games.models.after_commit import effects

log = logging.getLogger(__name__)

WAKE_DEAL_TASK = "games.wake_deal"

def schedule(round_id: int, when: datetime) -> None:
    """Wake the deal at `when` (after commit). The task names its time exactly (ISO 8601): it
    is how the wake-up knows whether it is still the deal's armed one."""
    if settings.TROCCAS_MODE == "distributed":
        from troccas_site.celery import app

        try:
            app.send_task(WAKE_DEAL_TASK, (round_id, when.isoformat()), eta=when)
        except Exception:  # the sweep fires it anyway
            log.exception("could not schedule the timer of round %s", round_id)
        return
    port = effects()
    if port is not None:
        port.schedule_wakeup(round_id, when)
