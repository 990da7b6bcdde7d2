"""A socket told that the channel layer may have missed publications (`layer.resync`, sent by
games/live/channel_layer.py after its subscription to Redis came back) gets its current view
again, and the site socket its unread count; both modes (the message goes to the socket's own
channel)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games import services
from games.models import Connection
from tests.support import tables
from tests.support.live import TableClient

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(60)]


def _channel_of(user: Any, code: str) -> str:
    return Connection.objects.get(user=user, room__code=code, closed_at__isnull=True
                                  ).channel_name


async def test_a_socket_told_to_resync_gets_its_current_view(owner: Any, players: list[Any]
                                                             ) -> None:
    room = await sync_to_async(tables.seat_table)(owner, players)
    tab = TableClient(owner, room.code)
    assert await tab.connect()
    first = await tab.wait_for(lambda m: m["type"] == "state")
    await tab.drain()
    # The table moved on while this socket heard nothing of it (a lost publication).
    version = await sync_to_async(tables.version)(room.code)
    out = await sync_to_async(services.submit)(
        room.code, owner, tables.cmd("set_options", version, name="Stiva nova"))
    assert out.ok
    await tab.drain()
    tab.version = first["version"]
    channel = await sync_to_async(_channel_of)(owner, room.code)
    await get_channel_layer().send(channel, {"type": "layer.resync"})
    state = await tab.wait_for(lambda m: m["type"] == "state")
    assert state["version"] == out.version
    assert state["view"]["room"]["name"] == "Stiva nova"
    await tab.close()
