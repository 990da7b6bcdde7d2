"""RULES.md §12 — TURN_TIMEOUT: the system acts for the seat whose time ran out."""

from __future__ import annotations

import pytest

from games.engine import MATCH_OVER, PLAY, REVEAL, Options, apply, new_match_state
from games.engine.cards import INDEX, ids_of, mask_of

from .helpers import (
    ANNA,
    BENEDETG,
    CANONICAL_DECK,
    CURDIN,
    OWNER,
    code_of,
    dealt,
    deck_from_hands,
    do,
    hand,
    in_play,
    play,
    play_last_trick,
    play_trick,
    setup,
    started,
    tie_at_trick_19,
)

TIMEOUT = {"type": "turn_timeout"}


def _timeout(state):
    return apply(state, TIMEOUT)


def _last_played(state):
    trick = state.deal.current if state.deal.current.cards else state.deal.tricks[-1]
    seat, card = trick.cards[-1]
    return seat, ids_of(1 << card)[0]


# --- DEALING ------------------------------------------------------------------------------------

def test_s12_timeout_while_dealing_deals_the_next_pass():
    state = started(CANONICAL_DECK, dealer=CURDIN)
    for expected in (1, 2):
        state, events = _timeout(state)
        assert state.deal.passes == expected
        assert [e.auto for e in events if e.kind == "pass_dealt"] == [True]
    state, _ = _timeout(state)
    assert state.phase == REVEAL
    assert hand(state, OWNER) == hand(dealt(CANONICAL_DECK, CURDIN), OWNER)


# --- SCART --------------------------------------------------------------------------------------

def test_s12_timeout_in_scart_discards_the_two_lowest_valued_allowed_cards():
    # Curdin (§5 vector) holds R5–R10 B1–B6 T14–T21 NARR: R5 and R6, by lowest index.
    state, events = _timeout(dealt(CANONICAL_DECK, CURDIN))
    assert state.phase == PLAY
    assert ids_of(mask_of(state.deal.scart)) == ["R5", "R6"]
    assert [e.auto for e in events if e.kind == "scart_discarded"] == [True]


COURTS_DEALER = ["CJ", "CN", "CQ", "CK", "RJ", "RN", "RQ", "RK", "SJ", "SN", "SQ", "SK",
                 "T1", "T21", "NARR", "T2", "T3", "T4", "T5", "T6", "T7"]


def _courts_deck():
    others = [c for c in CANONICAL_DECK if c not in COURTS_DEALER]
    hands = [others[0:19], others[19:38], others[38:57], COURTS_DEALER]
    return deck_from_hands(hands, CURDIN)


@pytest.mark.parametrize("forbidden,expected", [
    ("honours", ["T2", "T3"]),  # lowest value first (1 point), though CJ has a lower index
    ("none", ["T2", "T3"]),
    ("honours_and_trumps", ["CJ", "RJ"]),  # 2 points each; ties by lowest index
])
def test_s12_timeout_scart_lowest_value_first_then_lowest_index(forbidden, expected):
    state = dealt(_courts_deck(), CURDIN, Options(scart_forbidden=forbidden))
    state, _ = _timeout(state)
    assert ids_of(mask_of(state.deal.scart)) == expected


def test_s12_timeout_scart_honours_and_trumps_fallback():
    trumps = [f"T{n}" for n in range(1, 22)]
    others = [c for c in CANONICAL_DECK if c not in trumps]
    deck = deck_from_hands([others[0:19], others[19:38], others[38:57], trumps], CURDIN)
    state, _ = _timeout(dealt(deck, CURDIN, Options(scart_forbidden="honours_and_trumps")))
    assert ids_of(mask_of(state.deal.scart)) == ["T2", "T3"]


# --- PLAY ---------------------------------------------------------------------------------------

def test_s12_timeout_in_play_plays_the_lowest_valued_legal_card_for_the_seat_on_turn():
    state = in_play(CANONICAL_DECK, ["R9", "R10"], dealer=CURDIN)
    state, events = _timeout(state)  # the owner, on lead: C1 (1 point, index 0)
    assert _last_played(state) == (OWNER, "C1")
    assert [e.auto for e in events if e.kind == "card_played"] == [True]
    state, _ = _timeout(state)  # Anna must follow cups: C7 … C10, CJ, CN → C7
    assert _last_played(state) == (ANNA, "C7")
    state, _ = _timeout(state)  # Benedetg: CQ (4) before CK (5)
    assert _last_played(state) == (BENEDETG, "CQ")
    state, _ = _timeout(state)  # Curdin must trump: T14 (1) before T21 and the Narr (5)
    assert _last_played(state) == (CURDIN, "T14")
    assert state.deal.tricks[0].winner == CURDIN


def test_s12_timeout_in_play_ties_by_lowest_index_c1_before_c10():
    state = setup({OWNER: ["C5"], ANNA: ["C1", "C10"]}, void={ANNA: "C"})
    state = play(state, OWNER, "C5")
    state, _ = _timeout(state)
    assert _last_played(state) == (ANNA, "C1")


def test_s12_timeout_in_play_prefers_lower_value_over_lower_index():
    # The owner's lowest-index card is CJ (2 points); S5 (1 point) goes first.
    state = setup({OWNER: ["CJ", "S5"]}, void={OWNER: "CRS"})
    assert hand(state, OWNER)[0] == "CJ"
    state, _ = _timeout(state)
    assert _last_played(state) == (OWNER, "S5")


def test_s12_timeout_in_play_respects_the_follow_rule():
    state = setup({OWNER: ["CK"], ANNA: ["CQ", "S1"]}, void={ANNA: "C"})
    state = play(state, OWNER, "CK")
    state, _ = _timeout(state)
    assert _last_played(state) == (ANNA, "CQ")


def test_s12_timeout_of_a_forced_target_plays_the_jack():
    state = setup({OWNER: ["SK"], ANNA: ["S4"], BENEDETG: ["S9"], CURDIN: ["SJ", "S2"]})
    state = play(state, OWNER, "SK", call_buob=True)
    state = play_trick(state, (ANNA, "S4"), (BENEDETG, "S9"))
    state, _ = _timeout(state)
    assert state.deal.tricks[0].cards[-1] == (CURDIN, INDEX["SJ"])


# --- elsewhere: WRONG_PHASE ---------------------------------------------------------------------

def test_s12_timeout_in_the_lobby_is_wrong_phase():
    assert code_of(new_match_state(Options(), 0), TIMEOUT) == "WRONG_PHASE"


def test_s12_timeout_in_reveal_is_wrong_phase():
    state = started(CANONICAL_DECK)
    for _ in range(3):
        state = do(state, {"type": "deal_next_pass", "seat": CURDIN})
    assert state.phase == REVEAL
    assert code_of(state, TIMEOUT) == "WRONG_PHASE"


def test_s12_timeout_in_round_over_is_wrong_phase():
    state = play_last_trick(tie_at_trick_19())
    assert state.phase == "ROUND_OVER"
    assert code_of(state, TIMEOUT) == "WRONG_PHASE"


def test_s12_timeout_in_match_over_is_wrong_phase():
    state = play_last_trick(tie_at_trick_19(deals_played=3))
    assert state.phase == MATCH_OVER
    assert code_of(state, TIMEOUT) == "WRONG_PHASE"

