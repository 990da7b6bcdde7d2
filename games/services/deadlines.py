"""Deals' timers: the reveal window and the turn timer (RULES.md §5, §12; ARCHITECTURE.md §8).

`wake` is what a deal's wake-up calls (a Celery task, or the embedded loop); `sweep_deadlines`
fires every overdue deadline (Celery beat, or the embedded loop), so a lost wake-up delays a
timer by at most the sweep interval. Both are idempotent: a duplicate, stale or early call
fires nothing.

One wake-up per deal at a time (Round.wakeup_at, games/services/timers.py `aim_wakeup`): a card
played under a turn timer moves the deadline later without arming another, so the armed one
comes early; it then re-arms itself for the deadline standing, once — a wake-up that is not the
deal's armed one (a duplicate, one replaced by an earlier deadline) only fires a deadline that
is due, and never re-arms.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engine import RuleError
from games.models import MatchStatus, Round
from games.services import sql, wakeups
from games.services.errors import ServiceError
from games.services.record import apply_engine, finish
from games.services.tables import Table, lock_code

log = logging.getLogger(__name__)


def fire_overdue(t: Table) -> bool:
    """Apply the deal's timer if its deadline has passed (END_REVEAL or TURN_TIMEOUT)."""
    rnd = t.round
    if rnd is None or rnd.deadline is None or rnd.deadline > t.now or t.state is None:
        return False
    if t.room.closed is not None:
        return False
    if t.match is not None and t.match.paused_at is not None:
        return False  # a paused practice table: its timer waits with it (pause.py)
    kind = "end_reveal" if rnd.deadline_kind == "reveal" else "turn_timeout"
    try:
        apply_engine(t, {"type": kind}, None, None, None)
    except RuleError:
        # The phase moved on without clearing the deadline: clear it so it is not retried.
        rnd.deadline, rnd.deadline_kind = None, ""
        rnd.save(update_fields=["deadline", "deadline_kind"])
        return False
    return True


def fire_deadline(round_id: int, version: int) -> bool:
    """Apply the round's overdue deadline if the table has not moved on since `version`."""
    return fire(round_id, version) is not None


# How often a wake-up looks again when the table moved between its read and its lock.
_WAKE_TRIES = 3


def wake(round_id: int, at: datetime) -> bool:
    """The deal's wake-up armed for `at`: fire its deadline if it is due; if the deadline was
    moved later since (cards played), arm a wake-up for it — only if this one is the deal's
    armed one (`wakeup_at` is still `at`), so duplicates never multiply. True if it fired."""
    for _ in range(_WAKE_TRIES):
        timer = sql.round_timer(round_id)
        if timer is None or timer.deadline is None:
            return False
        if timer.deadline <= timezone.now():
            if fire(round_id, timer.version) is not None:
                return True
            continue  # a command moved the table between the read and the lock: look again
        later = sql.rearm_wakeup(round_id, at)
        if later is not None:
            wakeups.schedule(round_id, later)
        return False
    return False


def fire(round_id: int, version: int) -> tuple[int, int] | None:
    """Fire; return the table's (version before, version after), or None if nothing fired.

    The hot path's statements (games/services/sql.py): every deal's reveal window and every
    turn timer comes through here, in a Celery worker or the embedded loop."""
    code = sql.room_code_of_round(round_id)
    if code is None:
        return None
    with transaction.atomic():
        try:
            t = lock_code(code)
        except ServiceError:  # the room is gone
            return None
        if t.round is None or t.round.pk != round_id or t.round.version != version:
            return None
        if t.round.deadline is not None and t.round.deadline > t.now:
            return None  # early: the deal's own wake-up or the sweep fires it (`wake`)
        if not fire_overdue(t):
            return None
        finish(t)
        return t.version_before, t.room.version


def sweep_deadlines(limit: int = 200) -> int:
    """Fire every overdue deadline. Returns how many.

    The most overdue first; one table that fails to fire (logged) does not hold up the
    others' timers — each fires in its own transaction."""
    now = timezone.now()
    due = list(Round.objects.filter(deadline__lte=now, match__status=MatchStatus.RUNNING,
                                    match__paused_at__isnull=True)
               .order_by("deadline").values_list("pk", "version")[:limit])
    fired = 0
    for rid, ver in due:
        try:
            fired += fire_deadline(rid, ver)
        except Exception:  # the next sweep retries this one
            log.exception("deadline of round %s (v%s) failed to fire", rid, ver)
    return fired
