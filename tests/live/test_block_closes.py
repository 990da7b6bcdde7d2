"""A block reaches the open sockets (issue #25 item 7; docs/protocol.md §3 close codes).

When the owner blocks a player, that player's sockets watching one of the owner's private
rooms (a spectator, or any socket of a room between matches) are closed with
BLOCKED_BY_OWNER and 4403, through the channel layer, so in any process; a seat in a match
running there keeps its socket until the match ends (the talk between the two stays hidden,
tests/live/test_talk.py). The owner's public rooms and other people's sockets carry on.
"""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import override_settings

from games import services
from games.engine import DEALING
from games.talk import blocks
from tests.support import tables
from tests.support.live import TableClient
from tests.support.remote import Player, session_cookie
from tests.support.servers import Processes, requires_distributed_postgres

# Reserved for this module's two-process test: flushed before and after it.
REDIS_INDEX = 3



async def alive(c: TableClient) -> None:
    await c.send_raw(json.dumps({"type": "ping"}))
    await c.wait_for(lambda m: m["type"] == "pong")


def _private_match(owner: Any, players: list[Any]) -> str:
    """The owner's private room, the four seated, a match running."""
    room = tables.seat_table(owner, players)
    tables.must(room.code, owner, "set_options", visibility="private")
    by_seat = {0: owner, **dict(enumerate(players, 1))}
    tables.advance(room.code, by_seat, DEALING)
    return room.code


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(90)
async def test_a_block_closes_the_blocked_players_sockets_at_the_blockers_private_rooms(
        owner: Any, players: list[Any], spectator: Any, outsider: Any) -> None:
    anna = players[0]
    running = await sync_to_async(_private_match)(owner, players)
    lobby = (await sync_to_async(services.create_room)(owner, visibility="private")).code
    public = (await sync_to_async(services.create_room)(owner)).code
    watching = await tables.open_tab(spectator, running, "spectator at the match")
    in_lobby = await tables.open_tab(spectator, lobby, "spectator in the lobby")
    at_public = await tables.open_tab(spectator, public, "spectator at the public room")
    seated = await tables.open_tab(anna, running, "anna, seated")
    anna_lobby = await tables.open_tab(anna, lobby, "anna in the lobby")
    other = await tables.open_tab(outsider, running, "another spectator")
    try:
        await sync_to_async(blocks.block)(owner, spectator.pk)
        await sync_to_async(blocks.block)(owner, anna.pk)
        for tab in (watching, in_lobby, anna_lobby):
            error, code = await tables.refused(tab)
            assert (error["code"], code) == ("BLOCKED_BY_OWNER", 4403), tab.name
            assert error["message"] and error["message"] != "BLOCKED_BY_OWNER"
        # A seat in the running match stays until it ends; the public room and the other
        # spectator are not the block's business.
        for tab in (seated, at_public, other):
            await alive(tab)
        # A new socket of the blocked spectator is refused at the handshake, as before.
        again = TableClient(spectator, running)
        assert await again.connect()
        error, code = await tables.refused(again)
        assert (error["code"], code) == ("BLOCKED_FROM_ROOM", 4403)
        # An unblock that raced the close: a socket opened after it is not closed by it.
        await sync_to_async(blocks.unblock)(owner, spectator.pk)
        back = await tables.open_tab(spectator, lobby, "spectator, unblocked")
        await asyncio.sleep(0.3)
        await alive(back)
        await back.close()
    finally:
        for tab in (seated, at_public, other):
            await tab.close()


def _layer_on(redis_url: str) -> dict[str, Any]:
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"]["CONFIG"]["hosts"] = [redis_url]
    return layers


@requires_distributed_postgres
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(150)
async def test_a_block_closes_a_socket_served_by_another_process(
        owner: Any, players: list[Any], spectator: Any, server_procs: Processes) -> None:
    """The block is committed here; the spectator's socket lives in a server process and is
    closed through the channel layer (Redis) they share."""
    from channels.layers import channel_layers

    code = await sync_to_async(_private_match)(owner, players)
    server = server_procs.server("server")
    await asyncio.to_thread(server_procs.ready, server)
    cookie = await sync_to_async(session_cookie)(spectator)
    watcher = Player("spectator", spectator, cookie, code)
    await watcher.connect(server)
    try:
        with override_settings(CHANNEL_LAYERS=_layer_on(server_procs.redis_url)):
            channel_layers.backends.clear()
            await sync_to_async(blocks.block)(owner, spectator.pk)
            await watcher.wait_closed()
        channel_layers.backends.clear()
        error = next(f for f in watcher.frames if f["type"] == "error")
        assert error["code"] == "BLOCKED_BY_OWNER"
        assert watcher.ws is not None and watcher.ws.close_code == 4403
    finally:
        await watcher.close()
