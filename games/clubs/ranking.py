"""A tournament's standings from its results (issue #26 item 3).

    standings(entrants, parties, byes=..., card_points_first=False) -> [Standing, ...]

A `Partie` is one round's match between two sides: a side is one entrant (a fixed pair, or a
player in a 1 v 1) or, with rotating partners, the two players of a team, each of them an
entrant of the standings. The side with more card points over the Partie wins: 2 match points
to each of its entrants, a draw 1, a loss 0. A `Bye` (or a sit-out) scores what the
tournament's rules page says, given here as its match and card points.

Order: match points, then card points, then Buchholz (the sum, over an entrant's Parties, of
each opponent's match points: both opponents with rotating partners; a bye adds nothing); the
director's option "card points first" swaps the first two. Entrants equal on all three share a
rank number (1, 2, 2, 4) and are listed by entrant id, so the order is stable.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

WIN, DRAW, LOSS = 2, 1, 0


@dataclass(frozen=True)
class Partie:
    side_a: tuple[int, ...]
    side_b: tuple[int, ...]
    card_points_a: int
    card_points_b: int


@dataclass(frozen=True)
class Bye:
    entrant: int
    match_points: int
    card_points: int


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant: int
    match_points: int
    card_points: int
    buchholz: int
    parties: int  # Parties played (byes not counted)


def standings(entrants: Iterable[int], parties: Iterable[Partie], byes: Iterable[Bye] = (), *,
              card_points_first: bool = False) -> list[Standing]:
    """Every entrant (those without a result too) in rank order."""
    match: defaultdict[int, int] = defaultdict(int)
    cards: defaultdict[int, int] = defaultdict(int)
    played: defaultdict[int, int] = defaultdict(int)
    opponents: defaultdict[int, list[int]] = defaultdict(list)
    everyone = set(entrants)
    for partie in parties:
        a, b = partie.card_points_a, partie.card_points_b
        for side, other, mine, theirs in ((partie.side_a, partie.side_b, a, b),
                                          (partie.side_b, partie.side_a, b, a)):
            points = WIN if mine > theirs else DRAW if mine == theirs else LOSS
            for entrant in side:
                everyone.add(entrant)
                match[entrant] += points
                cards[entrant] += mine
                played[entrant] += 1
                opponents[entrant].extend(other)
    for bye in byes:
        everyone.add(bye.entrant)
        match[bye.entrant] += bye.match_points
        cards[bye.entrant] += bye.card_points
    # Buchholz reads the opponents' final match points, byes included.
    buchholz = {e: sum(match[o] for o in opponents[e]) for e in everyone}

    def key(entrant: int) -> tuple[int, int, int]:
        first, second = ((cards[entrant], match[entrant]) if card_points_first
                         else (match[entrant], cards[entrant]))
        return (-first, -second, -buchholz[entrant])

    table: list[Standing] = []
    for position, entrant in enumerate(sorted(everyone, key=lambda e: (key(e), e)), start=1):
        rank = table[-1].rank if table and key(table[-1].entrant) == key(entrant) else position
        table.append(Standing(rank, entrant, match[entrant], cards[entrant], buchholz[entrant],
                              played[entrant]))
    return table
