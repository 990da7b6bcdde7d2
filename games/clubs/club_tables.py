"""A club's tables and its season standings (issue #26 item 1).

A club table is a room opened through the services (`services.open_room`, so the account's
open-room cap and rate limit hold) with `club` set and private visibility: no public list
names it, and the services refuse its socket and its seats to anyone not a member
(games/services/presence.py may_watch, lobby.py check_take_seat: CLUB_TABLE_MEMBERS_ONLY).

The standings of a season (the calendar year) count, for each member, the finished rated
matches played at the club's tables that year: match points 2 for a win, 1 for a draw, 0 for
a loss, beside the member's site-wide rating."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from games import services
from games.models import (
    Club,
    Match,
    MatchStatus,
    Membership,
    PlayerRating,
    Room,
    Visibility,
    Winner,
)
from games.services.errors import ServiceError
from games.services.rooms import with_default_turn_timer

__all__ = ["MATCH_POINTS", "StandingRow", "open_club_table", "open_tables", "season_standings"]

MATCH_POINTS = {"win": 2, "draw": 1, "loss": 0}


def open_club_table(user: Any, club: Club, options: dict[str, Any] | None = None, *,
                    name: str = "", allow_spectators: bool = True,
                    take_seat: str | None = "A") -> Room:
    """A member opens a table for the club; NOT_CLUB_MEMBER for anyone else."""
    if not Membership.objects.filter(club=club, user_id=user.pk).exists():
        raise ServiceError("NOT_CLUB_MEMBER")
    return services.open_room(user, with_default_turn_timer(options),
                              name=name, visibility=Visibility.PRIVATE,
                              allow_spectators=allow_spectators, take_seat=take_seat,
                              club=club)


def open_tables(club: Club) -> QuerySet[Room]:
    return (Room.objects.open().filter(club=club).select_related("owner")
            .prefetch_related("seats__user"))


@dataclass
class StandingRow:
    user: Any
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rating: float | None = None

    @property
    def match_points(self) -> int:
        return (MATCH_POINTS["win"] * self.wins + MATCH_POINTS["draw"] * self.draws
                + MATCH_POINTS["loss"] * self.losses)


def season_standings(club: Club, year: int | None = None) -> list[StandingRow]:
    """The members' standings of `year` (this calendar year by default): match points, then
    matches played fewer first, then rating; members without a match are listed last."""
    year = year or timezone.now().year
    rows = {m.user_id: StandingRow(m.user)
            for m in Membership.objects.filter(club=club).select_related("user")}
    matches = Match.objects.filter(room__club=club, status=MatchStatus.FINISHED, rated=True,
                                   finished__year=year)
    for winner, *players in matches.values_list("winner", "player_0_id", "player_1_id",
                                                "player_2_id", "player_3_id"):
        for seat, player_id in enumerate(players):
            row = rows.get(player_id)
            if row is None:  # not (or no longer) a member
                continue
            row.played += 1
            team = "A" if seat % 2 == 0 else "B"
            if winner == Winner.DRAW:
                row.draws += 1
            elif winner == team:
                row.wins += 1
            else:
                row.losses += 1
    for rating in PlayerRating.objects.filter(user_id__in=rows):
        rows[rating.user_id].rating = rating.rating
    return sorted(rows.values(), key=lambda r: (r.played == 0, -r.match_points, r.played,
                                                -(r.rating or 0.0),
                                                r.user.public_name.lower()))
