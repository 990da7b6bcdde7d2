"""Reading an open trick: who wins it so far, what it carries, which cards would take it."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import NARR, POINTS_OF, STRENGTH_OF, SUIT_OF


def beats(card: int, best: int | None, led: str | None) -> bool:
    """Whether `card`, played now, would take the lead from `best` (RULES §7: the highest
    trump, else the highest card of the led suit; the Narr never wins)."""
    if card == NARR:
        return False
    if best is None:
        return True
    suit = SUIT_OF[card]
    best_suit = SUIT_OF[best]
    if suit == "T":
        return best_suit != "T" or STRENGTH_OF[card] > STRENGTH_OF[best]
    if best_suit == "T":
        return False
    return suit == led and STRENGTH_OF[card] > STRENGTH_OF[best]


def leader(cards: Sequence[tuple[int, int]], led: str | None) -> tuple[int, int] | None:
    """(seat, card) winning the trick so far, before any BUOB exchange; None if no card or
    only the Narr is on the table."""
    best: tuple[int, int] | None = None
    for s, c in cards:
        if c == NARR:
            continue
        if best is None or beats(c, best[1], led):
            best = (s, c)
    return best


def points_on(cards: Sequence[tuple[int, int]]) -> int:
    return sum(POINTS_OF[c] for _, c in cards)
