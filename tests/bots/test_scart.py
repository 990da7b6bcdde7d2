"""The strong bot's scart (games/bots/scart.py, issue #27 item 1): two allowed cards chosen by
search over sampled deals that respect what the dealer saw in the reveal window; repeatable for
a fixed number of samples."""

from __future__ import annotations

import random
from typing import Any

from games import bots
from games.bots import easy, scart
from games.engine import Options, apply, events_for, new_match_state, view
from games.engine.cards import ALL_MASK, INDEX
from games.engine.playout import random_action
from games.engine.state import SCART


def _at_scart(seed: int) -> tuple[Any, list[dict[str, Any]]]:
    rng = random.Random(seed)
    state = new_match_state(Options(), first_dealer=seed % 4)
    events: list[dict[str, Any]] = []
    while state.phase is not SCART:
        state, evs = apply(state, random_action(state, rng))
        events += evs
    return state, events


def test_sampled_hands_hold_every_unseen_card_once_and_the_reveal_where_it_was_shown() -> None:
    state, events = _at_scart(1)
    dealer = state.deal.dealer
    v = view(state, dealer)
    hand = sum(1 << INDEX[c] for c in v["hand"])
    shown = scart._reveals(events_for(events, dealer))
    assert len(shown) == 4
    for i in range(20):
        hands = scart._draw(dealer, hand, shown, random.Random(i))
        assert hands[dealer] == hand
        assert sum(h.bit_count() for h in hands) == 78
        assert hands[0] | hands[1] | hands[2] | hands[3] == ALL_MASK
        for s, card in shown.items():
            assert hands[s] >> card & 1
        assert all(hands[s].bit_count() == 19 for s in range(4) if s != dealer)


def test_the_strong_scart_is_legal_repeatable_and_its_own() -> None:
    differ = 0
    for seed in range(8):
        state, events = _at_scart(seed)
        dealer = state.deal.dealer
        v = view(state, dealer)
        mine = events_for(events, dealer)
        action = bots.decide(v, mine, level="strong", seed=seed, samples=12)
        assert action == bots.decide(v, mine, level="strong", seed=seed, samples=12)
        assert action["type"] == "discard_scart" and action["seat"] == dealer
        assert set(action["cards"]) <= set(v["actions"]["scart_allowed"])
        assert len(set(action["cards"])) == 2
        apply(state, action)  # the engine takes it
        rule = easy.choose_scart([INDEX[c] for c in v["actions"]["scart_allowed"]],
                                 [INDEX[c] for c in v["hand"]])
        differ += sorted(INDEX[c] for c in action["cards"]) != rule
    assert differ > 0  # the search does not merely repeat the rule of thumb


def test_moving_hidden_cards_never_changes_the_scart() -> None:
    # The others' cards that were not shown in the reveal window change hands; the dealer's
    # view and events stay the same, and so must its scart (the no-peeking rule of issue #15).
    for seed in range(4):
        state, events = _at_scart(seed)
        deal = state.deal
        dealer = deal.dealer
        mine = events_for(events, dealer)
        shown = set(scart._reveals(mine).values())
        v = view(state, dealer)
        decision = bots.decide(v, mine, level="strong", seed=seed, samples=6)
        rng = random.Random(seed)
        others = [s for s in range(4) if s != dealer]
        for _ in range(3):
            a, b = rng.sample(others, 2)
            x = rng.choice([c for c in range(78) if deal.hands[a] >> c & 1 and c not in shown])
            y = rng.choice([c for c in range(78) if deal.hands[b] >> c & 1 and c not in shown])
            hands = list(deal.hands)
            hands[a] = hands[a] & ~(1 << x) | (1 << y)
            hands[b] = hands[b] & ~(1 << y) | (1 << x)
            moved = state._replace(deal=deal._replace(hands=tuple(hands)))
            assert view(moved, dealer) == v
            assert bots.decide(view(moved, dealer), mine, level="strong", seed=seed,
                               samples=6) == decision
