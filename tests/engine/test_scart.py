"""RULES.md §6 — the scart: only the dealer, exactly 2 valid cards, checks in the given order."""

from __future__ import annotations

import pytest

from games.engine import PLAY, Options
from games.engine.cards import INDEX as IX
from games.engine.cards import counted_points, ids_of, mask_of

from .helpers import (
    ANNA,
    BENEDETG,
    CANONICAL_DECK,
    CURDIN,
    OWNER,
    code_of,
    constructed,
    dealt,
    deck_for,
    do,
    finish_deal,
    hand,
    in_play,
    play,
    started,
)

TRUMPS = [f"T{n}" for n in range(1, 22)]


def _scart(cards, seat=CURDIN):
    return {"type": "discard_scart", "seat": seat, "cards": cards}


@pytest.fixture
def at_scart():
    """§5 vector: Curdin (seat 3) deals and holds R5–R10 B1–B6 T14–T21 NARR."""
    return dealt(CANONICAL_DECK, dealer=CURDIN)


# --- role and phase -------------------------------------------------------------------------

@pytest.mark.parametrize("seat", [OWNER, ANNA, BENEDETG])
def test_s6_only_the_dealer_discards_else_not_dealer(at_scart, seat):
    assert code_of(at_scart, _scart(["R5", "R6"], seat)) == "NOT_DEALER"


def test_s12_role_is_checked_before_the_scarts_own_checks(at_scart):
    assert code_of(at_scart, _scart(["R5"], OWNER)) == "NOT_DEALER"


def test_s12_discard_scart_while_dealing_or_revealing_is_wrong_phase():
    state = started(CANONICAL_DECK)
    assert code_of(state, _scart(["R5", "R6"])) == "WRONG_PHASE"
    for _ in range(3):
        state = do(state, {"type": "deal_next_pass", "seat": CURDIN})
    assert code_of(state, _scart(["R5", "R6"])) == "WRONG_PHASE"


def test_s12_discard_scart_in_play_is_wrong_phase_even_for_a_non_dealer():
    state = in_play(CANONICAL_DECK, ["R5", "R6"])
    assert code_of(state, _scart(["R7", "R8"])) == "WRONG_PHASE"
    assert code_of(state, _scart(["R7", "R8"], OWNER)) == "WRONG_PHASE"


# --- §6 checks 1–5, in order ------------------------------------------------------------------

def test_s6_check1_one_card_is_wrong_count(at_scart):
    assert code_of(at_scart, _scart(["R5"])) == "SCART_WRONG_COUNT"


def test_s6_check1_three_cards_is_wrong_count(at_scart):
    assert code_of(at_scart, _scart(["R5", "R6", "R7"])) == "SCART_WRONG_COUNT"


def test_s6_check1_no_cards_is_wrong_count(at_scart):
    assert code_of(at_scart, _scart([])) == "SCART_WRONG_COUNT"


def test_s6_check1_comes_before_unknown_ids(at_scart):
    assert code_of(at_scart, _scart(["XX", "YY", "ZZ"])) == "SCART_WRONG_COUNT"


def test_s6_check2_unknown_id_is_unknown_card(at_scart):
    assert code_of(at_scart, _scart(["R5", "R11"])) == "UNKNOWN_CARD"
    assert code_of(at_scart, _scart(["narr", "R5"])) == "UNKNOWN_CARD"


def test_s6_check2_comes_before_duplicate(at_scart):
    assert code_of(at_scart, _scart(["XX", "XX"])) == "UNKNOWN_CARD"


def test_s6_check3_the_same_card_twice_is_duplicate(at_scart):
    assert code_of(at_scart, _scart(["R5", "R5"])) == "SCART_DUPLICATE"


def test_s6_check3_comes_before_not_in_hand(at_scart):
    assert code_of(at_scart, _scart(["C1", "C1"])) == "SCART_DUPLICATE"


def test_s6_check4_a_card_not_in_the_dealers_hand_is_card_not_in_hand(at_scart):
    assert code_of(at_scart, _scart(["R5", "C1"])) == "CARD_NOT_IN_HAND"


def test_s6_check4_comes_before_forbidden(at_scart):
    # CK is an honour, but Curdin does not hold it.
    assert code_of(at_scart, _scart(["T21", "CK"])) == "CARD_NOT_IN_HAND"


@pytest.mark.parametrize("honour", ["CK", "RK", "SK", "BK", "T1", "T21", "NARR"])
def test_s6_check5_honours_forbidden_by_default(honour):
    deck = deck_for(CURDIN, {CURDIN: ["CK", "RK", "SK", "BK", "T1", "T21", "NARR", "C5"]})
    state = dealt(deck, CURDIN)
    assert code_of(state, _scart([honour, "C5"])) == "SCART_FORBIDDEN_CARD"


def test_s6_honours_option_allows_ordinary_trumps(at_scart):
    state = do(at_scart, _scart(["T14", "T20"]))
    assert state.phase == PLAY


def test_s6_option_none_allows_honours(at_scart):
    state = dealt(CANONICAL_DECK, CURDIN, Options(scart_forbidden="none"))
    state = do(state, _scart(["T21", "NARR"]))
    assert state.phase == PLAY
    assert ids_of(mask_of(state.deal.scart)) == ["T21", "NARR"]


def test_s6_option_honours_and_trumps_forbids_every_trump():
    state = dealt(CANONICAL_DECK, CURDIN, Options(scart_forbidden="honours_and_trumps"))
    assert code_of(state, _scart(["T14", "R5"])) == "SCART_FORBIDDEN_CARD"
    assert code_of(state, _scart(["T21", "R5"])) == "SCART_FORBIDDEN_CARD"
    assert code_of(state, _scart(["NARR", "R5"])) == "SCART_FORBIDDEN_CARD"
    assert do(state, _scart(["R5", "B1"])).phase == PLAY


def test_s6_honours_and_trumps_falls_back_to_honours_with_no_allowed_card():
    # Curdin is dealt all 21 trumps: no card is allowed under honours_and_trumps.
    state = dealt(deck_for(CURDIN, {CURDIN: TRUMPS}), CURDIN,
                  Options(scart_forbidden="honours_and_trumps"))
    assert code_of(state, _scart(["T1", "T2"])) == "SCART_FORBIDDEN_CARD"  # still an honour
    assert do(state, _scart(["T2", "T3"])).phase == PLAY


def test_s6_honours_and_trumps_falls_back_to_honours_with_one_allowed_card():
    state = dealt(deck_for(CURDIN, {CURDIN: TRUMPS[1:] + ["C5"]}), CURDIN,
                  Options(scart_forbidden="honours_and_trumps"))
    assert do(state, _scart(["T2", "T3"])).phase == PLAY
    assert do(state, _scart(["C5", "T20"])).phase == PLAY
    assert code_of(state, _scart(["C5", "T21"])) == "SCART_FORBIDDEN_CARD"


def test_s6_honours_and_trumps_applies_with_two_allowed_cards():
    state = dealt(deck_for(CURDIN, {CURDIN: TRUMPS[2:] + ["C5", "C6"]}), CURDIN,
                  Options(scart_forbidden="honours_and_trumps"))
    assert code_of(state, _scart(["T3", "T4"])) == "SCART_FORBIDDEN_CARD"
    assert code_of(state, _scart(["C5", "T4"])) == "SCART_FORBIDDEN_CARD"
    assert do(state, _scart(["C5", "C6"])).phase == PLAY


# --- a valid scart ------------------------------------------------------------------------------

def test_s6_valid_scart_leaves_19_cards_and_next_dealer_leads_trick_1(at_scart):
    state = do(at_scart, _scart(["R6", "R5"]))
    assert state.phase == PLAY
    assert len(hand(state, CURDIN)) == 19
    assert "R5" not in hand(state, CURDIN) and "R6" not in hand(state, CURDIN)
    assert ids_of(mask_of(state.deal.scart)) == ["R5", "R6"]
    assert state.deal.turn == OWNER
    assert state.deal.current.number == 1 and state.deal.current.leader == OWNER


@pytest.mark.parametrize("dealer", [OWNER, ANNA, BENEDETG, CURDIN])
def test_s6_next_of_the_dealer_leads_trick_1_for_every_dealer(dealer):
    state = dealt(CANONICAL_DECK, dealer)
    state = do(state, {"type": "turn_timeout"})
    assert state.phase == PLAY
    assert state.deal.turn == (dealer + 1) % 4


# --- the scart at the end of the deal ----------------------------------------------------------

def test_s6_scart_goes_to_the_dealers_team_pile_at_the_end():
    state = in_play(CANONICAL_DECK, ["B5", "B6"], dealer=CURDIN)
    state = finish_deal(state)
    b_pile = ids_of(state.deal.piles[1])
    assert "B5" in b_pile and "B6" in b_pile


def test_s6_scart_counted_for_the_dealers_team_even_with_no_trick_won():
    # Trick 19 of a deal in which team A won every trick; Curdin (B) dealt and discarded RQ RN.
    everything = list(CANONICAL_DECK)
    last = {OWNER: ["T21"], ANNA: ["C1"], BENEDETG: ["C2"], CURDIN: ["C3"]}
    scart = ["RQ", "RN"]
    used = {c for cs in last.values() for c in cs} | set(scart)
    pile_a = [c for c in everything if c not in used]
    state = constructed(dealer=CURDIN, hands=last, scart=scart, piles={"A": pile_a, "B": []},
                        leader=OWNER)
    for seat, card in ((OWNER, "T21"), (ANNA, "C1"), (BENEDETG, "C2"), (CURDIN, "C3")):
        state = play(state, seat, card)
    assert ids_of(state.deal.piles[1]) == ["RN", "RQ"]
    assert state.deal.points == (66, 6)
    assert counted_points((1 << IX["RQ"]) | (1 << IX["RN"])) == 6
