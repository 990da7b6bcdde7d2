"""A socket sends a table's `state` frames in version order, whatever order they reach it in
(docs/protocol.md §4): two processes' updates of one table can cross (a process reaches its own
sockets from memory, the others through Redis; a bot on a Celery worker publishes on its own),
and a resync can read a version whose update is still on its way. Both modes: the updates are
put on the socket's own channel, as the channel layer would."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games import services
from games.live.consumers import GAP_WAIT
from games.models import Connection
from tests.support import tables
from tests.support.live import TableClient

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(60)]


def _channel_of(user: Any, code: str) -> str:
    return Connection.objects.get(user=user, room__code=code, closed_at__isnull=True
                                  ).channel_name


def _update(user: Any, seat: int | None, version: int, marker: str) -> dict[str, Any]:
    """A table update as the broadcast builds it, its frame marked to be recognised."""
    frame = {"type": "state", "version": version, "events": [], "view": {"marker": marker}}
    return {"type": "table.update", "seat": seat, "seat_map": {str(user.pk): seat},
            "version": version, "frame": json.dumps(frame)}


async def _open(owner: Any, players: list[Any]) -> tuple[Any, TableClient, str, int]:
    room = await sync_to_async(tables.seat_table)(owner, players)
    tab = TableClient(owner, room.code)
    assert await tab.connect()
    first = await tab.wait_for(lambda m: m["type"] == "state")
    await tab.drain()
    channel = await sync_to_async(_channel_of)(owner, room.code)
    return room, tab, channel, first["view"]["seat"]


async def test_an_update_that_overtook_the_one_before_it_waits_for_it(
        owner: Any, players: list[Any]) -> None:
    room, tab, channel, seat = await _open(owner, players)
    version = await sync_to_async(tables.version)(room.code)
    # The update after next arrives first (another process's, through Redis, was faster) ...
    await get_channel_layer().send(channel, _update(owner, seat, version + 2, "overtaker"))
    assert await tab.drain() == []
    # ... then the table's real next change: both are sent, in their order.
    out = await sync_to_async(services.submit)(
        room.code, owner, tables.cmd("set_options", version, name="Stiva nova"))
    assert out.ok and out.version == version + 1
    frames = [await tab.receive(), await tab.receive()]
    assert [f["version"] for f in frames] == [version + 1, version + 2]
    assert frames[0]["view"]["room"]["name"] == "Stiva nova"
    assert frames[1]["view"]["marker"] == "overtaker"
    await tab.close()


async def test_an_update_older_than_the_view_sent_is_dropped(owner: Any, players: list[Any]
                                                              ) -> None:
    room, tab, channel, seat = await _open(owner, players)
    version = await sync_to_async(tables.version)(room.code)
    # A resync already sent the current view; an update of an earlier version arrives late.
    await get_channel_layer().send(channel, _update(owner, seat, version - 1, "late"))
    # The current version again is still sent (a resync's frame and its update may cross).
    await get_channel_layer().send(channel, _update(owner, seat, version, "again"))
    # Waited for as long as a loaded machine may take (through Redis a quiet period of a fixed
    # length ran out before it under the full suite); the late one, sent first on the same
    # channel, would have come before it.
    first = await tab.receive(timeout=10)
    frames = [first, *await tab.drain(quiet=0.3)]
    assert [f["view"].get("marker") for f in frames] == ["again"]
    await tab.close()


async def test_a_version_that_never_comes_is_replaced_by_a_resync(owner: Any,
                                                                  players: list[Any]) -> None:
    room, tab, channel, seat = await _open(owner, players)
    version = await sync_to_async(tables.version)(room.code)
    # An update two versions ahead, the one between lost (a publication that never came).
    await get_channel_layer().send(channel, _update(owner, seat, version + 2, "stray"))
    # The held update never goes out; after GAP_WAIT the socket sends its view as it is. The
    # resync's frame is waited for as long as a loaded machine may take (a quiet period of a
    # fixed length ran out before it under the full suite), then nothing else may follow.
    first = await tab.receive(timeout=GAP_WAIT + 10)
    frames = [first, *await tab.drain(quiet=0.3)]
    assert [f["type"] for f in frames] == ["state"]
    assert frames[0]["version"] == version and "marker" not in frames[0]["view"]
    assert frames[0]["view"]["seat"] == seat
    await tab.close()
