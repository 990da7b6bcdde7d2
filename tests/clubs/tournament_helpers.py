"""Tournaments for the round runner's tests: made straight in the database (the registration
pages are tested on their own), every entrant checked in unless told otherwise, and a way to
play a round's tables out fast (each person plays their first legal card)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.clubs import rounds
from games.models import (
    Entrant,
    EntrantKind,
    Room,
    Stage,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from tests.support import bots


def make_tournament(director: Any, people: list[Any], *, pairs: bool = False,
                    stages: tuple[tuple[str, int, int | None, bool], ...] = (("swiss", 1,
                                                                              None, False),),
                    starts_at: datetime | None = None, checked_in: bool = True,
                    **fields: Any) -> Tournament:
    """`people` enter (pairs: consecutive two as one pair); `stages` as (format, rounds,
    advance, duplicate)."""
    start = starts_at or timezone.now() - timedelta(seconds=1)
    tournament = Tournament.objects.create(
        name="Turnier da Mustér", director=director, language="rm",
        entrant_kind=EntrantKind.PAIRS if pairs else EntrantKind.INDIVIDUAL,
        options=fields.pop("options", {"match_deals": 4}),
        registration_closes=start - timedelta(minutes=5), starts_at=start, **fields)
    for number, (fmt, count, advance, duplicate) in enumerate(stages, start=1):
        Stage.objects.create(tournament=tournament, number=number, format=fmt, rounds=count,
                             advance=advance, duplicate=duplicate)
    now = timezone.now() if checked_in else None
    if pairs:
        for first, second in zip(people[::2], people[1::2], strict=True):
            Entrant.objects.create(tournament=tournament, player=first, partner=second,
                                   checked_in=now, partner_checked_in=now)
    else:
        for person in people:
            Entrant.objects.create(tournament=tournament, player=person, checked_in=now)
    return tournament


def rounds_of(tournament: Tournament) -> list[TournamentRound]:
    return list(TournamentRound.objects.filter(tournament=tournament).order_by("number"))


def round_of(tournament: Tournament, number: int) -> TournamentRound:
    return TournamentRound.objects.get(tournament=tournament, number=number)


def people_of(table: TournamentTable) -> dict[int, Any]:
    from accounts.models import User

    users = User.objects.in_bulk(table.seat_players)
    return {i: users[p] for i, p in enumerate(table.seat_players)}


def play_table(table: TournamentTable, until: str = "MATCH_OVER") -> None:
    assert table.room is not None
    bots.play_out(table.room.code, people_of(table), until=until)


def play_round(tournament: Tournament, number: int,
               before: Callable[[TournamentTable], None] | None = None) -> None:
    """Play every table of round `number` to its end, then let the runner see it at the next
    round's start."""
    for table in TournamentTable.objects.filter(round=round_of(tournament, number)):
        if before is not None:
            before(table)
        play_table(table)
    # As the sweep would at the next round's start (a break after this one's clock).
    after = TournamentRound.objects.filter(tournament=tournament, number=number + 1).first()
    now = timezone.now() if after is None else max(timezone.now(), after.starts_at)
    rounds.advance_tournament(tournament.pk, now=now)


def rooms_of(tournament_round: TournamentRound) -> list[Room]:
    return [t.room for t in TournamentTable.objects.filter(round=tournament_round)
            .select_related("room").order_by("number") if t.room is not None]
