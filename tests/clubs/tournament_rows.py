"""A tournament's rows made directly (the models of games/models/tournaments.py), for the
results and desk tests: they need no registration or round runner."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.models import (
    Entrant,
    EntrantKind,
    RoundStatus,
    Stage,
    TableOutcome,
    Tournament,
    TournamentRound,
    TournamentTable,
)


def tournament(director: Any, *, pairs: bool = False, language: str = "de",
               rounds: int = 2, **fields: Any) -> Tournament:
    start = timezone.now() + timedelta(hours=1)
    t = Tournament.objects.create(
        name=fields.pop("name", "Turnier da Mustér"), director=director, language=language,
        entrant_kind=EntrantKind.PAIRS if pairs else EntrantKind.INDIVIDUAL,
        registration_closes=start, starts_at=start, round_minutes=60, break_minutes=5,
        **fields)
    stage = Stage.objects.create(tournament=t, number=1, rounds=rounds)
    for n in range(1, rounds + 1):
        begins = start + timedelta(minutes=65 * (n - 1))
        TournamentRound.objects.create(stage=stage, tournament=t, number=n, starts_at=begins,
                                       clock_ends_at=begins + timedelta(minutes=60))
    return t


def entrants(t: Tournament, people: Sequence[Any], *, pairs: bool = False) -> list[Entrant]:
    if pairs:
        return [Entrant.objects.create(tournament=t, player=a, partner=b)
                for a, b in zip(people[::2], people[1::2], strict=True)]
    return [Entrant.objects.create(tournament=t, player=p) for p in people]


def table(rnd: TournamentRound, number: int, seat_entrants: Sequence[Entrant],
          seat_players: Sequence[Any], card_points: tuple[int, int] | None = None,
          *, room: Any = None, bot_seats: Sequence[int] = (),
          outcome: str = TableOutcome.PLAYED) -> TournamentTable:
    done = card_points is not None
    return TournamentTable.objects.create(
        round=rnd, number=number, room=room,
        seat_entrants=[e.pk for e in seat_entrants], seat_players=[p.pk for p in seat_players],
        outcome=outcome if done else TableOutcome.PENDING,
        card_points_a=card_points[0] if done else None,
        card_points_b=card_points[1] if done else None,
        bot_seats=list(bot_seats), finished=timezone.now() if done else None)


def round_of(t: Tournament, number: int, status: str = RoundStatus.RUNNING) -> TournamentRound:
    rnd = t.rounds.get(number=number)
    rnd.status = status
    rnd.save(update_fields=["status"])
    return rnd
