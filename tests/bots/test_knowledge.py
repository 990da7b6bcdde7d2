"""What a bot infers from its view and events is true of the real table, and its sampled deals
and hypothetical tables are consistent with what it knows (seeded random deals with random
house rules and random BUOB calls)."""

from __future__ import annotations

import random

import pytest

from games.bots import knowledge
from games.bots.playouts import policy_playout
from games.bots.sampling import Sampler
from games.engine import (
    MatchState,
    PublicRefusal,
    RuleError,
    apply,
    events_for,
    new_match_state,
    view,
)
from games.engine.cards import ALL_MASK, SUIT_OF, cards_of
from games.engine.events import Event
from games.engine.hypothesis import hypothetical_state
from games.engine.playout import random_action, random_options, shuffled_deck
from games.engine.state import PLAY

SITUATIONS = 150


def _situations(seed: int) -> list[tuple[MatchState, list[Event], int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < SITUATIONS:
        state = new_match_state(random_options(rng), rng.randrange(4))
        state, events = apply(state, {"type": "start_round", "deck": shuffled_deck(rng)})
        all_events: list[Event] = list(events)
        stop = rng.randrange(0, 75)
        played = 0
        while state.phase != PLAY or played < stop:
            if state.phase not in ("DEALING", "REVEAL", "SCART", PLAY):
                break
            action = random_action(state, rng, buob_rate=0.4)
            try:
                state, evs = apply(state, action)
            except PublicRefusal as exc:
                state, evs = exc.state, list(exc.events)
            except RuleError:
                continue
            played += action["type"] == "play_card"
            all_events += evs
        if state.phase == PLAY:
            assert state.deal is not None and state.deal.turn is not None
            out.append((state, all_events, state.deal.turn))
    return out


def _true_location(state: MatchState, card: int) -> int:
    deal = state.deal
    assert deal is not None and deal.scart is not None
    for s in range(4):
        if deal.hands[s] >> card & 1:
            return s
    if card in deal.scart:
        return knowledge.SCART
    return knowledge.PILE_A if deal.piles[0] >> card & 1 else knowledge.PILE_B


@pytest.mark.parametrize("with_events", [True, False])
def test_knowledge_is_true_of_the_real_table(with_events: bool) -> None:
    for state, events, seat in _situations(11 if with_events else 12):
        deal = state.deal
        assert deal is not None
        know = knowledge.build(view(state, seat), events_for(events, seat) if with_events
                               else [])
        if with_events:
            assert know.history_known
            assert know.piles == deal.piles
            assert know.led_suits == deal.led_suits
        for s in range(4):
            assert know.pinned[s] & ~deal.hands[s] == 0  # a pinned card is in that hand
            for suit in know.voids[s]:
                assert not any(SUIT_OF[c] == suit for c in cards_of(deal.hands[s])), (s, suit)
        sampler = Sampler(know)
        for card in cards_of(know.unseen()):
            where = _true_location(state, card)
            if not with_events and where in (knowledge.PILE_A, knowledge.PILE_B):
                # Without the events only the piles' sizes are known (and a Narr debt paid in
                # a trick the seat was not told about may move a card between them): where a
                # played card lies is a guess that only the score of a playout depends on.
                continue
            assert sampler.allowed[card] >> where & 1, (card, where)


def test_samples_keep_every_count_and_constraint() -> None:
    rng = random.Random(5)
    for state, events, seat in _situations(13)[:100]:
        deal = state.deal
        assert deal is not None
        v = view(state, seat)
        know = knowledge.build(v, events_for(events, seat))
        sampler = Sampler(know)
        for _ in range(3):
            sample = sampler.draw(rng)
            assert sample.hands[seat] == deal.hands[seat]
            assert [h.bit_count() for h in sample.hands] == v["hand_counts"]
            for s in range(4):
                assert sample.hands[s] & know.pinned[s] == know.pinned[s]
                if s != seat:
                    assert not any(SUIT_OF[c] in know.voids[s]
                                   for c in cards_of(sample.hands[s] & ~know.pinned[s]))
            table = 0
            assert deal.current is not None
            for _, c in deal.current.cards:
                table |= 1 << c
            everything = (sample.hands[0] | sample.hands[1] | sample.hands[2]
                          | sample.hands[3] | sample.piles[0] | sample.piles[1] | table
                          | 1 << sample.scart[0] | 1 << sample.scart[1])
            assert everything == ALL_MASK
            assert sum(h.bit_count() for h in sample.hands) + 2 + table.bit_count() + sum(
                p.bit_count() for p in sample.piles) == 78
            if seat == deal.dealer:
                assert set(sample.scart) == set(deal.scart or ())


def test_the_true_deal_as_a_hypothesis_plays_like_the_real_table() -> None:
    for state, events, seat in _situations(14)[:100]:
        deal = state.deal
        assert deal is not None and deal.scart is not None
        v = view(state, seat)
        know = knowledge.build(v, events_for(events, seat))
        hypo = hypothetical_state(v, deal.hands, deal.scart, deal.piles, know.tricks,
                                  know.led_suits)
        assert hypo.deal is not None
        assert hypo.deal.current == deal.current._replace(refused=hypo.deal.current.refused)
        assert hypo.deal.narr_debt is None or deal.narr_debt is not None
        if hypo.deal.narr_debt is not None and deal.narr_debt is not None:
            assert hypo.deal.narr_debt.status == deal.narr_debt.status
        for seed in range(2):
            assert (policy_playout(hypo, random.Random(seed))
                    == policy_playout(state, random.Random(seed)))
