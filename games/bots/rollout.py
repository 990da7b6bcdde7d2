"""The playout policy of the strong bot: the easy bot's rules of thumb, on a hypothetical table.

In a sampled deal every hand is known, yet each seat plays by its own legal cards and the trick
alone (a playout should look like real play, not like open cards): lead an unled king, else a
low plain card; smear points onto a trick the partner wins as the last to play or with a high
trump; take a trick that carries points with the cheapest card that takes it; else give the
cheapest card, the Narr instead of a valuable one. A playout played so tells far more than one
of random cards, at about the same cost (the cost is the engine's, not the policy's).

The policy reads the legal cards as a bitmask and ranks them through tables built once: every
playout asks it about 35 times, and a list of the legal cards, sorted with a key function,
cost more than the rest of the playout (issue #27 item 2). Each "the cheapest" or "the most
valuable" below is the first card of a fixed order, ties broken by the canonical index.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import (
    KING_SUIT,
    NARR,
    NARR_BIT,
    NUM_CARDS,
    POINTS_OF,
    STRENGTH_OF,
    SUIT_OF,
    TRUMP_MASK,
    mask_of,
)

from .trick import leader


def _ranks(key: object) -> tuple[int, ...]:
    """Each card's position in the order of `key` (a function of the card), index breaking ties."""
    order = sorted(range(NUM_CARDS), key=lambda c: (key(c), c))  # type: ignore[operator]
    rank = [0] * NUM_CARDS
    for position, c in enumerate(order):
        rank[c] = position
    return tuple(rank)


# The cheapest card to give: fewest points, a plain card before a trump, the weakest.
CHEAP = _ranks(lambda c: (POINTS_OF[c], 1 if SUIT_OF[c] == "T" else 0, STRENGTH_OF[c]))
# The cheapest card that takes a trick: fewest points, the weakest.
TAKE = _ranks(lambda c: (POINTS_OF[c], STRENGTH_OF[c]))
# The card to smear onto the partner's trick: the most points, the weakest of them.
SMEAR = _ranks(lambda c: (-POINTS_OF[c], STRENGTH_OF[c]))
# The cards that take the lead from card c, c being the best of a trick so far (a trump, or a
# card of the led suit): a higher trump; for a suit card also a higher card of its suit.
ABOVE = tuple(
    0 if c == NARR else
    sum(1 << x for x in range(NUM_CARDS)
        if SUIT_OF[x] == SUIT_OF[c] and STRENGTH_OF[x] > STRENGTH_OF[c])
    | (0 if SUIT_OF[c] == "T" else TRUMP_MASK)
    for c in range(NUM_CARDS)
)
_KINGS = tuple(sorted(KING_SUIT.items()))  # (king, suit) in canonical order


def first(mask: int, rank: Sequence[int]) -> int:
    """The card of `mask` (non-empty) that comes first in the order `rank`."""
    best = -1
    best_rank = NUM_CARDS
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        r = rank[c]
        if r < best_rank:
            best_rank, best = r, c
        mask ^= low
    return best


def policy_move(seat: int, legal: int, cards: Sequence[tuple[int, int]], led: str | None,
                number: int, led_suits: str) -> int:
    """The card the policy plays for `seat` from its `legal` cards (a bitmask), on the open
    trick (`cards`, `led`, trick `number`), `led_suits` being the suits led in completed
    tricks."""
    if not legal & (legal - 1):
        return legal.bit_length() - 1  # a single legal card
    narr = legal & NARR_BIT
    if narr and number >= 18:
        return NARR  # the Narr is captured in the last trick
    plain = legal & ~NARR_BIT
    if not cards:
        for king, suit in _KINGS:
            if plain >> king & 1 and suit not in led_suits:
                return king
        return first(plain & ~TRUMP_MASK or plain, CHEAP)
    best = leader(cards, led)
    last = len(cards) == 3
    if best is not None and best[0] == (seat + 2) % 4 and (
            last or (SUIT_OF[best[1]] == "T" and STRENGTH_OF[best[1]] >= 19)):
        return first(plain, SMEAR)
    theirs = best is None or best[0] % 2 != seat % 2
    if theirs:
        on_table = 0
        for _, c in cards:
            on_table += POINTS_OF[c]
        if last or on_table >= len(cards) + 2:
            winners = plain if best is None else plain & ABOVE[best[1]]
            if winners:
                return first(winners, TAKE)
    cheap = first(plain, CHEAP)
    if narr and POINTS_OF[cheap] >= 3 and theirs:
        return NARR
    return cheap


def policy_card(seat: int, legal: Sequence[int], cards: Sequence[tuple[int, int]],
                led: str | None, number: int, led_suits: str) -> int:
    """`policy_move` for the legal cards as a list of ints."""
    return policy_move(seat, mask_of(list(legal)), cards, led, number, led_suits)
