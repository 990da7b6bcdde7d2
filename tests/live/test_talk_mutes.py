"""Mutes over real websockets (issue #25 items 5 and 13; docs/protocol.md "Table talk").

The table of tests/personas.py: owner A/0, anna B/1, benedetg A/2, curdin B/3. A mute names an
account that exists (PLAYER_NOT_FOUND otherwise, nothing written, the socket lives on), a
player mutes at most MUTES_PER_WINDOW times a window (TOO_MANY_MUTES), and the account's
sockets refilter their talk from the new filter they are sent, without reading the talk
history again.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games.live.flood import PER_SECOND
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


async def _say(c: TableClient, text: str) -> None:
    assert (await send(c, "say", text=text))["type"] == "talk_ack"


def _texts(frame: dict[str, Any]) -> list[str]:
    return [m["text"] for m in frame["messages"]]


async def test_a_mute_refilters_every_socket_from_the_filter_it_is_sent(table, monkeypatch):
    """Issue #25 item 5: a mute sends the account's sockets the new filter; each refilters
    the talk it holds instead of reading the talk history from the database again (before:
    one read per socket per mute)."""
    from games.live import talk as live_talk

    code, by_seat = table
    anna, benedetg, curdin = by_seat[1], by_seat[2], by_seat[3]
    speakers = {1: await tables.open_tab(anna, code), 2: await tables.open_tab(benedetg, code)}
    tabs = [await tables.open_tab(curdin, code) for _ in range(2)]
    reads: list[int] = []
    real = live_talk._history

    def counted(*args: Any) -> Any:
        reads.append(args[2])
        return real(*args)

    try:
        await _say(speakers[1], "anna speaks")
        await _say(speakers[2], "benedetg speaks")
        for c in tabs:
            await c.wait_for(lambda m: m["type"] == "talk"
                             and m["message"]["text"] == "benedetg speaks")
        monkeypatch.setattr(live_talk, "_history", counted)
        assert (await send(tabs[0], "mute", player=anna.pk, muted=True))["type"] == "talk_ack"
        for c in tabs:
            hist = await c.wait_for(lambda m: m["type"] == "talk_history")
            assert _texts(hist) == ["benedetg speaks"]
        # Her words while muted reach neither socket, and are kept for an unmute.
        await _say(speakers[1], "anna, muted")
        # Muting and unmuting benedetg, whom the history was read with: no read either.
        await send(tabs[1], "mute", player=benedetg.pk, muted=True)
        for c in tabs:
            assert _texts(await c.wait_for(lambda m: m["type"] == "talk_history")) == []
        await send(tabs[1], "mute", player=benedetg.pk, muted=False)
        for c in tabs:
            hist = await c.wait_for(lambda m: m["type"] == "talk_history")
            assert _texts(hist) == ["benedetg speaks"]
        assert [r for r in reads if r == curdin.pk] == []
        # Unmuting anna, hidden when the history was read: her earlier words come back
        # (read again, once per socket), her words while muted too.
        await send(tabs[0], "mute", player=anna.pk, muted=False)
        for c in tabs:
            hist = await c.wait_for(lambda m: m["type"] == "talk_history")
            assert _texts(hist) == ["anna speaks", "benedetg speaks", "anna, muted"]
    finally:
        for c in (*tabs, *speakers.values()):
            await c.close()


async def test_mutes_are_limited_per_player(table):
    """Issue #25 item 5: at most MUTES_PER_WINDOW mutes and unmutes a window, then
    TOO_MANY_MUTES (translated), and nothing changes."""
    from django.core.cache import cache

    from games.talk import moderation

    code, by_seat = table
    curdin = await tables.open_tab(by_seat[3], code)
    try:
        for i in range(moderation.MUTES_PER_WINDOW):
            await asyncio.sleep(1 / PER_SECOND)  # within the socket's flood bucket
            answer = await send(curdin, "mute", player=by_seat[1 + i % 2].pk, muted=i % 4 < 2)
            assert answer["type"] == "talk_ack", (i, answer)
        rows = await sync_to_async(list)(TalkMute.objects.values_list("user_id", "muted_id"))
        answer = await send(curdin, "mute", player=by_seat[0].pk, muted=True)
        assert answer["type"] == "error" and answer["code"] == "TOO_MANY_MUTES"
        assert answer["message"] and answer["message"] != "TOO_MANY_MUTES"
        assert await sync_to_async(list)(
            TalkMute.objects.values_list("user_id", "muted_id")) == rows
        await alive(curdin)
        # Another player mutes as before.
        anna = await tables.open_tab(by_seat[1], code)
        assert (await send(anna, "mute", player=by_seat[0].pk, muted=True))["type"] == "talk_ack"
        await anna.close()
    finally:
        await curdin.close()
        await sync_to_async(cache.delete)(moderation._mute_key(by_seat[3]))
