"""RULES.md §10 — counting in groups of four minus three, and the end of a deal."""

from __future__ import annotations

import random

import pytest

from games.engine import ROUND_OVER, Options, RuleError, apply, event_to_json, new_match_state
from games.engine.cards import ALL_MASK, INDEX, counted_points, mask_of
from games.engine.playout import random_action

from .helpers import (
    CANONICAL_DECK,
    CURDIN,
    all_tricks_at_trick_19,
    finish_deal,
    in_play,
    play_last_trick,
    rotated_deck,
    started,
    tie_at_trick_19,
    whole_deal,
)


def _points(*cards):
    return counted_points(mask_of([INDEX[c] for c in cards]))


@pytest.mark.parametrize("cards,expected", [
    (("C1", "C2", "S3", "B10"), 1),  # 4 numerals → 1
    (("CK", "C1", "R2", "S3"), 5),  # K + 3 numerals → 5
    (("CK", "CQ", "CN", "CJ"), 11),  # K Q N J → 11
    (("SN", "SQ"), 6),  # SN + SQ → 6
    (("C5", "B7"), 1),  # 2 numerals → 1
    (("NARR",), 5),  # NARR alone → 5
], ids=["4 numerals", "K+3 numerals", "KQNJ", "SN+SQ", "2 numerals", "NARR alone"])
def test_s10_counting_vectors(cards, expected):
    assert _points(*cards) == expected


def test_s10_counting_vector_whole_deck_is_72():
    assert counted_points(ALL_MASK) == 72


def test_s10_formula_raw_sum_minus_n_plus_ceil_n_over_4():
    # Groups of 4 count sum − 3; a remainder group of r cards counts sum − (r − 1).
    assert _points("CK", "RK", "SK", "BK", "T1") == 25 - 5 + 2
    assert _points() == 0


def test_s10_a_plus_b_is_72_for_deterministic_complete_deals():
    for k in range(0, 78, 7):
        state = whole_deal(started(rotated_deck(k), dealer=k % 4))
        assert sum(state.deal.points) == 72, k
        assert state.deal.piles[0] | state.deal.piles[1] == ALL_MASK
        assert state.deal.piles[0] & state.deal.piles[1] == 0


@pytest.mark.parametrize("seed", range(12))
def test_s10_a_plus_b_is_72_for_random_deals_with_buob_calls(seed):
    rng = random.Random(seed)
    state = new_match_state(Options(match_deals=0), first_dealer=seed % 4)
    deals = 0
    while deals < 3:
        action = random_action(state, rng, buob_rate=0.5)
        try:
            state, _ = apply(state, action)
        except RuleError as e:  # a random BUOB call may be rejected
            assert str(e.code).startswith("BUOB_"), e
            continue
        if state.phase == ROUND_OVER:
            deals += 1
            assert sum(state.deal.points) == 72
            assert counted_points(state.deal.piles[0]) == state.deal.points[0]


def test_s10_points_of_each_team_are_the_counted_points_of_its_pile():
    state = finish_deal(in_play(CANONICAL_DECK, ["R5", "R6"], dealer=CURDIN))
    assert state.deal.points == (counted_points(state.deal.piles[0]),
                                 counted_points(state.deal.piles[1]))


def test_s10_match_totals_add_the_deals_points():
    state = play_last_trick(tie_at_trick_19(totals=(10, 20)))
    assert state.totals == (46, 56)


def test_s10_tie_36_36_is_detected():
    state = tie_at_trick_19()
    for seat, card in ((0, "T21"), (1, "C1"), (2, "T20")):
        state, _ = apply(state, {"type": "play_card", "seat": seat, "card": card})
    state, events = apply(state, {"type": "play_card", "seat": 3, "card": "C2"})
    assert state.deal.points == (36, 36)
    scored = [event_to_json(e) for e in events if e.kind == "deal_scored"][0]
    assert scored["points"] == (36, 36)


def test_s10_more_than_36_wins_the_deal():
    state = play_last_trick(all_tricks_at_trick_19())
    assert state.deal.points == (71, 1)
    assert state.phase == ROUND_OVER
