"""Absent players (issue #14 item 3): since when a seated player is away, told by the server.

A player's last socket closing keeps its Connection row, closed: the presence frame and every
view's `seats` then carry `away_since`, the same instant for every client and for a reload.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import services
from games.models import Connection, Room
from games.services import presence
from tests.support import tables

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(60)]



def _seat(view: dict[str, Any], index: int) -> dict[str, Any]:
    return next(s for s in view["seats"] if s["index"] == index)


async def test_a_closed_page_makes_the_seat_away_since_it_closed(
        table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    owner = await tables.open_tab(by_seat[0], code, "owner")
    curdin = await tables.open_tab(by_seat[3], code, "curdin")
    assert _seat(curdin.view, 3)["away_since"] is None
    await owner.wait_for(lambda m: m["type"] == "presence"
                         and by_seat[3].pk in m["connected"], timeout=10)
    before = timezone.now().timestamp()
    await curdin.close()
    gone = await owner.wait_for(lambda m: m["type"] == "presence"
                                and by_seat[3].pk not in m["connected"], timeout=10)
    since = gone["away_since"][str(by_seat[3].pk)]
    assert since is not None and since >= before - 1
    assert str(by_seat[0].pk) not in gone["away_since"]
    # A page opened (or reloaded) later shows the same clock.
    anna = await tables.open_tab(by_seat[1], code, "anna")
    seat3 = _seat(anna.view, 3)
    assert seat3["connected"] is False and seat3["away_since"] == since
    assert _seat(anna.view, 1)["away_since"] is None
    # The bots' hook says the same.
    away = await sync_to_async(services.away_seats)(code)
    assert set(away) == {2, 3} and away[3] is not None and away[3].timestamp() == since
    # Back at the table: no clock, no closed row left.
    back = await tables.open_tab(by_seat[3], code, "curdin")
    assert _seat(back.view, 3)["away_since"] is None and _seat(back.view, 3)["connected"]
    rows = await sync_to_async(lambda: list(Connection.objects.filter(
        user=by_seat[3], closed_at__isnull=False)))()
    assert rows == []
    for tab in (owner, anna, back):
        await tab.close()


async def test_one_of_two_tabs_closing_is_not_away(table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    owner = await tables.open_tab(by_seat[0], code, "owner")
    one = await tables.open_tab(by_seat[3], code, "curdin")
    two = await tables.open_tab(by_seat[3], code, "curdin")
    await one.close()
    frame = await owner.wait_for(lambda m: m["type"] == "presence", timeout=10)
    while by_seat[3].pk not in frame["connected"]:
        frame = await owner.wait_for(lambda m: m["type"] == "presence", timeout=10)
    assert str(by_seat[3].pk) not in frame["away_since"]
    for tab in (owner, two):
        await tab.close()


def _dead_process(code: str, user: Any) -> timedelta:
    room = Room.objects.get(code=code)
    silent = presence.STALE_AFTER + timedelta(seconds=30)
    Connection.objects.create(room=room, user=user, channel_name="dead!1",
                              last_seen=timezone.now() - silent)
    return silent


async def test_a_dead_process_leaves_an_away_clock_from_when_it_went_silent(
        table: tuple[str, dict[int, Any]]) -> None:
    code, by_seat = table
    silent = await sync_to_async(_dead_process)(code, by_seat[2])
    seen = (await sync_to_async(services.away_seats)(code))[2]
    assert seen is not None
    await sync_to_async(services.purge_stale_connections)()
    after = (await sync_to_async(services.away_seats)(code))[2]
    assert after == seen  # the purge keeps the clock: closed as of last_seen + the timeout
    row = await sync_to_async(Connection.objects.get)(channel_name="dead!1")
    assert row.closed_at == row.last_seen + services.PRESENCE_TIMEOUT
    assert silent > services.PRESENCE_TIMEOUT


async def test_the_players_see_how_many_watch_never_who(table: tuple[str, dict[int, Any]],
                                                        spectator: Any, outsider: Any) -> None:
    """Issue #24 item 15: every presence frame counts the people at the room without a seat;
    a player's own tabs never count, and no frame names a spectator."""
    code, by_seat = table
    owner = await tables.open_tab(by_seat[0], code, "owner")
    anna = await tables.open_tab(by_seat[1], code, "anna")
    frame = await owner.wait_for(lambda m: m["type"] == "presence"
                                 and by_seat[1].pk in m["connected"], timeout=10)
    assert frame["watching"] == 0
    watcher = await tables.open_tab(spectator, code, "spectator")
    await owner.wait_for(lambda m: m["type"] == "presence" and m["watching"] == 1, timeout=10)
    # Two tabs of one spectator are one person watching.
    again = await tables.open_tab(spectator, code, "spectator")
    other = await tables.open_tab(outsider, code, "outsider")
    frame = await anna.wait_for(lambda m: m["type"] == "presence"
                                and outsider.pk in m["connected"], timeout=10)
    assert frame["watching"] == 2
    # One of the spectator's tabs closes: still two people watching, as the spectators see
    # too; the frame holds ids and a number, never a name.
    await again.close()
    seen = await other.wait_for(lambda m: m["type"] == "presence", timeout=10)
    assert seen["watching"] == 2
    assert spectator.public_name not in str(seen) and outsider.public_name not in str(seen)
    await watcher.close()
    await owner.wait_for(lambda m: m["type"] == "presence" and m["watching"] == 1, timeout=10)
    for tab in (owner, anna, other):
        await tab.close()
