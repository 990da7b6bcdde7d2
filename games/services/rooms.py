"""Opening a room."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.validators import is_showable, normalise
from games.engine.errors import OptionsError
from games.engine.options import ROOM_TURN_SECONDS, Options
from games.models import Room, Seat
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
                take_seat: str | None = "A") -> Room:
    """A new room owned by `owner`, who takes a seat in team A unless told otherwise."""
    if not is_showable(name):
        raise ServiceError("INVALID_FIELD")
    try:
        opts = Options.from_json(options).to_json()
    except OptionsError:
        raise ServiceError("INVALID_OPTIONS") from None
    with transaction.atomic():
        room = Room.objects.create(owner=owner, options=opts, name=normalise(name).strip()[:60],
                                   visibility=visibility, allow_spectators=allow_spectators)
        if take_seat in ("A", "B"):
            Seat.objects.create(room=room, user=owner, team=take_seat,
                                index=0 if take_seat == "A" else 1)
    return room
