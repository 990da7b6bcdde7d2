"""The profile's "finished N of M matches" (issue #17 item 5, games/history/reliability.py):
M counts the ended matches a player sat in from the start, N those that ended normally with
the player still playing their own seat — not a room closed mid-match, not a deal whose rest
a stand-in bot played for them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engine import PLAY
from games.history.reliability import Record, finished_record
from games.live import bot_pool
from tests import personas
from tests.support import bots as helpers
from tests.support import tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]


@pytest.fixture(autouse=True)
def _no_worker_threads() -> Iterator[None]:
    """The test wakes the stand-in itself (as tests/services/bots/test_stand_ins.py does)."""
    bot_pool.embedded.stop()
    yield
    bot_pool.embedded.stop()


def records(people: list[Any]) -> list[Record]:
    return [finished_record(p) for p in people]


def one_deal_match(owner: Any, players: list[Any], options: dict[str, Any],
                   away: Any = None) -> None:
    """A match of one deal, the owner ending it after the scoring; `away` left for good
    once the cards were dealt, a stand-in playing for them."""
    by_seat = personas.by_seat(owner, players)
    room = tables.seat_table(owner, players, {"match_deals": 0, **options})
    tables.advance(room.code, by_seat, PLAY)
    if away is not None:
        helpers.away(away, room.code, 31)
    helpers.play_out(room.code, by_seat, until="ROUND_OVER")
    tables.must(room.code, owner, "end_match")


def test_finished_counts_matches_seen_to_the_end_in_ones_own_seat(
        owner: Any, players: list[Any], settings: Any) -> None:
    settings.TROCCAS_BOT_BUDGET_MS = 0  # the stand-in's quality is not what is tested
    four = [owner, *players]
    anna = players[0]
    one_deal_match(owner, players, {})
    assert records(four) == [Record(1, 1)] * 4
    # A match still running counts for nothing yet; closed mid-match, it is abandoned for all.
    room = tables.seat_table(owner, players)
    tables.must(room.code, owner, "start_round")
    assert records(four) == [Record(1, 1)] * 4
    tables.must(room.code, owner, "close_room")
    assert records(four) == [Record(1, 2)] * 4
    # Anna goes away for good during a deal: a stand-in plays her cards to its end.
    one_deal_match(owner, players, {"stand_in_seconds": 30}, away=anna)
    assert records(four) == [Record(2, 3), Record(1, 3, by_bot=1), Record(2, 3), Record(2, 3)]
    # The profile says it, in words.
    web = Client()
    web.force_login(anna)
    assert ("Finished 1 of 3 matches — 1 finished by a bot."
            in web.get(reverse("accounts:profile")).content.decode())


def test_the_sentence_names_resignations_and_stand_in_finishes() -> None:
    assert Record(5, 7, resigned=1, by_bot=1).sentence == (
        "Finished 5 of 7 matches — 1 resigned, 1 finished by a bot.")
    assert Record(0, 1, resigned=1).sentence == "Finished 0 of 1 match — 1 resigned."
    assert Record(2, 2).sentence == "Finished 2 of 2 matches."
    with translation.override("de"):
        assert Record(1, 2, resigned=1).sentence == "1 von 2 Partien beendet — 1 aufgegeben."
