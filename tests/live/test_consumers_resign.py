"""The resign command over a real table socket (issue #24 item 2): a seated player's `resign`
is acknowledged and every tab's next `state` shows the match over and who gave it up; a
spectator's is refused with its code and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games.engine import PLAY
from tests.support import tables

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(90)]


def _playing(owner: Any, players: list[Any]) -> str:
    room = tables.seat_table(owner, players, {"reveal_seconds": 2, "turn_seconds": 0})
    tables.advance(room.code, {0: owner, 1: players[0], 2: players[1], 3: players[2]}, PLAY)
    return room.code


async def test_a_seated_players_resign_ends_the_match_for_every_tab(
        owner: Any, players: list[Any], spectator: Any) -> None:
    code = await sync_to_async(_playing)(owner, players)
    anna = players[0]
    mine = await tables.open_tab(anna, code, "anna")
    other = await tables.open_tab(owner, code, "owner")
    watcher = await tables.open_tab(spectator, code, "spectator")
    before = await sync_to_async(tables.fingerprint)(code)
    action_id = await watcher.send("resign", watcher.version)
    refusal = await tables.answer(watcher, action_id)
    assert refusal["type"] == "error" and refusal["code"] == "NOT_SEATED"
    assert await sync_to_async(tables.fingerprint)(code) == before
    action_id = await mine.send("resign", mine.version)
    ack = await tables.answer(mine, action_id)
    assert ack["type"] == "ack"
    for tab in (mine, other, watcher):
        frame = await tab.wait_version(ack["version"])
        assert frame["view"]["phase"] == "MATCH_OVER"
        assert frame["view"]["match"]["resigned"] == {"seat": 1, "name": anna.public_name}
        assert [e["type"] for e in frame.get("events", [])] == ["match_over"]
        assert frame["events"][0]["winner"] == "A"
    for tab in (mine, other, watcher):
        await tab.close()
