"""A tournament round's "your table is ready" through the real channel layer (Redis in the
distributed run) to each player's open pages (issue #26 item 5): every tab of a player hears
its new unread count, then `table_ready` with its own table's room; a player of another table
hears of their own room only. The round's frames go out in one batch after commit
(broadcast.send_site_frames)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games.clubs import rounds
from games.models import TournamentTable
from tests.clubs.tournament_helpers import make_tournament, round_of
from tests.talk.test_online import frame, site_tab

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120),
              pytest.mark.asyncio]


async def test_every_tab_of_every_player_hears_its_own_table(make_user: Any) -> None:
    director = await sync_to_async(make_user)("directura")
    people = [await sync_to_async(make_user)(f"giugader{i}") for i in range(8)]
    tournament = await sync_to_async(make_tournament)(director, people)
    first, second = await site_tab(people[0]), await site_tab(people[0])
    other = await site_tab(people[7])
    for tab in (first, second, other):
        assert await frame(tab) == {"type": "notices", "unread": 0}

    await sync_to_async(rounds.advance_tournament)(tournament.pk)

    def room_of(user_id: int) -> str:
        rnd = round_of(tournament, 1)
        for table in TournamentTable.objects.filter(round=rnd).select_related("room"):
            if user_id in table.seat_players:
                assert table.room is not None
                return str(table.room.code)
        raise AssertionError(user_id)

    for tab, person in ((first, people[0]), (second, people[0]), (other, people[7])):
        assert await frame(tab) == {"type": "notices", "unread": 1}
        ready = await frame(tab)
        assert ready["type"] == "table_ready" and ready["round"] == 1
        assert ready["room"] == await sync_to_async(room_of)(person.pk)
        assert ready["tournament"] == tournament.pk
    for tab in (first, second, other):
        assert await tab.receive_nothing(timeout=0.3)
        await tab.disconnect()
