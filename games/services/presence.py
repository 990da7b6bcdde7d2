"""Who is at a table right now: one Connection row per open socket (the lobby's dots).

A socket's row is written on connect, refreshed by its heartbeats and removed on disconnect;
a process killed without cleaning up leaves rows whose last_seen stops moving, and those count
as away after PRESENCE_TIMEOUT.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.models import Connection, Room, Seat
from games.services import outbox
from games.services.table import PRESENCE_TIMEOUT

__all__ = ["PRESENCE_TIMEOUT", "connect", "connected_users", "disconnect", "may_watch",
           "seat_of_user", "touch"]


def may_watch(code: str, user: Any) -> str | None:
    """None if `user` may open this table's socket, else the refusal code."""
    room = Room.objects.filter(code=code).first()
    if room is None:
        return "ROOM_NOT_FOUND"
    if not getattr(user, "is_authenticated", False):
        return "NOT_AUTHENTICATED"
    seated = Seat.objects.filter(room=room, user=user).exists()
    if not seated and not room.allow_spectators and room.current_match_id is not None:
        return "SPECTATORS_NOT_ALLOWED"
    return None


def connect(code: str, user: Any, channel_name: str) -> None:
    room = Room.objects.get(code=code)
    Connection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"room": room, "user": user, "last_seen": timezone.now()})
    outbox.presence_changed(code, lambda: connected_users(code))


def disconnect(code: str, channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).delete()
    outbox.presence_changed(code, lambda: connected_users(code))


def touch(channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())


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
