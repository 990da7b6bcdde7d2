"""The one place where a bot plays a hypothetical deal to its end.

`playout(state, rng)` takes a full-information MatchState in the PLAY phase and returns the
deal's points (team A, team B), every seat playing a uniformly random legal card. It is the
engine's mutable fast path, `games.engine.fast.playout`, when the engine has one; otherwise the
same policy driven through the public `apply`, which is slower but the same rules and the same
random choices (each seat takes `rng.choice` of its legal cards in canonical order).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine import PLAY, MatchState, apply, legal_cards

try:  # the switch: the engine's fast path when it exists
    from games.engine.fast import playout as _engine_playout  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the engine's version
    _engine_playout = None


def _apply_playout(state: MatchState, rng: random.Random) -> tuple[int, int]:
    while state.phase is PLAY:
        deal = state.deal
        assert deal is not None and deal.turn is not None
        seat = deal.turn
        # legal_cards lists the ids in canonical order: the same choice as over sorted ints.
        card = rng.choice(legal_cards(state, seat))
        state, _ = apply(state, {"type": "play_card", "seat": seat, "card": card})
    assert state.deal is not None and state.deal.points is not None
    return state.deal.points


playout: Callable[[MatchState, random.Random], tuple[int, int]] = (
    _engine_playout if _engine_playout is not None else _apply_playout)
