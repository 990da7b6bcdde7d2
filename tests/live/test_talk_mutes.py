"""Mutes over real websockets (issue #25 items 5 and 13; docs/protocol.md "Table talk").

The table of tests/personas.py: owner A/0, anna B/1, benedetg A/2, curdin B/3. A mute names an
account that exists (PLAYER_NOT_FOUND otherwise, nothing written, the socket lives on), a
player mutes at most MUTES_PER_WINDOW times a window (TOO_MANY_MUTES), and the account's
sockets refilter their talk from the new filter they are sent, without reading the talk
history again.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games.models import TalkMute
from tests.support import tables
from tests.support.live import TableClient

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(90)]


async def send(c: TableClient, type_: str, **fields: Any) -> dict[str, Any]:
    action = await c.send(type_, **fields)
    return await c.wait_for(lambda m: m["type"] in ("talk_ack", "error")
                            and m.get("action_id") == action)


async def alive(c: TableClient) -> None:
    assert c.comm is not None
    await c.comm.send_to(text_data=json.dumps({"type": "ping"}))
    await c.wait_for(lambda m: m["type"] == "pong")


def _no_such_user() -> int:
    from accounts.models import User

    return (User.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1000


async def test_a_mute_of_an_unknown_player_is_refused_and_changes_nothing(table):
    """Issue #25 item 13: an id that names no account used to fail the mute row's foreign key
    (an IntegrityError, close 1011)."""
    code, by_seat = table
    curdin = await tables.open_tab(by_seat[3], code)
    try:
        nobody = await sync_to_async(_no_such_user)()
        for muted in (True, False):
            answer = await send(curdin, "mute", player=nobody, muted=muted)
            assert answer["type"] == "error" and answer["code"] == "PLAYER_NOT_FOUND"
            assert answer["message"] and answer["message"] != "PLAYER_NOT_FOUND"
            await alive(curdin)
        # Not an id at all: a bad field, said as such.
        for bad in (-3, 0, "7", 1.5, True, None, [by_seat[1].pk]):
            answer = await send(curdin, "mute", player=bad, muted=True)
            assert (answer["type"], answer["code"]) == ("error", "INVALID_FIELD"), bad
        await alive(curdin)
        assert await sync_to_async(TalkMute.objects.count)() == 0
        # The socket still mutes a real player.
        assert (await send(curdin, "mute", player=by_seat[1].pk, muted=True)
                )["type"] == "talk_ack"
        assert await sync_to_async(TalkMute.objects.count)() == 1
    finally:
        await curdin.close()
