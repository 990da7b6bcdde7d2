"""The one place where a bot plays a hypothetical deal to its end.

Both playouts take a full-information MatchState in the PLAY phase (a sampled deal) and return
the deal's points (team A, team B):

* `policy_playout(state, rng)` — what the strong bot uses: every seat plays by the policy of
  rollout.py, and with probability EXPLORE a random legal card instead, so that the samples do
  not all follow one line. It measured stronger than random cards at the same budget.
* `random_playout(state, rng)` — every seat plays `rng.choice` of its legal cards in canonical
  order.

Each runs on the engine's mutable fast path (`games.engine.fast`, proven equal to `apply` by
the engine's tests). `reference_playout` plays the same choices through the public `apply`,
about four times slower: tests/bots/test_playouts.py holds the two equal.
"""

from __future__ import annotations

import random

from games.engine import PLAY, MatchState, apply, fast, legal_cards
from games.engine.cards import CARD_IDS, INDEX

from .rollout import policy_card

EXPLORE = 0.1


def reference_playout(state: MatchState, rng: random.Random, explore: float
                      ) -> tuple[int, int]:
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
            card = CARD_IDS[policy_card(seat, [INDEX[c] for c in legal], t.cards, t.led,
                                        t.number, deal.led_suits)]
        state, _ = apply(state, {"type": "play_card", "seat": seat, "card": card})
    assert state.deal is not None and state.deal.points is not None
    return state.deal.points


def _fast_playout(state: MatchState, rng: random.Random, explore: float) -> tuple[int, int]:
    assert state.deal is not None
    fd = fast.FastDeal.from_state(state)
    led_suits = state.deal.led_suits
    while not fd.finished:
        legal = fd.legal_cards()
        if rng.random() < explore:
            card = rng.choice(legal)
        else:
            card = policy_card(fd.turn, legal, fd.cards, fd.led, fd.number, led_suits)
        led = fd.led
        fd.play(card)
        if not fd.cards and led is not None and led not in led_suits:
            led_suits += led  # the trick just completed
    points: tuple[int, int] = fd.points()
    return points


def policy_playout(state: MatchState, rng: random.Random) -> tuple[int, int]:
    return _fast_playout(state, rng, EXPLORE)


def random_playout(state: MatchState, rng: random.Random) -> tuple[int, int]:
    return fast.playout(state, rng)


playout = policy_playout
