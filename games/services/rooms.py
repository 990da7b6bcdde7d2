"""Opening a room."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.validators import is_plain_text
from games.engine.errors import OptionsError
from games.engine.options import Options
from games.models import Room, Seat
from games.services.errors import ServiceError


def create_room(owner: Any, options: dict[str, Any] | None = None, *, name: str = "",
                visibility: str = "public", allow_spectators: bool = True,
                take_seat: str | None = "A") -> Room:
    """A new room owned by `owner`, who takes a seat in team A unless told otherwise."""
    if not is_plain_text(name):
        raise ServiceError("INVALID_FIELD")
    try:
        opts = Options.from_json(options).to_json()
    except OptionsError:
        raise ServiceError("INVALID_OPTIONS") from None
    with transaction.atomic():
        room = Room.objects.create(owner=owner, options=opts, name=name.strip()[:60],
                                   visibility=visibility, allow_spectators=allow_spectators)
        if take_seat in ("A", "B"):
            Seat.objects.create(room=room, user=owner, team=take_seat,
                                index=0 if take_seat == "A" else 1)
    return room
