"""The easy bot: the rules of thumb of a sensible Troccas player, no search.

* Leading: an unled king while no opponent has shown a void in its suit (it should take the
  trick), T21 with a long trump hand (it cannot lose and pulls trumps), otherwise a low card of
  the longest plain suit, keeping trumps for control.
* Following: smear points onto a trick the partner is sure to win; take a trick that carries
  points with the cheapest card that takes it; otherwise give the cheapest card, plain before
  trump. The Narr saves a valuable card on a lost trick, and leaves the hand before trick 19,
  where it would be captured.
* BUOB (calls.py): call when a king is on the table, the caller's team is winning the trick
  (never for a jack in its own hand) and the jack is likely in a hand it can be fetched from;
  attach a call to its own king when the king should take the trick, on the same condition.
* Scart: points it secures for its team (a discarded queen counts for the dealer's side) and
  voids it makes in short plain suits; trumps and kings stay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.cards import (
    ALL_MASK,
    INDEX,
    KING_SUIT,
    NARR,
    POINTS_OF,
    STRENGTH_OF,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    TRUMP_MASK,
    cards_of,
)

from . import actions, calls
from .knowledge import Knowledge, build
from .rollout import ABOVE
from .trick import beats, leader, points_on

LAST_TRICK = 19


def cheap_key(c: int) -> tuple[int, int, int]:
    # Lowest points first, plain cards before trumps (trumps are control), weakest first.
    return (POINTS_OF[c], 1 if SUIT_OF[c] == "T" else 0, STRENGTH_OF[c])


def cheapest_card(cards: Sequence[int]) -> int:
    plain = [c for c in cards if c != NARR] or list(cards)
    return min(plain, key=cheap_key)


def _partner(seat: int) -> int:
    return (seat + 2) % 4


def _after_me(trick_cards: Sequence[tuple[int, int]], seat: int) -> list[int]:
    """Seats still to play in this trick after `seat`."""
    return [(seat + k) % 4 for k in range(1, 4 - len(trick_cards))]


def _secure(know: Knowledge, best: tuple[int, int], led: str | None, rest: list[int]) -> bool:
    """Whether the card winning now should hold against the opponents still to play, by the
    cards still out (counted: every card neither played nor in this hand may lie with them)."""
    opponents = [s for s in rest if s % 2 != know.seat % 2]
    if not opponents:
        return True
    card = best[1]
    out = ALL_MASK & ~know.seen
    if SUIT_OF[card] == "T":
        return not out & ABOVE[card]  # no higher trump left out
    led = led or SUIT_OF[card]  # after a led Narr, this card sets the suit
    higher = out & ABOVE[card] & ~TRUMP_MASK  # higher cards of its suit
    # With no card of the suit left out, every opponent is void in it.
    none_out = not out & SUIT_MASK[str(led)]
    for s in opponents:
        if none_out or led in know.voids[s]:
            if "T" not in know.voids[s] and out & TRUMP_MASK:
                return False  # void in the suit: it may trump
        elif higher:
            return False
    return True


def choose_card(know: Knowledge, legal: list[int]) -> int:
    trick = know.trick
    assert trick is not None
    if len(legal) == 1:
        return legal[0]
    seat = know.seat
    hand = cards_of(know.hand)
    # The Narr would be captured in the last trick: play it before then.
    if NARR in legal and trick.number >= LAST_TRICK - 1:
        return NARR
    if not trick.cards:
        return _lead(know, legal, hand)
    led = trick.led
    best = leader(trick.cards, led)
    rest = _after_me(trick.cards, seat)
    non_narr = [c for c in legal if c != NARR]
    if best is not None and best[0] == _partner(seat) and _secure(know, best, led, rest):
        smear = [c for c in non_narr if not (c == INDEX["T21"] and trick.number < 15)]
        return max(smear or non_narr, key=lambda c: (POINTS_OF[c], -STRENGTH_OF[c]))
    winners = [c for c in non_narr if best is None or beats(c, best[1], led)]
    on_table = points_on(trick.cards)
    worth = on_table >= len(trick.cards) + 2 or not rest
    if best is not None and best[0] == _partner(seat) and worth and rest:
        # The partner leads a trick worth having but could be overtaken: make it sure, when a
        # card that cannot be beaten is at hand.
        safe = [c for c in winners if _secure(know, (seat, c), led, rest)]
        if safe:
            return min(safe, key=lambda c: (POINTS_OF[c], STRENGTH_OF[c]))
    if winners and (best is None or best[0] % 2 != seat % 2) and worth:
        safe = [c for c in winners if _secure(know, (seat, c), led, rest)]
        return min(safe or winners, key=lambda c: (POINTS_OF[c], STRENGTH_OF[c]))
    cheap = cheapest_card(non_narr) if non_narr else NARR
    if NARR in legal and (best is None or best[0] % 2 != seat % 2) and POINTS_OF[cheap] >= 3:
        return NARR
    return cheap


def _lead(know: Knowledge, legal: list[int], hand: list[int]) -> int:
    opponents = [s for s in range(4) if s % 2 != know.seat % 2]
    for c in legal:
        suit = KING_SUIT.get(c)
        if suit is None or suit in know.led_suits:
            continue
        if not any(suit in know.voids[s] for s in opponents):
            return c
    trumps = [c for c in legal if SUIT_OF[c] == "T"]
    t21 = INDEX["T21"]
    if t21 in legal and len(trumps) >= 7:
        return t21
    plain = [c for c in legal if SUIT_OF[c] in SUITS]
    if plain:
        length = {s: sum(1 for c in hand if SUIT_OF[c] == s) for s in SUITS}
        longest = max((SUIT_OF[c] for c in plain), key=lambda s: (length[str(s)], str(s)))
        return min((c for c in plain if SUIT_OF[c] == longest), key=cheap_key)
    return cheapest_card(legal)


def scart_order(allowed: list[int], hand: list[int]) -> list[int]:
    """The allowed cards, the best to discard first: points (they score for the dealer's team
    in the scart), cards of a short suit (discarding them makes the hand void there) before
    others, trumps and kings last (they are worth more in the hand)."""
    length = {s: sum(1 for c in hand if SUIT_OF[c] == s) for s in SUITS}

    def gain(c: int) -> tuple[int, int]:
        suit = SUIT_OF[c]
        if suit == "T" or c in KING_SUIT:
            return (-10 + POINTS_OF[c], -c)
        bonus = 4 if suit is not None and length[suit] <= 2 else 0
        return (2 * POINTS_OF[c] + bonus, -c)

    return sorted(allowed, key=gain, reverse=True)


def choose_scart(allowed: list[int], hand: list[int]) -> list[int]:
    """The two discards: a short suit whole when one can go (one or two cards, all of them
    allowed; with one, the best other card beside it), so that the dealer is void in it and
    may trump it from trick 1 — of several, the pair with the most points, which score for
    the dealer's team in the scart; else the two first of `scart_order`. (Measured against the
    rule of thumb alone, bench/bot_arena.py `--a easy --b baseline_easy`: +0.26 ± 0.05 points
    per deal over 2,000 deck pairs, on two seeds; issue #27 item 4.)"""
    ranked = scart_order(allowed, hand)
    pairs: list[tuple[int, list[int]]] = []
    for suit in SUITS:
        cards = [c for c in hand if SUIT_OF[c] == suit]
        if 1 <= len(cards) <= 2 and all(c in allowed for c in cards):
            pick = cards if len(cards) == 2 else [cards[0], next(c for c in ranked
                                                                 if c != cards[0])]
            pairs.append((sum(POINTS_OF[c] for c in pick), pick))
    if pairs:
        return sorted(max(pairs, key=lambda p: (p[0], sorted(p[1])))[1])
    return sorted(ranked[:2])


def decide(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
           seed: int) -> dict[str, Any]:
    seat = view["seat"]
    acts = view["actions"]
    if acts["scart"] and len(acts["scart_allowed"]) >= 2:
        allowed = [INDEX[c] for c in acts["scart_allowed"]]
        return actions.scart(seat, choose_scart(allowed, [INDEX[c] for c in view["hand"]]))
    if view["phase"] == "PLAY" and seat is not None and view["trick"] is not None:
        know = build(view, events)
        estimate = calls.instant(know)
        suit = calls.choose_call(view, know, estimate)
        if suit is not None:
            return actions.call(seat, suit)
        if acts["play"]:
            legal = [INDEX[c] for c in acts["legal_cards"]]
            card = choose_card(know, legal)
            return actions.play(seat, card, calls.attached_call(know, card, estimate))
    return actions.fallback(view, seed)
