"""Who is at a table right now: one Connection row per open socket (the lobby's dots).

A socket's row is written on connect, refreshed by its heartbeats and removed on disconnect;
a process killed without cleaning up leaves rows whose last_seen stops moving, and those count
as away after PRESENCE_TIMEOUT.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Connection, Room, Seat
from games.services import outbox
from games.services.table import PRESENCE_TIMEOUT

__all__ = ["MAX_SOCKETS_PER_ROOM", "MAX_SOCKETS_PER_USER", "PRESENCE_TIMEOUT", "STALE_AFTER",
           "connect", "connected_users", "disconnect", "may_watch", "purge_stale_connections",
           "seat_of_user", "touch"]

# Open sockets one account may hold. Every socket of a room gets a presence frame whenever any
# socket of that room comes or goes, so n sockets cost n² frames: uncapped, one account opened
# 300. A player needs one per tab: 8 tabs at one table, 20 across all tables is far beyond
# that. Counted from the Connection rows (any process), without the stale ones below; two
# handshakes racing in two processes may both get in, so the cap may be passed by a socket or
# two, never by hundreds.
MAX_SOCKETS_PER_ROOM = 8
MAX_SOCKETS_PER_USER = 20
# A row whose socket has not pinged for this long belongs to a process that died without
# cleaning up (a live client pings every 30 s): purge_stale_connections removes it.
STALE_AFTER = 4 * PRESENCE_TIMEOUT


def may_watch(code: str, user: Any) -> str | None:
    """None if `user` may open this table's socket, else the refusal code. Anonymous users
    are refused before the room is looked up: the answer must not tell which codes exist."""
    if not getattr(user, "is_authenticated", False):
        return "NOT_AUTHENTICATED"
    room = Room.objects.filter(code=code).first()
    if room is None:
        return "ROOM_NOT_FOUND"
    seated = Seat.objects.filter(room=room, user=user).exists()
    if not seated and not room.allow_spectators and room.current_match_id is not None:
        return "SPECTATORS_NOT_ALLOWED"
    return None


def connect(code: str, user: Any, channel_name: str) -> str | None:
    """Register an open socket; "TOO_MANY_SOCKETS" (and nothing written) past the caps."""
    room = Room.objects.get(code=code)
    now = timezone.now()
    with transaction.atomic():
        mine = Connection.objects.filter(user=user, last_seen__gte=now - STALE_AFTER).exclude(
            channel_name=channel_name)
        if (mine.count() >= MAX_SOCKETS_PER_USER
                or mine.filter(room=room).count() >= MAX_SOCKETS_PER_ROOM):
            return "TOO_MANY_SOCKETS"
        Connection.objects.update_or_create(
            channel_name=channel_name, defaults={"room": room, "user": user, "last_seen": now})
        outbox.presence_changed(code, lambda: connected_users(code))
    return None


def disconnect(code: str, channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).delete()
    outbox.presence_changed(code, lambda: connected_users(code))


def touch(channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())


def purge_stale_connections() -> int:
    """Remove the rows of sockets silent for STALE_AFTER (their process died without cleaning
    up); the number removed. Run periodically: the embedded sweep loop, Celery beat."""
    deleted, _ = Connection.objects.filter(
        last_seen__lt=timezone.now() - STALE_AFTER).delete()
    return deleted


def connected_users(code: str) -> list[int]:
    room = Room.objects.filter(code=code).first()
    if room is None:
        return []
    now = timezone.now()
    return sorted(set(
        Connection.objects.filter(room=room, last_seen__gte=now - PRESENCE_TIMEOUT)
        .values_list("user_id", flat=True)))


def seat_of_user(code: str, user_id: int) -> int | None:
    return (Seat.objects.filter(room__code=code, user_id=user_id)
            .values_list("index", flat=True).first())
