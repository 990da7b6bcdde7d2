"""Duplicate deals (issue #26 item 4): every table of a duplicate stage's round plays the same
decks, in order, with seat 0 dealing first (games/clubs/rounds.py draws the decks at pairing,
the writer deals them: games/models/tournaments.py `planned_deck`); so on each deck, every
table's Team A (seats 0 and 2) held the same cards, and every Team B too.

    deal_public(round, deal_number) -> bool       may deal `deal_number` be shown to anyone?
    comparison(round) -> [DealComparison, ...]    the public deals, deck by deck
    round_totals(round) -> {entrant: Total}       each entrant's matchpoints over them

**Matchpoints.** On one deck, a side's result is compared with the same side's result at
every other table (the same cards): 2 for each table it beat, 1 for each tie, 0 for each it
lost; the maximum is 2 × (tables − 1), and the percentage is matchpoints / maximum × 100 (50
when a round has one table: nothing to compare). The round's total per entrant adds an
entrant's matchpoints and maxima over the decks (with rotating partners, both players of a
side get the side's result), so the percentage is over every deck the entrant played.

**Secrecy.** A deal is public when every table of the round has finished it (its deal row
scored), or is finished itself, or the round is closed; until then nothing of it is shown
(`comparison` leaves it out). The other ways a match's cards leave the site are gated below
this layer on the same rows: the table's socket and JSON view refuse anyone without a seat
while the round is open (games/services/presence.py may_watch), the match page, replay and
transcript export are refused until the round is closed (games/history/access.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from games.models import Round, TableOutcome, TournamentRound, TournamentTable
from games.models.tournaments import deal_is_public

__all__ = ["DealComparison", "SideResult", "Total", "comparison", "deal_public", "matchpoints",
           "round_totals"]


@dataclass(frozen=True)
class SideResult:
    table: int  # the table's number
    side: str  # "A" (seats 0 and 2) or "B" (1 and 3)
    entrants: tuple[int, ...]  # a fixed pair's one entrant, or the two players of the side
    points: int  # the side's card points on this deck
    matchpoints: int
    maximum: int

    @property
    def percent(self) -> float:
        return 50.0 if self.maximum == 0 else 100.0 * self.matchpoints / self.maximum


@dataclass(frozen=True)
class DealComparison:
    deal: int  # 1-based
    deck: tuple[str, ...]  # the deck as dealt (public by now)
    results: tuple[SideResult, ...]  # by table, Team A then Team B


@dataclass(frozen=True)
class Total:
    entrant: int
    matchpoints: int
    maximum: int

    @property
    def percent(self) -> float:
        return 50.0 if self.maximum == 0 else 100.0 * self.matchpoints / self.maximum


def matchpoints(scores: Sequence[int]) -> list[int]:
    """Each score's matchpoints against the others: 2 per score it beats, 1 per tie."""
    return [sum(2 if mine > other else 1 if mine == other else 0
                for j, other in enumerate(scores) if j != i)
            for i, mine in enumerate(scores)]


def deal_public(tournament_round: TournamentRound, deal_number: int) -> bool:
    """Whether deal `deal_number` (1-based) of the round may be shown: every table of the
    round has finished that deal, or the round is closed."""
    return deal_is_public(tournament_round.pk, deal_number)


def _scores(tables: list[TournamentTable], deal: int) -> list[tuple[int, int] | None]:
    """Each table's (Team A, Team B) card points on deal `deal`; None: not played there."""
    rows = {room: (a or 0, b or 0) for room, a, b in Round.objects.filter(
        match__room_id__in=[t.room_id for t in tables if t.room_id is not None],
        number=deal, finished__isnull=False).values_list("match__room_id", "points_a",
                                                         "points_b")}
    out: list[tuple[int, int] | None] = []
    for table in tables:
        if table.outcome != TableOutcome.PENDING and len(table.deal_scores) >= deal:
            a, b = table.deal_scores[deal - 1]
            out.append((a, b))
        else:
            out.append(rows.get(table.room_id) if table.room_id is not None else None)
    return out


def _sides(table: TournamentTable, pairs: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    seats = table.seat_entrants
    if pairs:
        return (seats[0],), (seats[1],)
    return (seats[0], seats[2]), (seats[1], seats[3])


def comparison(tournament_round: TournamentRound) -> list[DealComparison]:
    """The round's comparison table, deck by deck, of the public deals alone (nothing for a
    round that is not a duplicate one)."""
    decks = tournament_round.decks or []
    if not decks:
        return []
    pairs = tournament_round.tournament.is_pairs
    tables = list(TournamentTable.objects.filter(round=tournament_round).order_by("number"))
    out: list[DealComparison] = []
    for deal in range(1, len(decks) + 1):
        if not deal_public(tournament_round, deal):
            continue
        scores = _scores(tables, deal)
        played = [(t, s) for t, s in zip(tables, scores, strict=True) if s is not None]
        mp_a = matchpoints([s[0] for _, s in played])
        mp_b = matchpoints([s[1] for _, s in played])
        maximum = 2 * (len(played) - 1)
        results: list[SideResult] = []
        for k, (table, (a, b)) in enumerate(played):
            side_a, side_b = _sides(table, pairs)
            results.append(SideResult(table.number, "A", side_a, a, mp_a[k], maximum))
            results.append(SideResult(table.number, "B", side_b, b, mp_b[k], maximum))
        out.append(DealComparison(deal, tuple(decks[deal - 1]), tuple(results)))
    return out


def round_totals(tournament_round: TournamentRound) -> dict[int, Total]:
    """Each entrant's matchpoints and maximum over the round's public decks."""
    got: defaultdict[int, int] = defaultdict(int)
    most: defaultdict[int, int] = defaultdict(int)
    for deal in comparison(tournament_round):
        for result in deal.results:
            for entrant in result.entrants:
                got[entrant] += result.matchpoints
                most[entrant] += result.maximum
    return {e: Total(e, got[e], most[e]) for e in sorted(most)}
