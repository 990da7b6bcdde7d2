"""The one place where a bot plays a hypothetical deal to its end.

Both playouts take a full-information MatchState in the PLAY phase (a sampled deal) and return
the deal's points (team A, team B):

* `policy_playout(state, rng)` — what the strong bot uses: every seat plays by the policy of
  rollout.py, and with probability EXPLORE a random legal card instead, so that the samples do
  not all follow one line. It measured stronger than random cards at the same budget.
* `random_playout(state, rng)` — every seat plays `rng.choice` of its legal cards in canonical
  order.

Each runs on the engine's mutable fast path (`games.engine.fast`, proven equal to `apply` by
the engine's tests) when the engine has one, and otherwise through the public `apply`: the
same rules and the same choices, slower. The import below is the whole switch.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import PLAY, MatchState, apply, legal_cards
from games.engine.cards import CARD_IDS, INDEX

from .rollout import policy_card

try:  # the engine's fast path, when it has one
    from games.engine import fast as _fast  # type: ignore[attr-defined, unused-ignore]
except ImportError:  # pragma: no cover - depends on the engine's version
    _fast = None

FAST: Any = _fast
EXPLORE = 0.1


def _apply_playout(state: MatchState, rng: random.Random, explore: float) -> tuple[int, int]:
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
    fd = FAST.FastDeal.from_state(state)
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
    if FAST is not None:
        return _fast_playout(state, rng, EXPLORE)
    return _apply_playout(state, rng, EXPLORE)


def random_playout(state: MatchState, rng: random.Random) -> tuple[int, int]:
    if FAST is not None:
        points: tuple[int, int] = FAST.playout(state, rng)
        return points
    return _apply_playout(state, rng, 1.0)


playout = policy_playout
