"""Duplicate deals (issue #26 item 4; games/clubs/duplicate.py): every table of a duplicate
round plays the same decks with seat 0 dealing first, a side's result on a deck is scored
against the same side at every other table (matchpoints), and nothing of a deck leaves the
site — match page, replay, transcript export, the table's socket, the JSON API — before every
table has finished it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games import services
from games.clubs import duplicate, rounds
from games.engine import ROUND_OVER
from games.models import Match, Round, RoundStatus, Spectators, TournamentTable
from tests.clubs.tournament_helpers import (
    make_tournament,
    people_of,
    play_round,
    play_table,
    round_of,
)
from tests.support import bots

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(300)]

STAGE = (("swiss", 1, None, True),)


@pytest.fixture
def director(make_user: Callable[..., Any]) -> Any:
    return make_user("director")


def crowd(make_user: Callable[..., Any], count: int) -> list[Any]:
    return [make_user(f"dup{n}") for n in range(count)]


def test_matchpoints_are_two_per_table_beaten_and_one_per_tie() -> None:
    assert duplicate.matchpoints([10, 20, 20, 5]) == [2, 5, 5, 0]
    assert duplicate.matchpoints([42]) == [0]


def test_every_table_plays_the_same_decks_with_the_same_dealer(
        director: Any, make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 12), stages=STAGE)
    rounds.advance_tournament(tournament.pk)
    rnd = round_of(tournament, 1)
    assert len(rnd.decks) == 4 and len({tuple(d) for d in rnd.decks}) == 4
    play_round(tournament, 1)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED
    tables = list(TournamentTable.objects.filter(round=rnd))
    assert len(tables) == 3
    for table in tables:
        deals = list(Round.objects.filter(match__room=table.room).order_by("number"))
        assert [d.deck for d in deals] == rnd.decks
        assert [d.dealer for d in deals] == [0, 1, 2, 3]


def test_a_round_that_is_not_duplicate_shuffles_each_table(director: Any,
                                                           make_user: Callable[..., Any]
                                                           ) -> None:
    tournament = make_tournament(director, crowd(make_user, 8))
    rounds.advance_tournament(tournament.pk)
    rnd = round_of(tournament, 1)
    assert rnd.decks == []
    decks = {tuple(Round.objects.get(match__room=t.room, number=1).deck)
             for t in TournamentTable.objects.filter(round=rnd)}
    assert len(decks) == 2
    assert duplicate.comparison(rnd) == []


def test_the_comparison_scores_each_side_against_the_same_cards(
        director: Any, make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 12), stages=STAGE)
    rounds.advance_tournament(tournament.pk)
    play_round(tournament, 1)
    rnd = round_of(tournament, 1)
    table_of = {t.number: t for t in TournamentTable.objects.filter(round=rnd)}
    compared = duplicate.comparison(rnd)
    assert [c.deal for c in compared] == [1, 2, 3, 4]
    for deal in compared:
        assert list(deal.deck) == rnd.decks[deal.deal - 1]
        for side in "AB":
            results = [r for r in deal.results if r.side == side]
            assert len(results) == 3 and all(r.maximum == 4 for r in results)
            # Each pair of tables shares 2 matchpoints: 3 pairs, 6 in all.
            assert sum(r.matchpoints for r in results) == 6
            for r in results:
                a, b = table_of[r.table].deal_scores[deal.deal - 1]
                assert r.points == (a if side == "A" else b)
                beaten = sum(2 if r.points > o.points else r.points == o.points
                             for o in results if o is not r)
                assert r.matchpoints == beaten
    totals = duplicate.round_totals(rnd)
    assert set(totals) == {e for t in table_of.values() for e in t.seat_entrants}
    assert all(t.maximum == 16 and 0 <= t.percent <= 100 for t in totals.values())


def _half_played(director: Any, make_user: Callable[..., Any], **fields: Any
                 ) -> tuple[Any, TournamentTable, TournamentTable]:
    """Two duplicate tables: the first has finished its Partie, the second is in deal 2."""
    tournament = make_tournament(director, crowd(make_user, 8), stages=STAGE, **fields)
    rounds.advance_tournament(tournament.pk)
    first, second = TournamentTable.objects.filter(round=round_of(tournament, 1)).order_by(
        "number")
    play_table(first)
    play_table(second, until=ROUND_OVER)
    assert second.room is not None
    bots.person_step(second.room.code, people_of(second))  # deal 2 is dealt
    rounds.advance_tournament(tournament.pk)
    return tournament, first, second


def test_a_deck_is_public_once_every_table_finished_it(director: Any,
                                                       make_user: Callable[..., Any]) -> None:
    tournament, first, second = _half_played(director, make_user)
    rnd = round_of(tournament, 1)
    first.refresh_from_db()
    assert first.outcome == "played" and rnd.status == RoundStatus.RUNNING
    assert duplicate.deal_public(rnd, 1)
    assert not duplicate.deal_public(rnd, 2)
    assert [c.deal for c in duplicate.comparison(rnd)] == [1]
    assert set(duplicate.round_totals(rnd)) == set(first.seat_entrants + second.seat_entrants)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_nothing_of_another_tables_deal_2_reaches_a_player_still_on_it(
        director: Any, make_user: Callable[..., Any]) -> None:
    tournament, first, second = _half_played(director, make_user,
                                             spectators=Spectators.AFTER_ROUND)
    assert first.room is not None and second.room is not None
    match = Match.objects.get(room=first.room)
    still_playing = people_of(second)[0]
    finished = people_of(first)[0]
    pages = [f"/en/matches/{match.pk}/", f"/en/matches/{match.pk}/replay.json",
             f"/en/matches/{match.pk}/transcript.json"]
    # The player still on deal 2: neither the other table's page, replay nor export.
    for url in pages:
        assert _client(still_playing).get(url).status_code == 404, url
    # Nor its table: the socket's admission, the JSON API.
    assert services.may_watch(first.room.code, still_playing) == "SPECTATORS_NOT_ALLOWED"
    api = _client(still_playing).get(f"/api/rooms/{first.room.code}")
    assert api.status_code == 403 and api.json()["code"] == "SPECTATORS_NOT_ALLOWED"
    # Even the first table's own players get no cards of it while the round is on.
    own = _client(finished)
    assert own.get(pages[0]).status_code == 200
    for url in pages[1:]:
        response = own.get(url)
        assert response.status_code == 403 and response.json()["error"] == "MATCH_NOT_FINISHED"
    # Once the round is closed, the replays are public (the tournament shows them after it).
    play_table(second)
    rounds.advance_tournament(tournament.pk)
    assert round_of(tournament, 1).status == RoundStatus.CLOSED
    for url in pages:
        assert _client(still_playing).get(url).status_code == 200, url
    assert duplicate.deal_public(round_of(tournament, 1), 2)


def test_spectators_stay_out_after_the_round_when_the_tournament_says_so(
        director: Any, make_user: Callable[..., Any]) -> None:
    tournament = make_tournament(director, crowd(make_user, 4), stages=STAGE)
    rounds.advance_tournament(tournament.pk)
    play_round(tournament, 1)
    [table] = TournamentTable.objects.filter(round=round_of(tournament, 1))
    assert table.room is not None
    outsider = make_user("outsider")
    assert services.may_watch(table.room.code, outsider) == "SPECTATORS_NOT_ALLOWED"
    match = Match.objects.get(room=table.room)
    assert _client(outsider).get(f"/en/matches/{match.pk}/replay.json").status_code == 404
    # Its own players see it all once the round is closed.
    player = people_of(table)[1]
    assert _client(player).get(f"/en/matches/{match.pk}/replay.json").status_code == 200
    assert services.may_watch(table.room.code, player) is None
