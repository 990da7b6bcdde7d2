"""A tournament's results (issue #26 item 7): its standings, each round's tables, who may win
a prize.

    standings_of(tournament, through_round=None) -> [ranking.Standing, ...]
    standing_rows(tournament, through_round=None) -> [Row, ...]   (the same, with names)
    round_results(round) -> [TableResult, ...]
    prize_eligible(entrant) -> bool

The standings are ranking.py's, read from the rows: every finished TournamentTable (outcome
not pending) is a Partie between team A (seats 0 and 2) and team B (seats 1 and 3): with fixed
pairs a side is one entrant, with rotating partners each player is an entrant of their own.
A bye (or a sit-out) scores the tournament's `bye_match_points` / `bye_card_points`; a
director's ResultAdjustment is added to the entrant's totals (as a bye is: no Partie, so no
opponent for the Buchholz). The tournament's tiebreak option picks ranking's order. Entrants
on the waiting list are not in the standings; those who withdrew stay with what they scored.
Nothing here reads a deck or a hand: only totals and the public per-deal scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import ngettext

from accounts.models import User
from games.clubs.ranking import DRAW, LOSS, WIN, Bye, Partie, Standing, standings
from games.models import (
    Entrant,
    EntrantStatus,
    Match,
    ResultAdjustment,
    TableOutcome,
    Tiebreak,
    Tournament,
    TournamentBye,
    TournamentRound,
    TournamentTable,
)

__all__ = ["Row", "TableResult", "entrant_names", "prize_eligible", "round_results",
           "side_entrants", "standing_rows", "standings_of", "won_sentence"]

TEAM_A_SEATS = (0, 2)
TEAM_B_SEATS = (1, 3)


def side_entrants(table: TournamentTable, seats: tuple[int, int]) -> tuple[int, ...]:
    """The entrants of a side of a table: one (a fixed pair holds both seats) or two."""
    entrants = table.seat_entrants or []
    return tuple(dict.fromkeys(int(entrants[s]) for s in seats if s < len(entrants)))


def match_points(mine: int, theirs: int) -> int:
    return WIN if mine > theirs else DRAW if mine == theirs else LOSS


def _finished_tables(tournament: Tournament, through_round: int | None
                     ) -> list[TournamentTable]:
    qs = TournamentTable.objects.filter(round__tournament=tournament).exclude(
        outcome=TableOutcome.PENDING)
    if through_round is not None:
        qs = qs.filter(round__number__lte=through_round)
    return list(qs.order_by("round__number", "number"))


def _parties(tables: list[TournamentTable]) -> list[Partie]:
    return [Partie(side_entrants(t, TEAM_A_SEATS), side_entrants(t, TEAM_B_SEATS),
                   t.card_points_a or 0, t.card_points_b or 0) for t in tables]


def _byes(tournament: Tournament, through_round: int | None) -> list[Bye]:
    qs = TournamentBye.objects.filter(round__tournament=tournament)
    if through_round is not None:
        qs = qs.filter(round__number__lte=through_round)
    byes = [Bye(e, tournament.bye_match_points, tournament.bye_card_points)
            for e in qs.values_list("entrant_id", flat=True)]
    # An adjustment has no round: it counts in every view of the standings.
    byes += [Bye(e, m, c) for e, m, c in ResultAdjustment.objects.filter(
        tournament=tournament).values_list("entrant_id", "match_points", "card_points")]
    return byes


def _entrant_ids(tournament: Tournament) -> list[int]:
    return list(Entrant.objects.filter(tournament=tournament).exclude(
        status=EntrantStatus.WAITING).values_list("pk", flat=True))


def standings_of(tournament: Tournament, through_round: int | None = None) -> list[Standing]:
    """The tournament's standings after round `through_round` (None: everything so far)."""
    return standings(_entrant_ids(tournament), _parties(_finished_tables(tournament,
                                                                         through_round)),
                     _byes(tournament, through_round),
                     card_points_first=tournament.tiebreak == Tiebreak.CARD_POINTS_FIRST)


def entrant_names(tournament: Tournament) -> dict[int, str]:
    """Each entrant's name as the results show it: a player, or "A & B" for a fixed pair."""
    return {e.pk: str(e) for e in Entrant.objects.filter(tournament=tournament)
            .select_related("player", "partner")}


def won_sentence(won: int, played: int) -> str:
    """"11 of 14 Partien won", in the active language."""
    return ngettext("%(won)d of %(played)d Partie won", "%(won)d of %(played)d Parties won",
                    played) % {"won": won, "played": played}


@dataclass(frozen=True)
class Row:
    """A line of the Rangliste."""
    rank: int
    entrant: int
    name: str
    match_points: int
    card_points: int
    buchholz: int
    parties: int
    won: int
    prize_eligible: bool
    withdrawn: bool

    @property
    def won_text(self) -> str:
        return won_sentence(self.won, self.parties)

    def json(self) -> dict[str, Any]:
        return {"rank": self.rank, "entrant": self.entrant, "name": self.name,
                "match_points": self.match_points, "card_points": self.card_points,
                "buchholz": self.buchholz, "parties": self.parties, "won": self.won,
                "won_text": self.won_text, "prize_eligible": self.prize_eligible,
                "withdrawn": self.withdrawn}


def _bot_entrants(tables: list[TournamentTable]) -> set[int]:
    out: set[int] = set()
    for t in tables:
        for seat in t.bot_seats or []:
            if 0 <= seat < len(t.seat_entrants or []):
                out.add(int(t.seat_entrants[seat]))
    return out


def standing_rows(tournament: Tournament, through_round: int | None = None) -> list[Row]:
    """The standings with each entrant's name, Parties won and prize eligibility."""
    tables = _finished_tables(tournament, through_round)
    won: dict[int, int] = {}
    for t in tables:
        a, b = t.card_points_a or 0, t.card_points_b or 0
        for side in (side_entrants(t, TEAM_A_SEATS) if a > b else
                     side_entrants(t, TEAM_B_SEATS) if b > a else ()):
            won[side] = won.get(side, 0) + 1
    names = entrant_names(tournament)
    withdrawn = set(Entrant.objects.filter(tournament=tournament,
                                           status=EntrantStatus.WITHDRAWN)
                    .values_list("pk", flat=True))
    # A bot at any table of the tournament (finished or not) bars the entrant from prizes.
    bots = _bot_entrants(list(TournamentTable.objects.filter(round__tournament=tournament)))
    return [Row(s.rank, s.entrant, names.get(s.entrant, "?"), s.match_points, s.card_points,
                s.buchholz, s.parties, won.get(s.entrant, 0), s.entrant not in bots,
                s.entrant in withdrawn)
            for s in standings_of(tournament, through_round)]


def prize_eligible(entrant: Entrant) -> bool:
    """False when a bot played for the entrant at any table (a stand-in or a substitute)."""
    return entrant.pk not in _bot_entrants(list(TournamentTable.objects.filter(
        round__tournament_id=entrant.tournament_id)))


@dataclass(frozen=True)
class SeatResult:
    seat: int
    team: str
    player_id: int | None
    name: str
    entrant: int | None
    bot: bool


@dataclass(frozen=True)
class TableResult:
    number: int
    room_code: str | None
    match_id: int | None
    seats: list[SeatResult]
    outcome: str
    outcome_label: str
    card_points_a: int | None
    card_points_b: int | None
    match_points_a: int | None
    match_points_b: int | None
    deals: int

    @property
    def finished(self) -> bool:
        return self.outcome != TableOutcome.PENDING

    def team(self, team: str) -> list[SeatResult]:
        return [s for s in self.seats if s.team == team]

    @property
    def team_a(self) -> list[SeatResult]:
        return self.team("A")

    @property
    def team_b(self) -> list[SeatResult]:
        return self.team("B")

    def json(self) -> dict[str, Any]:
        return {"table": self.number, "room": self.room_code, "outcome": self.outcome,
                "seats": [{"seat": s.seat, "team": s.team, "player": s.player_id,
                           "name": s.name, "entrant": s.entrant, "bot": s.bot}
                          for s in self.seats],
                "card_points": [self.card_points_a, self.card_points_b],
                "match_points": [self.match_points_a, self.match_points_b],
                "deals": self.deals}


def round_results(rnd: TournamentRound) -> list[TableResult]:
    """Each table of the round: its players by seat (a bot's seat flagged), the outcome, the
    card and match points once it finished. Public information only."""
    tables = list(rnd.tables.select_related("room").order_by("number"))
    # The room's (one) match of the Partie: its page holds the replay.
    matches = dict(Match.objects.filter(room_id__in=[t.room_id for t in tables if t.room_id])
                   .order_by("pk").values_list("room_id", "pk"))
    ids = {int(p) for t in tables for p in (t.seat_players or []) if p is not None}
    names = {u.pk: str(u.public_name) for u in User.objects.filter(pk__in=ids)}
    out = []
    for t in tables:
        players = t.seat_players or []
        entrants = t.seat_entrants or []
        seats = [SeatResult(i, "A" if i in TEAM_A_SEATS else "B",
                            int(players[i]) if i < len(players) else None,
                            names.get(int(players[i]), "?") if i < len(players) else "?",
                            int(entrants[i]) if i < len(entrants) else None,
                            i in (t.bot_seats or []))
                 for i in range(4)]
        done = t.outcome != TableOutcome.PENDING
        a, b = t.card_points_a or 0, t.card_points_b or 0
        match_id = matches.get(t.room_id) if t.room_id else None
        out.append(TableResult(
            t.number, t.room.code if t.room is not None else None, match_id, seats, t.outcome,
            str(TableOutcome(t.outcome).label), t.card_points_a if done else None,
            t.card_points_b if done else None, match_points(a, b) if done else None,
            match_points(b, a) if done else None, len(t.deal_scores or [])))
    return out
