"""Waking a bot when it is to act (issue #15, "where bots run").

A wake-up is only a hint carrying (round, version): the bot's turn reads the table again and
does nothing if the table moved on. In the distributed mode it is a Celery task sent by name
(so a strong bot's CPU is spent on the workers, never in an ASGI process); in the embedded mode
it goes to the live layer's worker pool through the after-commit port
(games/models/after_commit.py, games/live/bot_pool.py). A lost wake-up is
found by the deadline sweep (games/services/deadlines.py), like a lost timer.

Every wake-up carries the moment its bot is to start (`due`, seconds since the epoch: a Celery
worker may run on another machine), so the runner can tell how far behind it is and shrink the
decision's budget (games/services/bots/budget.py). That moment is the bot's decision length
before its move is due to reach the table (games/services/bots/pace.py, the announcement's
`wake_bot`).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from games.models.after_commit import effects

log = logging.getLogger(__name__)

BOT_TURN_TASK = "games.bot_turn"

def schedule(round_id: int, version: int, when: datetime | None = None) -> None:
    """Have a bot look at the deal at `version` (now, or at `when`); call after commit."""
    delay = 0.0 if when is None else max(0.0, (when - timezone.now()).total_seconds())
    due = time.time() + delay
    if settings.TROCCAS_MODE == "distributed":
        from troccas_site.celery import app

        try:
            # Only ever enqueued here: the decision runs on a Celery worker, never in the
            # ASGI process that committed the action.
            app.send_task(BOT_TURN_TASK, (round_id, version), {"due": due}, countdown=delay)
        except Exception:  # the sweep wakes it anyway
            log.exception("could not wake the bot of round %s", round_id)
        return
    port = effects()
    if port is not None:
        port.bot_turn(round_id, version, delay, due)
