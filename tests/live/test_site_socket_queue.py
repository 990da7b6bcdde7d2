"""Find a game's frames on the site socket /ws/me/ (issue #24 item 15; docs/protocol.md
"The site socket"): the wait on connect (a reload), `queue` as the count changes, `queue_table`
when the table forms, `queue_left` when the wait ends otherwise — through the channel layer
(Redis in the distributed run), to every tab of the account."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games.services import matchmaking
from tests.talk.test_online import frame, site_tab

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120),
              pytest.mark.asyncio]


async def _queue_frame(comm: Any) -> dict[str, Any]:
    """The next frame past the unread count (sent on connect, and on any notice)."""
    while True:
        got = await frame(comm)
        if got["type"] != "notices":
            return got


async def test_the_wait_the_count_the_table_and_the_leave(make_user: Any) -> None:
    people = [await sync_to_async(make_user)(name)
              for name in ("mengia", "gion", "ursina", "flurin", "seraina")]
    join = sync_to_async(matchmaking.join)
    await join(people[0], {}, None)
    # A page opened (or reloaded) while waiting is told the wait at once.
    first = await site_tab(people[0])
    hello = await _queue_frame(first)
    assert hello["type"] == "queue" and hello["status"] == "waiting" and hello["waiting"] == 1
    second = await site_tab(people[0])
    assert (await _queue_frame(second))["waiting"] == 1

    await join(people[1], {}, None)
    for tab in (first, second):
        counted = await _queue_frame(tab)
        assert counted["type"] == "queue" and counted["waiting"] == 2

    await join(people[2], {}, None)
    await join(people[3], {}, None)
    for tab in (first, second):
        while (got := await _queue_frame(tab))["type"] == "queue":
            pass
        assert got["type"] == "queue_table" and got["bots"] is False
        room = got["room"]
    entry = await sync_to_async(matchmaking.view_of)(people[0])
    assert entry is not None and entry.room == room

    fifth = await site_tab(people[4])
    await join(people[4], {}, None)
    assert (await _queue_frame(fifth))["type"] == "queue"
    await sync_to_async(matchmaking.leave)(people[4])
    while (got := await _queue_frame(fifth))["type"] == "queue":
        pass
    assert got == {"type": "queue_left", "reason": "left"}
    for tab in (first, second, fifth):
        await tab.disconnect()
