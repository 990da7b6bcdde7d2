"""Seat players that decide from one seat's view alone (issue #15).

The contract the table keeps to (games/services/bots.py):

    decide(view, events, *, level, seed, budget_ms=200.0) -> one engine action for that seat
    fallback(view) -> the lowest-value legal action
    LEVELS = ("easy", "strong")

`view` is `games.engine.view(state, seat)`, `events` the seat's events of the current deal
(`games.engine.events_for`). Neither ever holds a card the seat may not see, so nothing here
can peek. This module is the table's minimal player: both levels play the lowest-value legal
action, which is always legal and never stalls a table; the searching players replace it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.cards import INDEX, points

LEVELS = ("easy", "strong")


def _cheapest(cards: Sequence[str], n: int) -> list[str]:
    """The n cards of lowest point value (ties: lowest canonical index), as RULES §12's timer
    chooses them."""
    return sorted(cards, key=lambda c: (points(INDEX[c]), INDEX[c]))[:n]


def fallback(view: dict[str, Any]) -> dict[str, Any]:
    """The lowest-value legal action of the seat: deal the next pass, Scart the two cheapest
    allowed cards, play the cheapest legal card, or start the next deal. ValueError if the
    seat has nothing to do."""
    seat = view["seat"]
    actions = view["actions"]
    if actions["deal"]:
        return {"type": "deal_next_pass", "seat": seat}
    if actions["scart"]:
        return {"type": "discard_scart", "seat": seat,
                "cards": _cheapest(actions["scart_allowed"], 2)}
    if actions["play"]:
        return {"type": "play_card", "seat": seat,
                "card": _cheapest(actions["legal_cards"], 1)[0]}
    if actions["regame"]:
        return {"type": "regame", "seat": seat}
    raise ValueError("the seat has nothing to do")


def decide(view: dict[str, Any], events: Sequence[dict[str, Any]], *, level: str, seed: int,
           budget_ms: float = 200.0) -> dict[str, Any]:
    """The seat's action at `level`. ValueError for a level not in LEVELS."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    return fallback(view)
