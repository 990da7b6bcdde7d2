"""A whole small tournament played unattended (issue #26): entered and checked in through the
services, then driven only by the sweep (`rounds.sweep_tournaments`) with a moving `now` while
the tables are played out (the people by their first legal card, any bot by its wake-up) until
the tournament is finished. Its standings are then rebuilt independently from the finished
Match rows of the tables' rooms."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.clubs import duplicate, results, rounds, tournaments
from games.models import (
    Entrant,
    EntrantKind,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
    TableOutcome,
    Tournament,
    TournamentRound,
    TournamentStatus,
    TournamentTable,
)
from games.talk import friends
from tests.clubs.tournament_helpers import play_table

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(600)]

STEP = timedelta(minutes=5)


def _open(director: Any, people: list[Any], *, pairs: bool, rounds_: int, deals: int,
          duplicate_: bool) -> Tournament:
    """Created, entered and checked in through the services; the start ten minutes away."""
    start = timezone.now() + timedelta(minutes=10)
    tournament = tournaments.create_tournament(
        director, name="Turnier unattended", language="rm",
        entrant_kind=EntrantKind.PAIRS if pairs else EntrantKind.INDIVIDUAL,
        options={"match_deals": deals}, registration_closes=start, starts_at=start,
        round_minutes=60, break_minutes=5,
        stages=[{"format": "swiss", "rounds": rounds_, "duplicate": duplicate_}])
    if pairs:
        for a, b in zip(people[::2], people[1::2], strict=True):
            friends.send_request(a, b.pk)
            friends.accept(b, a.pk)
            tournaments.register(a, tournament, partner=b)
    else:
        for person in people:
            tournaments.register(person, tournament)
    for person in people:
        tournaments.check_in(person, tournament)
    return tournament


def _run_unattended(tournament: Tournament,
                    after_table: Callable[[TournamentTable], None] | None = None) -> int:
    """Sweep with `now` moving five minutes a step; every table whose match runs is played
    out between two sweeps. How many sweeps it took."""
    now = tournament.starts_at
    for sweep in range(1, 400):
        rounds.sweep_tournaments(now=now)
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            return sweep
        for table in (TournamentTable.objects.filter(
                round__tournament=tournament, outcome=TableOutcome.PENDING,
                room__matches__status=MatchStatus.RUNNING).order_by("round__number", "number")):
            play_table(table)
            if after_table is not None:
                after_table(table)
        now += STEP
    raise AssertionError("the tournament did not finish")


def _rebuilt(tournament: Tournament) -> dict[int, tuple[int, int, int]]:
    """Each entrant's (match points, card points, Parties) from the finished Match rows of
    the tables' rooms alone: who sat where from the match, the totals from the match."""
    entrant_of: dict[int, int] = {}
    for e in Entrant.objects.filter(tournament=tournament):
        entrant_of[e.player_id] = e.pk
        if e.partner_id is not None:
            entrant_of[e.partner_id] = e.pk
    match_points: defaultdict[int, int] = defaultdict(int)
    card_points: defaultdict[int, int] = defaultdict(int)
    parties: defaultdict[int, int] = defaultdict(int)
    rooms = TournamentTable.objects.filter(round__tournament=tournament).values_list(
        "room_id", flat=True)
    for match in Match.objects.filter(room_id__in=rooms):
        assert match.status == MatchStatus.FINISHED
        seats = [match.player_0_id, match.player_1_id, match.player_2_id, match.player_3_id]
        for team, mine, theirs in ((0, match.total_a, match.total_b),
                                   (1, match.total_b, match.total_a)):
            for entrant in {entrant_of[seats[team]], entrant_of[seats[team + 2]]}:
                match_points[entrant] += 2 if mine > theirs else 1 if mine == theirs else 0
                card_points[entrant] += mine
                parties[entrant] += 1
    return {e: (match_points[e], card_points[e], parties[e])
            for e in Entrant.objects.filter(tournament=tournament).values_list("pk",
                                                                               flat=True)}


def _check_finished(tournament: Tournament, rounds_: int) -> list[TournamentTable]:
    rnds = list(TournamentRound.objects.filter(tournament=tournament).order_by("number"))
    assert [r.number for r in rnds] == list(range(1, rounds_ + 1))
    assert all(r.status == RoundStatus.CLOSED for r in rnds)
    tables = list(TournamentTable.objects.filter(round__tournament=tournament)
                  .order_by("round__number", "number"))
    assert tables and all(t.room_id is not None for t in tables)
    assert all(t.outcome == TableOutcome.PLAYED for t in tables)
    for table in tables:
        match = Match.objects.get(room=table.room)
        assert (table.card_points_a, table.card_points_b) == (match.total_a, match.total_b)
    # The standings as the site shows them equal those rebuilt from the matches alone.
    standings = results.standings_of(tournament)
    assert ({s.entrant: (s.match_points, s.card_points, s.parties) for s in standings}
            == _rebuilt(tournament))
    assert [s.rank for s in standings] == sorted(s.rank for s in standings)
    keys = [(s.match_points, s.card_points) for s in standings]
    assert keys == sorted(keys, reverse=True)  # match points first, then card points
    return tables


def test_eight_individuals_play_three_rounds_with_rotating_partners(
        make_user: Callable[..., Any]) -> None:
    people = [make_user(f"solo{n}") for n in range(8)]
    tournament = _open(make_user("director"), people, pairs=False, rounds_=3, deals=4,
                       duplicate_=False)
    _run_unattended(tournament)
    tables = _check_finished(tournament, 3)
    assert len(tables) == 6  # two tables a round, nobody sitting out
    partnerships: Counter[frozenset[int]] = Counter()
    for table in tables:
        e = table.seat_entrants
        assert len(set(e)) == 4
        partnerships.update([frozenset((e[0], e[2])), frozenset((e[1], e[3]))])
    # Seven possible partners each and three rounds: nobody is anyone's partner twice.
    assert len(partnerships) == 12 and set(partnerships.values()) == {1}
    for number in (1, 2, 3):
        seated = [e for t in tables if t.round.number == number for e in t.seat_entrants]
        assert sorted(seated) == sorted(Entrant.objects.filter(tournament=tournament)
                                        .values_list("pk", flat=True))


def test_four_pairs_play_a_duplicate_stage(make_user: Callable[..., Any]) -> None:
    people = [make_user(f"pair{n}") for n in range(8)]
    tournament = _open(make_user("director"), people, pairs=True, rounds_=3, deals=4,
                       duplicate_=True)
    seen: list[tuple[int, bool]] = []

    def after_table(table: TournamentTable) -> None:
        # While another table of the round still plays deal 1, its cards stay secret.
        rnd = TournamentRound.objects.get(pk=table.round_id)
        others = TournamentTable.objects.filter(round=rnd).exclude(pk=table.pk)
        still_playing = others.filter(room__matches__status=MatchStatus.RUNNING).exists()
        seen.append((rnd.number, still_playing))
        if still_playing:
            assert not duplicate.deal_public(rnd, 1)
            assert duplicate.comparison(rnd) == []

    _run_unattended(tournament, after_table)
    assert (1, True) in seen and (3, True) in seen
    tables = _check_finished(tournament, 3)
    assert len(tables) == 6
    for rnd in TournamentRound.objects.filter(tournament=tournament):
        assert len(rnd.decks) == 4
        for table in TournamentTable.objects.filter(round=rnd):
            deals = list(Round.objects.filter(match__room=table.room).order_by("number"))
            assert [d.deck for d in deals] == rnd.decks
            assert [d.dealer for d in deals] == [0, 1, 2, 3]
            a, b = table.seat_entrants[0], table.seat_entrants[1]
            assert table.seat_entrants == [a, b, a, b] and a != b
        # The round closed: the comparison of both deals is public.
        assert all(duplicate.deal_public(rnd, d) for d in (1, 2, 3, 4))
        compared = duplicate.comparison(rnd)
        assert [c.deal for c in compared] == [1, 2, 3, 4]
        for deal in compared:
            assert list(deal.deck) == rnd.decks[deal.deal - 1]
            assert sorted(r.table for r in deal.results) == [1, 1, 2, 2]
        assert set(duplicate.round_totals(rnd)) == {
            e for t in TournamentTable.objects.filter(round=rnd) for e in t.seat_entrants}
    # Four pairs, three rounds: each has met every other pair once.
    met = Counter(frozenset(t.seat_entrants) for t in tables)
    assert len(met) == 6 and set(met.values()) == {1}
