"""Opening a room."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts import ratelimit
from accounts.validators import is_showable, normalise
from games.engine.errors import OptionsError
from games.engine.options import ROOM_TURN_SECONDS, Options
from games.models import Connection, Room, Seat
from games.services.errors import ServiceError

# The turn timer of a room opened by a person (the site's form, the JSON API) when they name
# none (games/engine/options.py `room_standard`); create_room itself keeps the engine's 0, and
# 0 still means off.
DEFAULT_TURN_SECONDS = ROOM_TURN_SECONDS


def with_default_turn_timer(options: Any) -> Any:
    """`options` of a room a person opens: `turn_seconds` DEFAULT_TURN_SECONDS when missing or
    null; anything that is not an object (or None) is returned as is, for Options to refuse."""
    if options is None:
        return {"turn_seconds": DEFAULT_TURN_SECONDS}
    if isinstance(options, dict) and options.get("turn_seconds") is None:
        return {**options, "turn_seconds": DEFAULT_TURN_SECONDS}
    return options


def create_room(owner: Any, options: dict[str, Any] | None = None, *, name: str = "",
                visibility: str = "public", allow_spectators: bool = True,
                take_seat: str | None = "A", club: Any = None) -> Room:
    """A new room owned by `owner`, who takes a seat in team A unless told otherwise; with
    `club`, that club's table (the caller checked that `owner` is a member)."""
    if not is_showable(name):
        raise ServiceError("INVALID_FIELD")
    try:
        opts = Options.from_json(options).to_json()
    except OptionsError:
        raise ServiceError("INVALID_OPTIONS") from None
    with transaction.atomic():
        room = Room.objects.create(owner=owner, options=opts, name=normalise(name).strip()[:60],
                                   visibility=visibility, allow_spectators=allow_spectators,
                                   club=club)
        if take_seat in ("A", "B"):
            Seat.objects.create(room=room, user=owner, team=take_seat,
                                index=0 if take_seat == "A" else 1)
    return room


def open_lobby_count(owner: Any) -> int:
    """The owner's open lobbies: rooms of theirs not closed where no match was ever started.
    A practice table (Play now) and a Find a game table start their first deal at once, so they
    never count here (a practice table falls under the open bot tables' cap instead)."""
    return Room.objects.filter(owner=owner, closed__isnull=True, matches__isnull=True).count()


def open_room(owner: Any, options: dict[str, Any] | None = None, **fields: Any) -> Room:
    """A room a person asked for through the new-room form or the JSON API (issue #25 item 12):
    `create_room`, refused with TOO_MANY_OPEN_ROOMS while the owner has
    `TROCCAS_MAX_OPEN_ROOMS` open lobbies, and with ROOM_CREATION_RATE_LIMITED beyond
    `TROCCAS_ROOM_CREATION_RATE["per_hour"]` rooms opened this way in the window. Nothing is
    created on a refusal."""
    limit = settings.TROCCAS_MAX_OPEN_ROOMS
    rate = settings.TROCCAS_ROOM_CREATION_RATE
    with transaction.atomic():
        # The owner's row, locked, is what two concurrent requests of one account queue on:
        # the count and the insert below are then one step (SQLite serialises writers anyway).
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        if open_lobby_count(owner) >= limit:
            raise ServiceError("TOO_MANY_OPEN_ROOMS")
        # The username too: a test database that starts its ids afresh meets a cache (Redis)
        # that may still count an earlier run's account of the same id.
        if not ratelimit.hit("room-create", f"{owner.pk}:{owner.get_username()}",
                             rate["per_hour"], rate["window_seconds"]):
            raise ServiceError("ROOM_CREATION_RATE_LIMITED")
        return create_room(owner, options, **fields)


def create_seated_room(players: list[Any], options: dict[str, Any], *, name: str = "",
                       allow_spectators: bool = False) -> Room:
    """A private room with `players` on seats 0-3 (0 and 2 team A, 1 and 3 team B), seat 0's
    player its owner: a tournament table (games/clubs/rounds.py). The seats are written here,
    not by lobby commands: a tournament room refuses those (lobby.check_not_tournament), and
    no block between two entrants may keep a paired player from their table. The caller
    starts the match (the `start_round` command of seat 0's player) once the room is linked
    to its tournament table, so that its first deal reads the planned deck."""
    if len(players) != 4 or len({p.pk for p in players}) != 4:
        raise ServiceError("INVALID_FIELD")
    room = create_room(players[0], options, name=name, visibility="private",
                       allow_spectators=allow_spectators, take_seat=None)
    Seat.objects.bulk_create([Seat(room=room, user=p, team="AB"[i % 2], index=i)
                              for i, p in enumerate(players)])
    # A paired player is expected at the table from the moment it opens: one not there yet
    # counts as away since then (a closed presence row, as a socket gone would leave), so the
    # stand-in bot takes their seat after the grace period instead of the table waiting for
    # the round's clock (issue #26 item 5). Their first socket makes them present again.
    opened = timezone.now()
    Connection.objects.bulk_create([
        Connection(room=room, user=p, channel_name=f"absent:{room.pk}:{p.pk}",
                   last_seen=opened, closed_at=opened)
        for p in players if not getattr(p, "is_bot", False)])
    return room
