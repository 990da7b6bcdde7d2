"""Whether a person is at a table: a live socket of a signed-in person (not a bot) at the room,
seated or watching. What the bots ask before they deal on by themselves, and what the idle
sweep asks before it ends a match nobody is at (issue #25 item 1)."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from games.models import Connection
from games.models.presence import PRESENCE_TIMEOUT

__all__ = ["live_people", "person_connected"]


def live_people(now: datetime) -> Q:
    """The Connection rows of a person's live socket (a filter on Connection)."""
    return Q(closed_at__isnull=True, last_seen__gte=now - PRESENCE_TIMEOUT,
             user__is_bot=False)


def person_connected(room_id: int, now: datetime | None = None) -> bool:
    """Whether a person has a live socket at this room now."""
    rows: QuerySet[Connection] = Connection.objects.filter(
        live_people(timezone.now() if now is None else now), room_id=room_id)
    return rows.exists()
