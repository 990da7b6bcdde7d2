"""The one place where a bot plays a hypothetical deal to its end.

Both playouts take a full-information MatchState in the PLAY phase (a sampled deal) and return
the deal's points (team A, team B):

* `informed_playout(state, rng)` — what the strong bot uses: every seat plays by the informed
  policy of rollout.py (the sampled deal's hands in view: which card holds a trick is known),
  and with probability EXPLORE a random legal card instead, so that the samples do not all
  follow one line.
* `policy_playout(state, rng)` — the same with the blind policy (what a seat could know), the
  strong bot's until issue #27; it measured stronger than random cards at the same budget.
* `random_playout(state, rng)` — every seat plays `rng.choice` of its legal cards in canonical
  order.

Each runs on the engine's mutable fast path (`games.engine.fast`, proven equal to `apply` by
the engine's tests). `reference_playout` plays the same choices through the public `apply`,
about four times slower: tests/bots/test_playouts.py holds the two equal.
"""

from __future__ import annotations

import random

from games.engine import PLAY, MatchState, apply, fast, legal_cards
from games.engine.cards import CARD_IDS, INDEX, NARR, SUIT_OF, cards_of, mask_of
from games.engine.rules import trick_legality
from games.engine.state import TRICKS_PER_DEAL

from .rollout import informed_move, policy_card, policy_move

EXPLORE = 0.1


def reference_playout(state: MatchState, rng: random.Random, explore: float,
                      informed: bool = False) -> tuple[int, int]:
    """The playout of `explore` (1.0: random cards) through `apply`, for the tests."""
    while state.phase is PLAY:
        deal = state.deal
        assert deal is not None and deal.turn is not None and deal.current is not None
        seat = deal.turn
        # legal_cards lists the ids in canonical order: the same choice as over sorted ints.
        legal = legal_cards(state, seat)
        if explore >= 1.0 or rng.random() < explore:
            card = rng.choice(legal)
        else:
            t = deal.current
            if informed:
                card = CARD_IDS[informed_move(seat, mask_of([INDEX[c] for c in legal]),
                                              t.cards, t.led, t.number, deal.led_suits,
                                              deal.hands)]
            else:
                card = CARD_IDS[policy_card(seat, [INDEX[c] for c in legal], t.cards, t.led,
                                            t.number, deal.led_suits)]
        state, _ = apply(state, {"type": "play_card", "seat": seat, "card": card})
    assert state.deal is not None and state.deal.points is not None
    return state.deal.points


def _fast_playout(state: MatchState, rng: random.Random, explore: float, informed: bool
                  ) -> tuple[int, int]:
    assert state.deal is not None
    fd = fast.FastDeal.from_state(state)
    led_suits = state.deal.led_suits
    hands = fd.hands
    draw = rng.random
    # FastDeal.play without its checks, on locals: the card comes from the legal mask, which
    # is the engine's own rule (trick_legality), asked once per card instead of twice.
    while fd.number <= TRICKS_PER_DEAL:
        seat = fd.turn
        hand = hands[seat]
        led = fd.led
        legal = trick_legality(hand, led, fd.buob, seat)[0]
        if draw() < explore:
            card = rng.choice(cards_of(legal))
        elif informed:
            card = informed_move(seat, legal, fd.cards, led, fd.number, led_suits, hands)
        else:
            card = policy_move(seat, legal, fd.cards, led, fd.number, led_suits)
        hands[seat] = hand & ~(1 << card)
        if led is None and card != NARR:
            fd.led = led = SUIT_OF[card]
        cards = fd.cards
        cards.append((seat, card))
        if len(cards) < 4:
            fd.turn = (seat + 1) % 4
        else:
            fd._complete_trick()
            if led is not None and led not in led_suits:
                led_suits += led
    points: tuple[int, int] = fd.points()
    return points


def informed_playout(state: MatchState, rng: random.Random) -> tuple[int, int]:
    return _fast_playout(state, rng, EXPLORE, True)


def policy_playout(state: MatchState, rng: random.Random) -> tuple[int, int]:
    return _fast_playout(state, rng, EXPLORE, False)


def random_playout(state: MatchState, rng: random.Random) -> tuple[int, int]:
    return fast.playout(state, rng)


playout = informed_playout
