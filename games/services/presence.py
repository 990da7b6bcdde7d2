"""Who is at a table right now: one Connection row per open socket (the lobby's dots).

A socket's row is written on connect, refreshed by its heartbeats and removed on disconnect —
except the user's last one at the room, which is kept closed (`closed_at`): the moment a seated
player went away, the start of the away clock every client shows. A process killed without
cleaning up leaves rows whose last_seen stops moving: they count as away after PRESENCE_TIMEOUT
(away since last_seen + PRESENCE_TIMEOUT), and the purge closes them as of that moment.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.engine.options import Options
from games.models import Connection, MatchStatus, Room, Round, Seat
from games.models.after_commit import on_commit
from games.models.presence import PRESENCE_TIMEOUT, STALE_AFTER
from games.models.tournaments import tournament_room_watchable
from games.services import sql
from games.services.bots import wakeups as bot_wakeups
from games.services.lobby import club_outsider, owner_blocked
from games.services.pause import pause_if_practice, resume_if_paused

__all__ = ["MAX_SOCKETS_PER_ROOM", "MAX_SOCKETS_PER_USER", "PRESENCE_TIMEOUT", "STALE_AFTER",
           "away_seats", "connect", "connected_users", "disconnect", "may_watch", "presence_frame",
           "purge_stale_connections", "seat_of_user", "touch", "watching"]

# Open sockets one account may hold. Every socket of a room gets a presence frame whenever any
# socket of that room comes or goes, so n sockets cost n² frames: uncapped, one account opened
# 300. A player needs one per tab: 8 tabs at one table, 20 across all tables is far beyond
# that. Counted from the Connection rows (any process), without the stale ones below; two
# handshakes racing in two processes may both get in, so the cap may be passed by a socket or
# two, never by hundreds.
MAX_SOCKETS_PER_ROOM = 8
MAX_SOCKETS_PER_USER = 20
# A closed row (the away clock) is kept this long after its socket closed, then purged.
CLOSED_KEPT = timedelta(days=7)


def may_watch(code: str, user: Any) -> str | None:
    """None if `user` may open this table's socket, else the refusal code. Anonymous users
    are refused before the room is looked up: the answer must not tell which codes exist."""
    if not getattr(user, "is_authenticated", False):
        return "NOT_AUTHENTICATED"
    room = Room.objects.filter(code=code).first()
    if room is None:
        return "ROOM_NOT_FOUND"
    seated = Seat.objects.filter(room=room, user=user).exists()
    if club_outsider(room, user):
        # A club's table is its members' alone, a seat there included: a member who left the
        # club keeps no way back in (issue #26 item 1).
        return "CLUB_TABLE_MEMBERS_ONLY"
    if not seated and owner_blocked(room, user):
        return "BLOCKED_FROM_ROOM"
    if not seated and tournament_room_watchable(room.pk) is False:
        # A tournament table: nobody looks on while its round is on (a duplicate round's
        # decks are played at the other tables too), afterwards as the tournament says.
        return "SPECTATORS_NOT_ALLOWED"
    if not seated and not room.allow_spectators and room.current_match_id is not None:
        return "SPECTATORS_NOT_ALLOWED"
    return None


def blocked_out(code: str, user_id: int, owner_id: int) -> bool:
    """Whether a socket of `user_id` at table `code` must close because `owner_id` blocked
    them: the room is `owner_id`'s and private, the block still stands, and the user holds
    no seat in a running match there (issue #25 item 7)."""
    room = Room.objects.filter(code=code, owner_id=owner_id).select_related(
        "current_match").first()
    if room is None or not owner_blocked(room, SimpleNamespace(pk=user_id)):
        return False
    match = room.current_match
    if match is None or match.status != MatchStatus.RUNNING:
        return True
    return not Seat.objects.filter(room=room, user_id=user_id, index__isnull=False).exists()


def connect(code: str, user: Any, channel_name: str) -> str | None:
    """Register an open socket; "TOO_MANY_SOCKETS" (and nothing written) past the caps."""
    room = Room.objects.get(code=code)
    now = timezone.now()
    with transaction.atomic():
        mine = Connection.objects.filter(user=user, last_seen__gte=now - STALE_AFTER,
                                         closed_at__isnull=True).exclude(channel_name=channel_name)
        if (mine.count() >= MAX_SOCKETS_PER_USER
                or mine.filter(room=room).count() >= MAX_SOCKETS_PER_ROOM):
            return "TOO_MANY_SOCKETS"
        # Back at the table: the away clock of this room ends.
        Connection.objects.filter(room=room, user=user, closed_at__isnull=False).delete()
        Connection.objects.update_or_create(
            channel_name=channel_name,
            defaults={"room": room, "user": user, "last_seen": now, "closed_at": None})
        # The person of a paused practice table is back: it goes on where it was.
        resume_if_paused(room.pk, user.pk)
        on_commit(lambda port: port.publish_presence(code, presence_frame(code)))
    return None


def disconnect(code: str, channel_name: str) -> None:
    """A socket closed: its row goes, unless it was the user's last open one at the room — that
    row stays, closed now, and says since when the player is away (`away_since`). The last
    socket of a practice table's person pauses its match (games/services/pause.py)."""
    with transaction.atomic():
        row = Connection.objects.filter(channel_name=channel_name, closed_at__isnull=True).first()
        if row is not None:
            mine = Connection.objects.filter(room_id=row.room_id, user_id=row.user_id)
            if mine.filter(closed_at__isnull=True).exclude(pk=row.pk).exists():
                row.delete()
            else:
                mine.exclude(pk=row.pk).delete()
                row.closed_at = timezone.now()
                row.save(update_fields=["closed_at"])
                if not pause_if_practice(row.room_id, row.user_id):
                    _wake_stand_in(row.room_id, row.closed_at)
        on_commit(lambda port: port.publish_presence(code, presence_frame(code)))


def _wake_stand_in(room_id: int, away_since: datetime) -> None:
    """A player went away: wake the table when the room's grace period ends, so a bot stands
    in for them then if it is their turn (the sweep would find it too, a little later)."""
    room = Room.objects.filter(pk=room_id, current_match__isnull=False).only(
        "pk", "version", "options", "current_match_id").first()
    if room is None or room.current_match_id is None:
        return
    grace = Options.from_json(room.options).stand_in_seconds
    rnd = (Round.objects.filter(match_id=room.current_match_id).order_by("-number")
           .values_list("pk", flat=True).first())
    if grace == 0 or rnd is None:
        return
    version, when = room.version, away_since + timedelta(seconds=grace)
    transaction.on_commit(lambda: bot_wakeups.schedule(rnd, version, when))  # Celery or the port


def touch(channel_name: str, session: tuple[str, list[Any]] | None = None) -> bool:
    """A socket's heartbeat: its row's last_seen is now. With `session` (a statement that
    returns a row while the socket's sign-in holds, accounts.sessions.signed_in_statement),
    both in one statement; False when it returned none (the socket is then closed, so the
    refreshed row does no harm). Every socket sends one every 25 s."""
    if session is None:
        sql.write_all([sql.touch_connection_statement(channel_name, timezone.now())])
        return True
    return sql.touch_and_check(channel_name, timezone.now(), session)


def purge_stale_connections() -> int:
    """Deal with the rows of sockets silent for STALE_AFTER (their process died without
    cleaning up): a user's newest one at a room where they hold no other open row is closed
    as of the moment it turned away (last_seen + PRESENCE_TIMEOUT), so the away clock
    survives it (and a practice table whose person it was pauses, as on a disconnect); the
    others are removed, as are closed rows older than CLOSED_KEPT. The number of rows closed
    or removed. Run periodically: the embedded sweep loop, Celery beat."""
    now = timezone.now()
    changed = 0
    with transaction.atomic():
        stale = Connection.objects.filter(closed_at__isnull=True,
                                          last_seen__lt=now - STALE_AFTER).order_by("-last_seen")
        kept: set[tuple[int, int]] = set()
        for pk, room_id, user_id in stale.values_list("pk", "room_id", "user_id"):
            key = (room_id, user_id)
            others = Connection.objects.filter(room_id=room_id, user_id=user_id,
                                               closed_at__isnull=True).exclude(pk=pk)
            if key in kept or others.filter(last_seen__gte=now - STALE_AFTER).exists():
                Connection.objects.filter(pk=pk).delete()
            else:
                kept.add(key)
                Connection.objects.filter(room_id=room_id, user_id=user_id,
                                          closed_at__isnull=False).delete()
                Connection.objects.filter(pk=pk).update(
                    closed_at=F("last_seen") + PRESENCE_TIMEOUT)
                pause_if_practice(room_id, user_id)
            changed += 1
        deleted, _ = Connection.objects.filter(closed_at__lt=now - CLOSED_KEPT).delete()
    return changed + deleted


def connected_users(code: str) -> list[int]:
    room = Room.objects.filter(code=code).first()
    if room is None:
        return []
    now = timezone.now()
    return sorted(set(
        Connection.objects.filter(room=room, last_seen__gte=now - PRESENCE_TIMEOUT,
                                  closed_at__isnull=True)
        .values_list("user_id", flat=True)))


def away_seats(code: str) -> dict[int, datetime | None]:
    """The seats whose player has no live socket, and since when (None: unknown): the hook a
    stand-in bot for away players reads to decide when to take a seat over (bots/stand_ins.py).
    The same answer as the view's `seats[].away_since`; read in one statement."""
    room = Room.objects.filter(code=code).only("pk").first()
    if room is None:
        return {}
    rows = sql.seat_rows(room.pk, timezone.now() - PRESENCE_TIMEOUT)
    return {r.index: r.away_since for r in rows if r.index is not None and not r.online}


def presence_frame(code: str) -> dict[str, Any]:
    """The `presence` frame: the connected user ids, for each seated player without a live
    socket since when (a timestamp, or null), keyed by user id, and how many are watching
    (docs/protocol.md §5)."""
    room = Room.objects.filter(code=code).only("pk").first()
    if room is None:
        return {"type": "presence", "connected": [], "away_since": {}}
    rows = sql.seat_rows(room.pk, timezone.now() - PRESENCE_TIMEOUT)
    # A bot is always at the table: listed as connected, never away.
    bots = {r.user_id for r in rows if r.is_bot}
    online = set(connected_users(code))
    return {"type": "presence", "connected": sorted(online | bots),
            "away_since": {str(r.user_id): (r.away_since.timestamp() if r.away_since else None)
                           for r in rows if r.index is not None and not r.online},
            "watching": watching(online, rows)}


def watching(online: set[int], rows: list[sql.SeatRow]) -> int:
    """How many people watch the table (issue #24 item 15): the signed-in users with a live
    socket at the room who hold no seat. A count only, never who: the frame goes to every
    socket of the room, and a name there could be that of someone who blocked the reader."""
    seated = {r.user_id for r in rows if r.index is not None}
    return len(online - seated)


def seat_of_user(code: str, user_id: int) -> int | None:
    return (Seat.objects.filter(room__code=code, user_id=user_id)
            .values_list("index", flat=True).first())
