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
    SUIT_MASK,
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


TRICKS = 19


def _threat(led: str, rivals: Sequence[int], hands: Sequence[int]) -> int:
    """The cards the seats of `rivals` may play on a trick of the suit `led` (RULES §7, as
    `trick_legality` says, inlined: the playouts ask this for nearly every card)."""
    out = 0
    suit = SUIT_MASK[led]
    for s in rivals:
        hand = hands[s]
        out |= hand & suit or hand & TRUMP_MASK or hand
    return out


def informed_move(seat: int, legal: int, cards: Sequence[tuple[int, int]], led: str | None,
                  number: int, led_suits: str, hands: Sequence[int]) -> int:
    """The playouts' card: `policy_move` with the sampled deal's hands in view.

    Inside a playout every hand of the sampled deal is known, so whether a card will hold the
    trick is a fact rather than a guess: lead a card with points that no opponent can beat,
    take a trick with the cheapest card that keeps it, smear points on the partner's trick only
    when it holds, and never throw a winner that will be overtaken. A playout played so values
    a candidate card far closer to what good players would make of it than the blind rules of
    `policy_move` (issue #27 item 1: a better playout policy). `inference.py` keeps judging
    real plays by `policy_move`: a real player cannot see the other hands."""
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    narr = legal & NARR_BIT
    if narr and number >= 18:
        return NARR
    plain = legal & ~NARR_BIT
    n = len(cards)
    rivals = [(seat + k) % 4 for k in range(1, 4 - n) if k % 2 == 1]  # opponents after me
    if led is None:
        # A lead (or the card after a led Narr): the card with the most points that no
        # opponent can beat.
        best_card, best_points = -1, 1
        threats: dict[str, int] = {}
        unsafe = 0  # cards with points an opponent can beat: not to be led blindly either
        rest = plain
        while rest:
            low = rest & -rest
            c = low.bit_length() - 1
            rest ^= low
            p = POINTS_OF[c]
            if p > 1:
                suit = str(SUIT_OF[c])
                threat = threats.get(suit)
                if threat is None:
                    threat = threats[suit] = _threat(suit, rivals, hands)
                if threat & ABOVE[c]:
                    unsafe |= low
                elif p > best_points:
                    best_card, best_points = c, p
        if best_card >= 0:
            return best_card
        # The blind lead (a king of a suit not led yet, else a low plain card) among the cards
        # the sample does not show lost; after a led Narr the same, as this card sets the suit.
        left = legal & ~unsafe
        return policy_move(seat, left if left & ~NARR_BIT else legal, (), None, number,
                           led_suits)
    threat = _threat(led, rivals, hands)
    best = leader(cards, led)
    partner = (seat + 2) % 4
    if best is not None and best[0] == partner and not threat & ABOVE[best[1]]:
        return first(plain, SMEAR)  # the partner's trick is safe: give it points
    on_table = 0
    for _, c in cards:
        # Before the last trick the Narr goes back to its owner's team (RULES §9): the winner
        # gets one card of a point for it.
        on_table += 1 if c == NARR and number < TRICKS else POINTS_OF[c]
    winners = plain if best is None else plain & ABOVE[best[1]]
    keep = 0
    while winners:
        low = winners & -winners
        winners ^= low
        if not threat & ABOVE[low.bit_length() - 1]:
            keep |= low
    if keep:
        c = first(keep, TAKE)
        if on_table + POINTS_OF[c] >= n + 2 or not rivals:
            return c
    cheap = first(plain, CHEAP)
    if narr and POINTS_OF[cheap] >= 3 and (best is None or best[0] % 2 != seat % 2):
        return NARR
    return cheap
