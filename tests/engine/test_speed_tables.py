"""The engine's speed tables (issue #15) say what their plain definitions say.

Hands, piles and legal cards are turned into ids, card lists and points through per-byte
tables; trick winners come from a rank table per led suit; the options' JSON is spelled out.
Each is checked here against the definition it replaces (RULES.md §2, §7, §10, §14), on edge
cases and on random masks.
"""

from __future__ import annotations

import random
from dataclasses import asdict, fields

import pytest

from games.engine.cards import (
    ALL_MASK,
    CARD_IDS,
    NARR,
    NUM_CARDS,
    STRENGTH_OF,
    SUIT_OF,
    cards_of,
    counted_points,
    ids_of,
    points,
    raw_points,
)
from games.engine.options import Options
from games.engine.playout import random_options
from games.engine.rules import TRICK_RANK


def _masks() -> list[int]:
    rng = random.Random(15)
    out = [0, ALL_MASK, 1 << NARR, 1, 1 << 76, (1 << NARR) | 1]
    out += [1 << c for c in range(NUM_CARDS)]
    for _ in range(3000):
        # Sparse and dense masks alike, some ending low (bytes above the highest card unused).
        m = rng.getrandbits(NUM_CARDS) & rng.getrandbits(NUM_CARDS)
        out.append(m & ((1 << rng.randrange(NUM_CARDS + 1)) - 1))
        out.append(rng.getrandbits(NUM_CARDS) | rng.getrandbits(NUM_CARDS))
    return out


@pytest.mark.parametrize("mask", _masks()[:6])
def test_edge_masks(mask: int) -> None:
    cards = [c for c in range(NUM_CARDS) if mask >> c & 1]
    assert cards_of(mask) == cards
    assert ids_of(mask) == [CARD_IDS[c] for c in cards]


def test_cards_ids_and_points_of_random_masks_match_their_definitions() -> None:
    for mask in _masks():
        cards = [c for c in range(NUM_CARDS) if mask >> c & 1]
        assert cards_of(mask) == cards
        assert ids_of(mask) == [CARD_IDS[c] for c in cards]
        raw = sum(points(c) for c in cards)
        assert raw_points(mask) == raw
        n = len(cards)
        assert counted_points(mask) == raw - n + (n + 3) // 4  # RULES §10.2
    assert (raw_points(ALL_MASK), counted_points(ALL_MASK)) == (130, 72)


def test_trick_rank_orders_cards_as_the_winner_rule_says() -> None:
    """RULES §7: the highest trump wins; without a trump, the highest card of L; other
    cards and the Narr never win."""
    for led, rank in TRICK_RANK.items():
        assert len(rank) == NUM_CARDS
        for c in range(NUM_CARDS):
            if SUIT_OF[c] == "T":
                assert rank[c] > max(STRENGTH_OF[x] for x in range(NUM_CARDS)
                                     if SUIT_OF[x] not in ("T", None))
            elif SUIT_OF[c] == led:
                assert 0 < rank[c] == STRENGTH_OF[c]
            else:
                assert rank[c] == -1
        trumps = sorted((c for c in range(NUM_CARDS) if SUIT_OF[c] == "T"), key=rank.__getitem__)
        assert [CARD_IDS[c] for c in trumps] == [f"T{n}" for n in range(1, 22)]
    assert TRICK_RANK["C"][CARD_IDS.index("C1")] > TRICK_RANK["C"][CARD_IDS.index("C10")]
    assert TRICK_RANK["S"][CARD_IDS.index("S10")] > TRICK_RANK["S"][CARD_IDS.index("S1")]
    assert all(rank[NARR] == -1 for rank in TRICK_RANK.values())


def test_options_json_holds_every_option_as_asdict_did() -> None:
    rng = random.Random(14)
    for options in [Options(), *(random_options(rng) for _ in range(200))]:
        expected = asdict(options)
        expected["bock_triggers"] = list(options.bock_triggers)
        got = options.to_json()
        assert got == expected
        assert list(got) == [f.name for f in fields(Options)]  # every option, in order
        assert Options.from_json(got) == options


def test_shared_card_played_events_and_the_played_cards_shortcut() -> None:
    """Two shortcuts of the card path, against what they stand for, along random deals:
    the shared CardPlayed of a card is the event `CardPlayed(...)` builds (equal, same
    fields), one object per (seat, card, trick, auto); and the cards `callable_suits` takes as
    played (in no hand, not in the scart) are exactly the cards of the completed tricks and
    of the open one (RULES §8: what every seat has seen)."""
    from games.engine import apply, new_match_state
    from games.engine.errors import RuleError
    from games.engine.events import BuobResolved, CardPlayed, card_played
    from games.engine.playout import random_action
    from games.engine.state import PLAY

    rng = random.Random(151)
    state = new_match_state(random_options(rng), 0)
    checked = played_seen = exchanges = 0
    while checked < 1500:
        try:
            state, events = apply(state, random_action(state, rng))
        except RuleError:
            continue
        for e in events:
            if isinstance(e, CardPlayed):
                fresh = CardPlayed(e.seat, e.card, e.trick, e.auto)
                assert e == fresh and hash(e) == hash(fresh)
                assert card_played(e.seat, e.card, e.trick, e.auto) is e
                played_seen += 1
            if isinstance(e, BuobResolved) and e.returned_card is not None:
                exchanges += 1  # a jack into the trick, a card back into a hand
        deal = state.deal
        if state.phase == PLAY and deal is not None and deal.current is not None:
            assert deal.scart is not None
            in_tricks = 0
            for t in (*deal.tricks, deal.current):
                for _, c in t.cards:
                    in_tricks |= 1 << c
            h0, h1, h2, h3 = deal.hands
            scart = (1 << deal.scart[0]) | (1 << deal.scart[1])
            assert ALL_MASK & ~(h0 | h1 | h2 | h3 | scart) == in_tricks
            checked += 1
    assert played_seen > 1000 and exchanges > 0
