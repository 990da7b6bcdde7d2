"""RULES.md §2 — the deck: 78 cards, canonical ids and order, strength, points, honours."""

from __future__ import annotations

import re

import pytest

from games.engine import CARD_IDS
from games.engine.cards import (
    ALL_MASK,
    HONOURS_MASK,
    INDEX,
    NARR,
    counted_points,
    ids_of,
    points,
    strength,
    suit,
)

ID_REGEX = re.compile(r"^([CRSB]([1-9]|10|J|N|Q|K)|T([1-9]|1[0-9]|2[01])|NARR)$")


def _strongest_first(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: strength(INDEX[c]), reverse=True)


def test_s2_the_deck_has_78_unique_ids():
    assert len(CARD_IDS) == 78
    assert len(set(CARD_IDS)) == 78


def test_s2_every_id_matches_the_valid_id_regex():
    assert all(ID_REGEX.match(c) for c in CARD_IDS)


def test_s2_the_regex_admits_exactly_the_78_ids():
    # Every string the regex accepts is one of the 78 cards (the regex is a closed set).
    candidates = [s + r for s in "CRSB" for r in [*map(str, range(0, 12)), "J", "N", "Q", "K"]]
    candidates += [f"T{n}" for n in range(0, 23)] + ["NARR", "T01", "C01", "narr", "SK "]
    accepted = {c for c in candidates if ID_REGEX.match(c)}
    assert accepted == set(CARD_IDS)


def test_s2_canonical_order_cups_coins_swords_batons_then_trumps_then_narr():
    ranks = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]
    expected = [s + r for s in "CRSB" for r in ranks] + [f"T{n}" for n in range(1, 22)] + ["NARR"]
    assert list(CARD_IDS) == expected
    assert INDEX["C1"] == 0 and INDEX["CK"] == 13 and INDEX["R1"] == 14
    assert INDEX["T1"] == 56 and INDEX["T21"] == 76 and INDEX["NARR"] == 77


def test_s2_suit_of_each_card():
    assert suit(INDEX["C10"]) == "C"
    assert suit(INDEX["RK"]) == "R"
    assert suit(INDEX["SJ"]) == "S"
    assert suit(INDEX["B7"]) == "B"
    assert suit(INDEX["T21"]) == "T"
    assert suit(NARR) is None


def test_s2_raw_point_sum_of_the_deck_is_130():
    assert sum(points(i) for i in range(78)) == 130


def test_s2_counted_whole_deck_is_72():
    assert counted_points(ALL_MASK) == 72


@pytest.mark.parametrize("card,value", [
    ("CK", 5), ("RQ", 4), ("SN", 3), ("BJ", 2), ("C1", 1), ("C10", 1), ("S10", 1),
    ("T1", 5), ("T21", 5), ("T2", 1), ("T20", 1), ("NARR", 5),
])
def test_s2_card_points(card, value):
    assert points(INDEX[card]) == value


def test_s1_honours_are_the_four_kings_t1_t21_and_the_narr():
    assert ids_of(HONOURS_MASK) == ["CK", "RK", "SK", "BK", "T1", "T21", "NARR"]


@pytest.mark.parametrize("s", ["C", "R"])
def test_s2_round_suit_ranking_k_q_n_j_1_to_10(s):
    ranks = ["K", "Q", "N", "J", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    cards = [s + r for r in ranks]
    assert _strongest_first(list(reversed(cards))) == cards
    # C1 > C2 > … > C10: the numerals count upside down in the round suits.
    assert strength(INDEX[s + "1"]) > strength(INDEX[s + "2"]) > strength(INDEX[s + "10"])


@pytest.mark.parametrize("s", ["S", "B"])
def test_s2_long_suit_ranking_k_q_n_j_10_to_1(s):
    ranks = ["K", "Q", "N", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"]
    cards = [s + r for r in ranks]
    assert _strongest_first(list(reversed(cards))) == cards


def test_s2_strength_values():
    assert [strength(INDEX[c]) for c in ("CK", "CQ", "CN", "CJ")] == [14, 13, 12, 11]
    assert strength(INDEX["C1"]) == 10 and strength(INDEX["C10"]) == 1
    assert strength(INDEX["S1"]) == 1 and strength(INDEX["S10"]) == 10
    assert strength(INDEX["T1"]) == 1 and strength(INDEX["T21"]) == 21


def test_s2_trumps_rank_t21_highest():
    trumps = [f"T{n}" for n in range(1, 22)]
    assert _strongest_first(trumps) == list(reversed(trumps))
