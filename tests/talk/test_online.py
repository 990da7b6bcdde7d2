"""Who is online (issue #17 item 5): any live socket of a user — the site socket every page
opens (/ws/me/) or a table's — makes them online; several tabs count once; a socket's row goes
with it, and the row of a process killed without cleaning up stops counting once it is stale.
The site socket also carries the unread-notification count, live.

The last test runs a real second ASGI process (distributed mode on PostgreSQL) and kills it."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
import websockets
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import services
from games.models import SitePresence
from games.models.presence import PRESENCE_TIMEOUT, STALE_AFTER
from games.talk import friends, online
from tests.support.live import HOST, ORIGIN, _session_cookie
from tests.support.servers import Processes, requires_distributed_postgres
from tests.support.tables import open_tab

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]
async_test = pytest.mark.asyncio

# Reserved for this module's second process: flushed before and after.
REDIS_INDEX = 12


async def site_tab(user: Any | None) -> WebsocketCommunicator:
    """A page's site socket, after its first frame (the unread count, or a refusal)."""
    from troccas_site.asgi import application

    headers = [ORIGIN, HOST]
    if user is not None:
        cookie = await sync_to_async(_session_cookie)(user)
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    comm = WebsocketCommunicator(application, "/ws/me/", headers=headers)
    connected, _ = await comm.connect(timeout=10)
    assert connected
    return comm


async def frame(comm: WebsocketCommunicator) -> dict[str, Any]:
    return json.loads(await comm.receive_from(timeout=10))


@async_test
async def test_several_tabs_count_once_and_the_badge_is_live(owner: Any,
                                                             players: list[Any]) -> None:
    anna, benedetg, _curdin = players
    first, second = await site_tab(anna), await site_tab(anna)
    assert await frame(first) == {"type": "notices", "unread": 0}
    assert await frame(second) == {"type": "notices", "unread": 0}
    room = await sync_to_async(services.create_room)(owner, name="Stiva")
    table = await open_tab(owner, room.code)
    ids = await sync_to_async(online.online_ids)()
    assert ids == {anna.pk, owner.pk}
    assert await sync_to_async(online.online_count)() == 2
    assert await sync_to_async(SitePresence.objects.filter(user=anna).count)() == 2
    # A friend request reaches both of Anna's tabs once it is committed.
    await sync_to_async(friends.send_request)(owner, anna.pk)
    assert await frame(first) == {"type": "notices", "unread": 1}
    assert await frame(second) == {"type": "notices", "unread": 1}
    await first.send_to(text_data=json.dumps({"type": "ping"}))
    assert await frame(first) == {"type": "pong"}
    # One tab closed: still online; both closed: offline. The owner is online at the table.
    await first.disconnect()
    assert anna.pk in await sync_to_async(online.online_ids)([anna.pk])
    await second.disconnect()
    assert await sync_to_async(online.online_ids)([anna.pk, benedetg.pk, owner.pk]) == {
        owner.pk}
    await table.close()
    assert await sync_to_async(online.online_count)() == 0
    # Signed out, the socket is refused (4401) and writes nothing.
    guest = await site_tab(None)
    assert (await frame(guest))["code"] == "NOT_AUTHENTICATED"
    assert (await guest.receive_output(timeout=5))["code"] == 4401
    assert await sync_to_async(SitePresence.objects.count)() == 0


def test_a_silent_row_stops_counting_and_is_purged(players: list[Any]) -> None:
    anna, benedetg, _curdin = players
    now = timezone.now()
    SitePresence.objects.create(user=anna, channel_name="dead-1",
                                last_seen=now - PRESENCE_TIMEOUT - timedelta(seconds=1))
    SitePresence.objects.create(user=benedetg, channel_name="dead-2",
                                last_seen=now - STALE_AFTER - timedelta(seconds=1))
    SitePresence.objects.create(user=benedetg, channel_name="live", last_seen=now)
    assert online.online_ids() == {benedetg.pk}
    assert online.purge_stale() == 1
    assert set(SitePresence.objects.values_list("channel_name", flat=True)) == {"dead-1",
                                                                               "live"}


@requires_distributed_postgres
@async_test
async def test_tabs_in_two_processes_count_once_and_a_killed_process_goes_stale(
        players: list[Any], server_procs: Processes) -> None:
    anna, benedetg, _curdin = players
    server = server_procs.server("server")
    await asyncio.to_thread(server_procs.ready, server)
    port, proc = server.port, server.proc
    cookies = {u.pk: await sync_to_async(_session_cookie)(u) for u in (anna, benedetg)}
    remote = {}
    for user in (anna, benedetg):
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/me/", origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={cookies[user.pk]}"},
            proxy=None, open_timeout=10)
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "notices"
        remote[user.pk] = ws
    # Anna has a tab on the other server and one here: one person online, not two.
    here = await site_tab(anna)
    await frame(here)
    assert await sync_to_async(online.online_ids)() == {anna.pk, benedetg.pk}
    assert await sync_to_async(online.online_count)() == 2
    # The other server dies without closing anything: its rows stay as they were...
    proc.kill()
    assert await sync_to_async(SitePresence.objects.count)() == 3
    # ...and stop counting once they are stale (moved back in time instead of waiting).
    await sync_to_async(SitePresence.objects.exclude(user=anna).update)(
        last_seen=timezone.now() - PRESENCE_TIMEOUT - timedelta(seconds=1))
    remote_anna = await sync_to_async(
        lambda: SitePresence.objects.filter(user=anna).order_by("pk").first().pk)()
    await sync_to_async(SitePresence.objects.filter(pk=remote_anna).update)(
        last_seen=timezone.now() - PRESENCE_TIMEOUT - timedelta(seconds=1))
    assert await sync_to_async(online.online_ids)() == {anna.pk}
    await here.disconnect()
    assert await sync_to_async(online.online_count)() == 0
    for ws in remote.values():
        await ws.close()
