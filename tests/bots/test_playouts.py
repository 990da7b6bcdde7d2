"""The strong bot's playouts (games/bots/playouts.py) run on the engine's fast path; played
through `apply` with the same random numbers they must end the same: from random points of
random deals (random house rules, BUOB calls), the policy playout and the random one give the
same points either way."""

from __future__ import annotations

import random

from games.bots.playouts import (
    EXPLORE,
    informed_playout,
    policy_playout,
    random_playout,
    reference_playout,
)
from games.engine import PLAY, MatchState, PublicRefusal, RuleError, apply, new_match_state
from games.engine.playout import random_action, random_options

DEALS = 300


def _play_state(rng: random.Random) -> MatchState:
    """A state in PLAY, some cards into a deal."""
    state = new_match_state(random_options(rng), first_dealer=rng.randrange(4))
    stop = rng.randrange(0, 70)
    played = 0
    while True:
        if state.phase == PLAY and played >= stop:
            return state
        action = random_action(state, rng)
        try:
            state, _events = apply(state, action)
        except PublicRefusal as refusal:
            state = refusal.state
        except RuleError:
            continue
        if action["type"] == "play_card" and state.phase == PLAY:
            played += 1
        elif state.phase != PLAY and played:  # the deal ended before the stop: start over
            played, stop = 0, rng.randrange(0, 70)


def test_the_fast_playouts_end_as_the_engine_does() -> None:
    rng = random.Random(2026)
    for i in range(DEALS):
        state = _play_state(rng)
        assert (policy_playout(state, random.Random(i))
                == reference_playout(state, random.Random(i), EXPLORE)), i
        assert (informed_playout(state, random.Random(i))
                == reference_playout(state, random.Random(i), EXPLORE, informed=True)), i
        assert (random_playout(state, random.Random(i))
                == reference_playout(state, random.Random(i), 1.0)), i
