"""Group names and the per-seat fan-out (ARCHITECTURE.md §6, §7).

Called only from `transaction.on_commit`: a rolled-back action is never announced. A room has
one group per seat and one public group; each seat's group receives only that seat's view, the
public group the spectators' view. Frames are encoded once here, not once per socket.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.snapshot import TableSnapshot

log = logging.getLogger(__name__)


def group_name(code: str, seat: int | None) -> str:
    """The group of one audience of a table: seat 0–3, or None for the spectators."""
    return f"table.{code}.public" if seat is None else f"table.{code}.seat.{seat}"


def all_groups(code: str) -> list[str]:
    return [group_name(code, s) for s in (0, 1, 2, 3, None)]


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def build_messages(snap: TableSnapshot) -> list[tuple[str, dict[str, Any]]]:
    """(group, channel-layer message) for every audience of the snapshot."""
    seat_map = {str(s.user_id): s.index for s in snap.seats}
    out = []
    for seat in (0, 1, 2, 3, None):
        frames = []
        event = snap.event_message(seat)
        if event is not None:
            frames.append(encode(event))
        frames.append(encode(snap.state_message(seat)))
        out.append((group_name(snap.code, seat), {
            "type": "table.update", "seat": seat, "seat_map": seat_map,
            "version": snap.version, "frames": frames,
        }))
    return out


async def _send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in messages:
        await layer.group_send(group, message)


def publish(snap: TableSnapshot) -> None:
    """Send every audience its own view of the table (after commit)."""
    try:
        async_to_sync(_send_all)(build_messages(snap))
    except Exception:  # noqa: BLE001 - a lost broadcast is healed by the clients' resync
        # Clients that miss an update see a version gap on the next one and resync; the
        # state itself is safe in the database. Never log the views: they hold cards.
        log.exception("broadcast of table %s v%s failed", snap.code, snap.version)


def publish_presence(code: str, connected: list[int]) -> None:
    message = {"type": "table.presence", "frame": encode({"type": "presence",
                                                         "connected": connected})}
    try:
        async_to_sync(_send_all)([(g, message) for g in all_groups(code)])
    except Exception:  # noqa: BLE001
        log.exception("presence broadcast for table %s failed", code)
