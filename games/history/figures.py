"""Who did what (issue #24 item 15): each player's figures over a match, from the stored tricks
alone — tricks won, the card points in them, BUOB calls made and won, the Narr played.

Everything here was public when it happened: a completed trick lies open on the table, and a
BUOB call is announced. The Scart (which the dealer's team scores) and the hands are not read,
so the figures can be shown for a match still running as well as for a finished one. The card
points are the raw points of the cards in the tricks a player took (RULES.md §4: K 5, Q 4, N 3,
J 2, other cards 1, T1, T21 and the Narr 5), before the deal's scoring turns them into points.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.engine.cards import INDEX, POINTS_OF
from games.engine.state import team_of

__all__ = ["PlayerFigures", "player_figures"]


@dataclass
class PlayerFigures:
    seat: int
    name: str
    team: str
    tricks: int = 0
    card_points: int = 0
    buob_made: int = 0
    buob_won: int = 0
    narr_played: int = 0


def _points(cards: Iterable[dict[str, Any]]) -> int:
    return sum(POINTS_OF[INDEX[c["card"]]] for c in cards if c.get("card") in INDEX)


def player_figures(names: list[str], tricks: Iterable[Any]) -> list[PlayerFigures]:
    """The four seats' figures from a match's Trick rows (any order); an open trick counts only
    for the Narr played in it (its winner is not known yet)."""
    out = [PlayerFigures(seat=i, name=name, team=str(team_of(i))) for i, name in enumerate(names)]
    for trick in tricks:
        played = [c for c in (trick.cards or []) if isinstance(c, dict)]
        for c in played:
            if c.get("card") == "NARR" and 0 <= c.get("seat", -1) < len(out):
                out[c["seat"]].narr_played += 1
        if trick.winner is None:
            continue
        winner = out[trick.winner]
        winner.tricks += 1
        winner.card_points += _points(played)
        call = trick.buob_call
        if call:
            caller = out[call["caller"]]
            caller.buob_made += 1
            if trick.winner % 2 == call["caller"] % 2:
                caller.buob_won += 1
    return out
