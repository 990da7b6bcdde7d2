"""The playout policy of the strong bot: the easy bot's rules of thumb, on a hypothetical table.

In a sampled deal every hand is known, yet each seat plays by its own legal cards and the trick
alone (a playout should look like real play, not like open cards): lead an unled king, else a
low plain card; smear points onto a trick the partner wins as the last to play or with a high
trump; take a trick that carries points with the cheapest card that takes it; else give the
cheapest card, the Narr instead of a valuable one. A playout played so tells far more than one
of random cards, at about the same cost (the cost is the engine's, not the policy's).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import KING_SUIT, NARR, POINTS_OF, STRENGTH_OF, SUIT_OF

from .trick import beats, leader


def _cheap(c: int) -> tuple[int, int, int]:
    return (POINTS_OF[c], 1 if SUIT_OF[c] == "T" else 0, STRENGTH_OF[c])


def policy_card(seat: int, legal: Sequence[int], cards: Sequence[tuple[int, int]],
                led: str | None, number: int, led_suits: str) -> int:
    """The card the policy plays for `seat` from its `legal` cards, on the open trick
    (`cards`, `led`, trick `number`), `led_suits` being the suits led in completed tricks."""
    if len(legal) == 1:
        return legal[0]
    if NARR in legal and number >= 18:
        return NARR  # the Narr is captured in the last trick
    plain = [c for c in legal if c != NARR]
    if not cards:
        for c in plain:
            suit = KING_SUIT.get(c)
            if suit is not None and suit not in led_suits:
                return c
        non_trump = [c for c in plain if SUIT_OF[c] != "T"]
        return min(non_trump or plain, key=_cheap)
    best = leader(cards, led)
    last = len(cards) == 3
    if best is not None and best[0] == (seat + 2) % 4 and (
            last or (SUIT_OF[best[1]] == "T" and STRENGTH_OF[best[1]] >= 19)):
        return max(plain, key=lambda c: (POINTS_OF[c], -STRENGTH_OF[c]))
    theirs = best is None or best[0] % 2 != seat % 2
    if theirs:
        on_table = sum(POINTS_OF[c] for _, c in cards)
        if last or on_table >= len(cards) + 2:
            winners = [c for c in plain if best is None or beats(c, best[1], led)]
            if winners:
                return min(winners, key=lambda c: (POINTS_OF[c], STRENGTH_OF[c]))
    cheap = min(plain, key=_cheap)
    if NARR in legal and POINTS_OF[cheap] >= 3 and theirs:
        return NARR
    return cheap
