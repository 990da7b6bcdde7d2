"""Matches nobody is at (issue #25 item 1): a running match with no person connected to its
room — no live socket of a signed-in person, seated or watching — for
settings.TROCCAS_IDLE_MATCH_MINUTES is ended as abandoned, through the one ending the staff's
door uses too (lobby.end_abandoned): the room back in its lobby, the match `abandoned` in the
history, no rating changed, every socket of the room told. A paused practice table is left
alone: it waits for its person (games/services/pause.py); so is a tournament table, which
its round's clock ends (games/clubs/rounds.py).

Since when nobody is at a table is read from the Connection rows (presence.py): a person's
last socket at a room keeps its row, closed, for a week, so the newest of them — its
`closed_at`, or for a socket gone silent its last ping plus PRESENCE_TIMEOUT — is the moment
the last person left; the match's start when no person ever came. Run periodically, with the
purge of stale connections (the embedded sweep loop, Celery beat's "purge-connections").
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Connection, MatchStatus, Room
from games.models.presence import PRESENCE_TIMEOUT
from games.services.lobby import end_abandoned
from games.services.people import live_people, person_connected
from games.services.record import finish
from games.services.tables import lock_code

log = logging.getLogger(__name__)

__all__ = ["idle_after", "last_person_seen", "sweep_idle_matches"]


def idle_after() -> timedelta:
    return timedelta(minutes=settings.TROCCAS_IDLE_MATCH_MINUTES)


def last_person_seen(room_id: int) -> datetime | None:
    """When a person was last at the room (None: no row says so)."""
    moments = [closed if closed is not None else seen + PRESENCE_TIMEOUT
               for seen, closed in Connection.objects.filter(room_id=room_id,
                                                             user__is_bot=False)
               .values_list("last_seen", "closed_at")]
    return max(moments, default=None)


def sweep_idle_matches(now: datetime | None = None, limit: int = 100) -> int:
    """End every running match nobody has been at for TROCCAS_IDLE_MATCH_MINUTES (a paused
    practice match excepted); how many. Each in its own transaction, checked again under the
    room's lock."""
    now = timezone.now() if now is None else now
    cutoff = now - idle_after()
    someone = Connection.objects.filter(live_people(now), room=OuterRef("pk"))
    codes = list(Room.objects.filter(
        closed__isnull=True, current_match__status=MatchStatus.RUNNING,
        current_match__paused_at__isnull=True, current_match__started__lt=cutoff,
        # A tournament table ends at its round's clock, as the tournament says (issue #26).
        tournament_table__isnull=True)
        .exclude(Exists(someone)).order_by("pk").values_list("code", flat=True)[:limit])
    ended = 0
    for code in codes:
        try:
            ended += _end_if_idle(code, now, cutoff)
        except Exception:  # the next sweep retries this one
            log.exception("the idle match of room %s could not be ended", code)
    return ended


def _end_if_idle(code: str, now: datetime, cutoff: datetime) -> bool:
    with transaction.atomic():
        t = lock_code(code)
        match = t.match
        if (match is None or match.status != MatchStatus.RUNNING or match.paused_at is not None
                or t.room.closed is not None or match.started >= cutoff
                or person_connected(t.room.pk, now)):
            return False
        seen = last_person_seen(t.room.pk)
        if seen is not None and seen >= cutoff:
            return False
        end_abandoned(t, None, {"idle_minutes": settings.TROCCAS_IDLE_MATCH_MINUTES})
        finish(t)
    log.info("room %s: match %s ended abandoned, nobody at the table since %s", code,
             match.pk, seen)
    return True
