"""Group names and the per-seat fan-out (ARCHITECTURE.md §6, §7).

Called only from `transaction.on_commit`: a rolled-back action is never announced. A room has
one group per seat and one public group; each seat's group receives only that seat's view, the
public group the spectators' view. Frames are encoded once here, not once per socket.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.live.channel_layer import BatchingRedisChannelLayer
from games.services.snapshot import TableSnapshot

log = logging.getLogger(__name__)


def group_name(code: str, seat: int | None) -> str:
    """The group of one audience of a table: seat 0–3, or None for the spectators."""
    return f"table.{code}.public" if seat is None else f"table.{code}.seat.{seat}"


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


AUDIENCES: tuple[int | None, ...] = (0, 1, 2, 3, None)


def build_message(snap: TableSnapshot, seat: int | None, seat_map: dict[str, int]
                  ) -> dict[str, Any]:
    """The channel-layer message for one audience: its frames, encoded once for all sockets."""
    frames = []
    event = snap.event_message(seat)
    if event is not None:
        frames.append(encode(event))
    frames.append(encode(snap.state_message(seat)))
    return {"type": "table.update", "seat": seat, "seat_map": seat_map,
            "version": snap.version, "frames": frames}


async def _fan_out(code: str, build: Callable[[int | None], dict[str, Any]]) -> None:
    """Send each audience of a table its message, built only for audiences with members."""
    layer = get_channel_layer()
    if layer is None:
        return
    groups = {group_name(code, seat): seat for seat in AUDIENCES}
    if isinstance(layer, BatchingRedisChannelLayer):
        # Two round trips to Redis for the whole update (games/live/channel_layer.py), and no
        # frames encoded for an empty audience (most tables have no spectators).
        members = await layer.group_members(list(groups))
        dropped = await layer.send_to_members(
            [(members[g], build(seat)) for g, seat in groups.items() if members[g]])
        if dropped:
            # Those sockets will see a version gap on the next update and resync.
            log.warning("table %s: %s update(s) dropped, channel layer over capacity",
                        code, dropped)
        return
    for group, seat in groups.items():
        await layer.group_send(group, build(seat))


def publish(snap: TableSnapshot) -> None:
    """Send every audience its own view of the table (after commit)."""
    seat_map = {str(s.user_id): s.index for s in snap.seats}
    try:
        async_to_sync(_fan_out)(snap.code, lambda seat: build_message(snap, seat, seat_map))
    except Exception:  # noqa: BLE001 - a lost broadcast is healed by the clients' resync
        # Clients that miss an update see a version gap on the next one and resync; the
        # state itself is safe in the database. Never log the views: they hold cards.
        log.exception("broadcast of table %s v%s failed", snap.code, snap.version)


def publish_presence(code: str, connected: list[int]) -> None:
    message = {"type": "table.presence", "frame": encode({"type": "presence",
                                                         "connected": connected})}
    try:
        async_to_sync(_fan_out)(code, lambda seat: message)
    except Exception:  # noqa: BLE001
        log.exception("presence broadcast for table %s failed", code)
