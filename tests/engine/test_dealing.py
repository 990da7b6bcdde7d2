"""RULES.md §4–§5 — dealing by the dealer alone, the reveal window, and the §5 test vector."""

from __future__ import annotations

import pytest

from games.engine import (
    DEALING,
    LOBBY,
    PLAY,
    REVEAL,
    SCART,
    Options,
    new_match_state,
    team_of,
)
from games.engine.state import dealt_hands

from .helpers import (
    ANNA,
    BENEDETG,
    CANONICAL_DECK,
    CURDIN,
    OWNER,
    SEATS,
    code_of,
    dealt,
    deck_from_hands,
    do,
    hand,
    in_play,
    rotated_deck,
    started,
)

VECTOR = {
    OWNER: "C1 C2 C3 C4 C5 C6 RJ RN RQ RK S1 S2 B7 B8 B9 B10 BJ BN BQ".split(),
    ANNA: "C7 C8 C9 C10 CJ CN S3 S4 S5 S6 S7 S8 BK T1 T2 T3 T4 T5 T6".split(),
    BENEDETG: "CQ CK R1 R2 R3 R4 S9 S10 SJ SN SQ SK T7 T8 T9 T10 T11 T12 T13".split(),
    CURDIN: ("R5 R6 R7 R8 R9 R10 B1 B2 B3 B4 B5 B6 T14 T15 T16 T17 T18 T19 T20 T21 NARR"
           .split()),
}
VECTOR_REVEAL = {OWNER: "BQ", ANNA: "T6", BENEDETG: "T13", CURDIN: "NARR"}


def _pass(state, seat=CURDIN):
    return do(state, {"type": "deal_next_pass", "seat": seat})


def test_s5_test_vector_canonical_deck_dealer_3_hands_after_pass_3():
    state = started(CANONICAL_DECK, dealer=CURDIN)
    for _ in range(3):
        state = _pass(state)
    for seat in SEATS:
        assert hand(state, seat) == VECTOR[seat], seat


def test_s5_test_vector_reveal_cards_are_the_last_card_of_pass_3():
    state = started(CANONICAL_DECK, dealer=CURDIN)
    for _ in range(3):
        state = _pass(state)
    assert state.phase == REVEAL
    from games.engine.cards import CARD_IDS
    assert {s: CARD_IDS[c] for s, c in enumerate(state.deal.reveal)} == VECTOR_REVEAL


def test_s5_deck_builder_helper_reproduces_the_canonical_deck_from_the_vector():
    assert deck_from_hands([VECTOR[s] for s in SEATS], CURDIN) == CANONICAL_DECK


def test_s5_passes_give_6_then_6_then_7_and_9_to_the_dealer():
    state = started(CANONICAL_DECK, dealer=CURDIN)
    assert [h.bit_count() for h in state.deal.hands] == [0, 0, 0, 0]
    state = _pass(state)
    assert [h.bit_count() for h in state.deal.hands] == [6, 6, 6, 6]
    state = _pass(state)
    assert [h.bit_count() for h in state.deal.hands] == [12, 12, 12, 12]
    state = _pass(state)
    assert [h.bit_count() for h in state.deal.hands] == [19, 19, 19, 21]


def test_s5_deal_order_starts_left_of_the_dealer_and_takes_cards_from_index_0_up():
    deck = rotated_deck(11)
    for dealer in SEATS:
        state = started(deck, dealer=dealer)
        state = _pass(state, dealer)
        order = [(dealer + k) % 4 for k in (1, 2, 3, 4)]
        for i, seat in enumerate(order):
            assert set(hand(state, seat)) == set(deck[6 * i:6 * i + 6]), (dealer, seat)


def test_s5_dealt_hands_are_stored_with_the_deal_for_replay():
    state = dealt(rotated_deck(5), dealer=ANNA)
    assert [c for c in state.deal.deck] == [CANONICAL_DECK.index(c) for c in rotated_deck(5)]
    assert dealt_hands(state.deal) == [sorted(h) for h in
                                       [[i for i in range(78) if state.deal.hands[s] >> i & 1]
                                        for s in SEATS]]


@pytest.mark.parametrize("seat", [OWNER, ANNA, BENEDETG])
@pytest.mark.parametrize("passes_before", [0, 1, 2])
def test_s5_pass_by_a_non_dealer_is_not_dealer(seat, passes_before):
    state = started(CANONICAL_DECK, dealer=CURDIN)
    for _ in range(passes_before):
        state = _pass(state)
    assert code_of(state, {"type": "deal_next_pass", "seat": seat}) == "NOT_DEALER"


def test_s4_phases_lobby_dealing_reveal_scart_play():
    state = new_match_state(Options(), first_dealer=CURDIN)
    assert state.phase == LOBBY
    state = do(state, {"type": "start_round", "deck": CANONICAL_DECK})
    assert state.phase == DEALING
    state = _pass(_pass(state))
    assert state.phase == DEALING
    state = _pass(state)
    assert state.phase == REVEAL
    state = do(state, {"type": "end_reveal"})
    assert state.phase == SCART
    state = do(state, {"type": "discard_scart", "seat": CURDIN, "cards": ["R5", "R6"]})
    assert state.phase == PLAY


def test_s5_end_reveal_moves_reveal_to_scart():
    state = started(CANONICAL_DECK)
    for _ in range(3):
        state = _pass(state)
    state = do(state, {"type": "end_reveal"})
    assert state.phase == SCART
    assert [h.bit_count() for h in state.deal.hands] == [19, 19, 19, 21]


@pytest.mark.parametrize("passes", [0, 1, 2])
def test_s12_end_reveal_while_dealing_is_wrong_phase(passes):
    state = started(CANONICAL_DECK)
    for _ in range(passes):
        state = _pass(state)
    assert code_of(state, {"type": "end_reveal"}) == "WRONG_PHASE"


def test_s12_end_reveal_in_scart_and_play_is_wrong_phase():
    state = dealt(CANONICAL_DECK)
    assert code_of(state, {"type": "end_reveal"}) == "WRONG_PHASE"
    state = in_play(CANONICAL_DECK, ["R5", "R6"])
    assert code_of(state, {"type": "end_reveal"}) == "WRONG_PHASE"


def test_s12_end_reveal_in_the_lobby_is_wrong_phase():
    assert code_of(new_match_state(Options(), 0), {"type": "end_reveal"}) == "WRONG_PHASE"


def test_s12_deal_next_pass_after_pass_3_is_wrong_phase():
    state = started(CANONICAL_DECK)
    for _ in range(3):
        state = _pass(state)
    assert code_of(state, {"type": "deal_next_pass", "seat": CURDIN}) == "WRONG_PHASE"
    state = do(state, {"type": "end_reveal"})
    assert code_of(state, {"type": "deal_next_pass", "seat": CURDIN}) == "WRONG_PHASE"


def test_s12_wrong_phase_is_checked_before_the_dealer_role():
    state = started(CANONICAL_DECK)
    for _ in range(3):
        state = _pass(state)
    # A non-dealer in REVEAL: the phase check comes first.
    assert code_of(state, {"type": "deal_next_pass", "seat": OWNER}) == "WRONG_PHASE"


def test_s12_deal_next_pass_in_the_lobby_is_wrong_phase():
    state = new_match_state(Options(), first_dealer=CURDIN)
    assert code_of(state, {"type": "deal_next_pass", "seat": CURDIN}) == "WRONG_PHASE"


def test_s12_start_round_outside_the_lobby_is_wrong_phase():
    state = started(CANONICAL_DECK)
    assert code_of(state, {"type": "start_round", "deck": CANONICAL_DECK}) == "WRONG_PHASE"


def test_s3_team_a_sits_on_even_seats_team_b_on_odd_seats():
    assert [team_of(s) for s in SEATS] == ["A", "B", "A", "B"]
