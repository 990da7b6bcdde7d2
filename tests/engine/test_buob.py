"""RULES.md §8 — BUOB: the five worked examples, every rejection in order, attached calls,
candidate priority and the target rule.

Personas as in the worked examples: Anna (seat 0, A), Bigna (1, B), Curdin (2, A) and Duri
(3, B), who deals, so Anna leads trick 1.
"""

from __future__ import annotations

import pytest

from games.engine import Options, apply, event_to_json, legal_cards
from games.engine.cards import INDEX, ids_of

from .helpers import (
    ANNA,
    BIGNA,
    CURDIN,
    DURI,
    call,
    code_of,
    dealt,
    deck_for,
    do,
    first_legal,
    hand,
    play,
    play_trick,
    setup,
)


def _call(seat, suit=None):
    action = {"type": "call_buob", "seat": seat}
    if suit is not None:
        action["suit"] = suit
    return action


def _play(seat, card, **extra):
    return {"type": "play_card", "seat": seat, "card": card, **extra}


def _cards(trick):
    return [(s, ids_of(1 << c)[0]) for s, c in trick.cards]


def _buob(state):
    return state.deal.current.buob


# --- the five worked examples ----------------------------------------------------------------

def test_s8_example_1_forced():
    """§8 example 1: Anna leads SK with call_buob; SJ is Duri's → FORCED; Duri's S2 is rejected
    with BUOB_FORCED_JACK, he plays SJ; SK wins and A captures SK S4 S9 SJ."""
    state = setup({ANNA: ["SK"], BIGNA: ["S4"], CURDIN: ["S9"], DURI: ["SJ", "S2"]})
    state, events = apply(state, _play(ANNA, "SK", call_buob=True))
    b = _buob(state)
    assert (b.caller, b.suit, b.target, b.mode) == (ANNA, "S", DURI, "forced")
    called = [event_to_json(e) for e in events if e.kind == "buob_called"]
    assert called and called[0]["target"] == DURI and called[0]["mode"] == "forced"
    state = play_trick(state, (BIGNA, "S4"), (CURDIN, "S9"))
    assert legal_cards(state, DURI) == ["SJ"]
    assert code_of(state, _play(DURI, "S2")) == "BUOB_FORCED_JACK"
    state = play(state, DURI, "SJ")
    trick = state.deal.tricks[0]
    assert trick.winner == ANNA
    assert set(ids_of(state.deal.piles[0])) == {"SK", "S4", "S9", "SJ"}
    assert state.deal.piles[1] == 0


def test_s8_example_2_deferred():
    """§8 example 2: swords never led; Curdin leads S3, Duri S8, Anna SK, Curdin calls; SJ is
    Duri's, who played S8 → DEFERRED; Bigna S6; S8 returns to Duri, SJ takes its slot:
    S3 SJ SK S6 → SK (Anna) wins."""
    state = setup({ANNA: ["R10", "SK"], BIGNA: ["R9", "S6"], CURDIN: ["RK", "S3"],
                   DURI: ["R8", "S8", "SJ"]})
    state = play_trick(state, (ANNA, "R10"), (BIGNA, "R9"), (CURDIN, "RK"), (DURI, "R8"))
    assert state.deal.tricks[0].winner == CURDIN and "S" not in state.deal.led_suits
    state = play_trick(state, (CURDIN, "S3"), (DURI, "S8"), (ANNA, "SK"))
    state = call(state, CURDIN)  # Bigna is on turn; Curdin calls all the same
    b = _buob(state)
    assert (b.caller, b.suit, b.target, b.mode) == (CURDIN, "S", DURI, "deferred")
    state, events = apply(state, _play(BIGNA, "S6"))
    trick = state.deal.tricks[1]
    assert _cards(trick) == [(CURDIN, "S3"), (DURI, "SJ"), (ANNA, "SK"), (BIGNA, "S6")]
    assert trick.winner == ANNA
    assert trick.buob.returned_card == INDEX["S8"]
    assert "S8" in hand(state, DURI) and "SJ" not in hand(state, DURI)
    resolved = [event_to_json(e) for e in events if e.kind == "buob_resolved"]
    assert resolved[0]["returned_card"] == "S8" and resolved[0]["jack"] == "SJ"
    assert len({len(hand(state, s)) for s in range(4)}) == 1


def test_s8_example_3_self():
    """§8 example 3: coins never led; Bigna leads C7, Curdin C1, Duri (void in cups and trumps)
    discards RK; Anna holds RJ and calls → SELF; she follows with C10; C10 returns to her and
    RJ goes in: C7 C1 RK RJ → C1 (Curdin) wins; A takes RK and RJ."""
    state = setup({ANNA: ["S1", "RJ", "C10"], BIGNA: ["S10", "C7"], CURDIN: ["S2", "C1"],
                   DURI: ["S3", "RK"]}, void={DURI: "CT"})
    state = play_trick(state, (ANNA, "S1"), (BIGNA, "S10"), (CURDIN, "S2"), (DURI, "S3"))
    assert state.deal.tricks[0].winner == BIGNA and "R" not in state.deal.led_suits
    state = play_trick(state, (BIGNA, "C7"), (CURDIN, "C1"), (DURI, "RK"))
    state = call(state, ANNA)
    b = _buob(state)
    assert (b.caller, b.suit, b.target, b.mode) == (ANNA, "R", ANNA, "self")
    state = play(state, ANNA, "C10")
    trick = state.deal.tricks[1]
    assert _cards(trick) == [(BIGNA, "C7"), (CURDIN, "C1"), (DURI, "RK"), (ANNA, "RJ")]
    assert trick.winner == CURDIN
    assert "C10" in hand(state, ANNA) and "RJ" not in hand(state, ANNA)
    assert {"RK", "RJ", "C7", "C1"} <= set(ids_of(state.deal.piles[0]))


@pytest.fixture
def two_kings():
    """§8 example 4: Bigna leads CK, Curdin (void in cups and trumps) discards BK.
    CJ is Duri's, BJ is Anna's."""
    state = setup({ANNA: ["S1", "BJ"], BIGNA: ["S10", "CK"], CURDIN: ["S2", "BK"],
                   DURI: ["S3", "CJ"]}, void={CURDIN: "CT"})
    state = play_trick(state, (ANNA, "S1"), (BIGNA, "S10"), (CURDIN, "S2"), (DURI, "S3"))
    return play_trick(state, (BIGNA, "CK"), (CURDIN, "BK"))


def test_s8_example_4_call_without_suit_targets_the_cj_holder(two_kings):
    b = _buob(call(two_kings, CURDIN))
    assert (b.suit, b.target, b.mode) == ("C", DURI, "forced")


def test_s8_example_4_call_naming_b_targets_the_bj_holder(two_kings):
    b = _buob(call(two_kings, CURDIN, "B"))
    assert (b.suit, b.target, b.mode) == ("B", ANNA, "forced")


def test_s8_example_4_call_naming_s_is_suit_not_candidate(two_kings):
    assert code_of(two_kings, _call(CURDIN, "S")) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_example_5_fallback_winner():
    """§8 example 5: Anna leads R5; Bigna, Curdin and Duri hold no coins and no trumps; Bigna
    discards SK, Curdin calls (SJ is Anna's, already played → DEFERRED), Curdin and Duri play
    B3, C4; R5 returns to Anna: no coin and no trump left, so SK (Bigna, team B) wins."""
    coins = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "RJ", "RN", "RK"]
    state = setup(
        {ANNA: ["T17", "T18", "T19", "T20", "T21", "SJ", *coins],
         BIGNA: ["T1", "T2", "T3", "T4", "T5", "SK"],
         CURDIN: ["T6", "T7", "T8", "T9", "T10", "B3"],
         DURI: ["T11", "T12", "T13", "T14", "T15", "C4"]},
        void={BIGNA: "RT", CURDIN: "RT", DURI: "RT"}, scart=["RQ", "T16"])
    # Tricks 1–5: Anna draws the trumps; the others must follow with trumps.
    for top in ("T21", "T20", "T19", "T18", "T17"):
        state = play(state, ANNA, top)
        for _ in range(3):
            state = first_legal(state)
        assert state.deal.tricks[-1].winner == ANNA
    for seat in (BIGNA, CURDIN, DURI):
        assert not any(c[0] in "RT" for c in hand(state, seat)), seat
    state = play_trick(state, (ANNA, "R5"), (BIGNA, "SK"))
    state = call(state, CURDIN)
    b = _buob(state)
    assert (b.caller, b.suit, b.target, b.mode) == (CURDIN, "S", ANNA, "deferred")
    state = play_trick(state, (CURDIN, "B3"), (DURI, "C4"))
    trick = state.deal.tricks[5]
    assert _cards(trick) == [(ANNA, "SJ"), (BIGNA, "SK"), (CURDIN, "B3"), (DURI, "C4")]
    assert trick.led == "R"  # L does not change
    assert trick.winner == BIGNA
    assert "R5" in hand(state, ANNA)
    assert {"SJ", "SK", "B3", "C4"} <= set(ids_of(state.deal.piles[1]))
    assert state.deal.turn == BIGNA


# --- rejections, in §8 order -------------------------------------------------------------------

@pytest.fixture
def sk_led():
    """Anna leads SK; SJ is Duri's; Bigna holds BK and CK, Curdin BJ."""
    state = setup({ANNA: ["SK", "C5"], BIGNA: ["S4", "BK", "CK"], CURDIN: ["S9", "BJ"],
                   DURI: ["SJ", "S2", "CJ"]})
    return play(state, ANNA, "SK")


@pytest.mark.parametrize("seat", [ANNA, BIGNA, CURDIN, DURI])
def test_s8_rejection_1_no_card_on_the_table_is_trick_not_open(seat):
    state = setup({ANNA: ["SK"], DURI: ["SJ"]})
    assert code_of(state, _call(seat)) == "BUOB_TRICK_NOT_OPEN"
    assert code_of(state, _call(seat, "S")) == "BUOB_TRICK_NOT_OPEN"


def test_s8_rejection_1_trick_not_open_again_after_a_trick_completes(sk_led):
    state = play_trick(sk_led, (BIGNA, "S4"), (CURDIN, "S9"), (DURI, "S2"))
    assert not state.deal.current.cards
    assert code_of(state, _call(BIGNA)) == "BUOB_TRICK_NOT_OPEN"


def test_s8_rejection_2_second_call_in_a_trick_is_already_called(sk_led):
    state = call(sk_led, CURDIN)
    assert code_of(state, _call(BIGNA)) == "BUOB_ALREADY_CALLED"
    assert code_of(state, _call(CURDIN)) == "BUOB_ALREADY_CALLED"


def test_s8_rejection_2_comes_before_the_later_predicates(sk_led):
    state = call(sk_led, CURDIN)
    assert code_of(state, _call(BIGNA, "T")) == "BUOB_ALREADY_CALLED"
    assert code_of(state, _call(BIGNA, "B")) == "BUOB_ALREADY_CALLED"


def test_s8_rejection_3_no_king_on_the_table():
    state = setup({ANNA: ["C5"], DURI: ["SJ"]})
    state = play(state, ANNA, "C5")
    assert code_of(state, _call(BIGNA)) == "BUOB_NO_KING"
    assert code_of(state, _call(BIGNA, "C")) == "BUOB_NO_KING"


def test_s8_rejection_4_king_team_caller_of_the_other_team_is_not_allowed():
    state = setup({ANNA: ["SK"], DURI: ["SJ"]}, options=Options(buob_caller="king_team"))
    state = play(state, ANNA, "SK")
    assert code_of(state, _call(BIGNA)) == "BUOB_NOT_ALLOWED_CALLER"
    assert code_of(state, _call(DURI)) == "BUOB_NOT_ALLOWED_CALLER"


def test_s8_king_team_the_kings_player_and_partner_may_call():
    state = setup({ANNA: ["SK"], DURI: ["SJ"]}, options=Options(buob_caller="king_team"))
    state = play(state, ANNA, "SK")
    assert _buob(call(state, CURDIN)).target == DURI
    assert _buob(call(state, ANNA)).target == DURI


def test_s8_king_team_considers_only_the_callers_teams_kings():
    """§8: with king_team, eligibility, candidates and priority use the caller's team's kings."""
    state = setup({ANNA: ["C5", "BJ"], BIGNA: ["CK"], CURDIN: ["BK"], DURI: ["CJ"]},
                  void={CURDIN: "CT"}, options=Options(buob_caller="king_team"))
    state = play_trick(state, (ANNA, "C5"), (BIGNA, "CK"), (CURDIN, "BK"))
    # For Anna (A) only Curdin's BK counts, although CK is the king of L.
    b = _buob(call(state, ANNA))
    assert (b.suit, b.target, b.mode) == ("B", ANNA, "self")
    assert code_of(state, _call(ANNA, "C")) == "BUOB_SUIT_NOT_CANDIDATE"
    # For Duri (B) only Bigna's CK counts.
    b = _buob(call(state, DURI))
    assert (b.suit, b.target, b.mode) == ("C", DURI, "self")


def test_s8_rejection_5_king_suit_already_led():
    state = setup({ANNA: ["S1", "C5"], BIGNA: ["S10", "SK", "C6"], CURDIN: ["S2"],
                   DURI: ["S3", "SJ"]})
    state = play_trick(state, (ANNA, "S1"), (BIGNA, "S10"), (CURDIN, "S2"), (DURI, "S3"))
    assert "S" in state.deal.led_suits
    state = play(state, BIGNA, "SK")  # Bigna leads trick 2 with the king of a led suit
    assert code_of(state, _call(ANNA)) == "BUOB_KING_SUIT_ALREADY_LED"
    assert code_of(state, _call(ANNA, "S")) == "BUOB_KING_SUIT_ALREADY_LED"  # 5 before 6
    assert code_of(state, _call(ANNA, "T")) == "BUOB_KING_SUIT_ALREADY_LED"


def test_s8_king_team_not_allowed_comes_before_king_suit_already_led():
    state = setup({ANNA: ["S1", "C5"], BIGNA: ["S10", "SK", "C6"], CURDIN: ["S2"],
                   DURI: ["S3", "SJ"]}, options=Options(buob_caller="king_team"))
    state = play_trick(state, (ANNA, "S1"), (BIGNA, "S10"), (CURDIN, "S2"), (DURI, "S3"))
    state = play(state, BIGNA, "SK")
    assert code_of(state, _call(ANNA)) == "BUOB_NOT_ALLOWED_CALLER"
    assert code_of(state, _call(DURI)) == "BUOB_KING_SUIT_ALREADY_LED"


def test_s8_the_current_tricks_own_led_suit_does_not_make_its_king_ineligible(sk_led):
    assert sk_led.deal.current.led == "S"
    assert _buob(call(sk_led, BIGNA)).suit == "S"


def test_s8_rejection_6_named_suit_with_no_king_on_the_table(sk_led):
    assert code_of(sk_led, _call(BIGNA, "B")) == "BUOB_SUIT_NOT_CANDIDATE"
    assert code_of(sk_led, _call(BIGNA, "C")) == "BUOB_SUIT_NOT_CANDIDATE"


@pytest.mark.parametrize("name", ["T", "s", "NARR", "", "SK"])
def test_s8_rejection_6_a_string_that_is_not_a_suit_is_never_a_candidate(sk_led, name):
    assert code_of(sk_led, _call(BIGNA, name)) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_rejection_6_named_suit_already_led_while_another_king_is_eligible():
    # Trick 1 (swords) goes to Bigna; in trick 2 she leads SK, Curdin discards BK.
    state = setup({ANNA: ["S1", "BJ"], BIGNA: ["S10", "SK"], CURDIN: ["C1", "BK"],
                   DURI: ["S3", "SJ"]}, void={CURDIN: "ST"})
    state = play_trick(state, (ANNA, "S1"), (BIGNA, "S10"), (CURDIN, "C1"), (DURI, "S3"))
    state = play_trick(state, (BIGNA, "SK"), (CURDIN, "BK"))
    assert code_of(state, _call(DURI, "S")) == "BUOB_SUIT_NOT_CANDIDATE"
    assert _buob(call(state, DURI)).suit == "B"


def test_s8_rejection_6_named_suit_whose_jack_is_in_the_scart():
    state = setup({ANNA: ["SK"]}, scart=["SJ", "C1"])
    state = play(state, ANNA, "SK")
    assert code_of(state, _call(BIGNA, "S")) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_rejection_7_no_suit_named_and_the_jack_is_in_the_scart():
    state = setup({ANNA: ["SK"]}, scart=["SJ", "C1"])
    state = play(state, ANNA, "SK")
    assert code_of(state, _call(BIGNA)) == "BUOB_NO_TARGET"
    assert code_of(state, _call(DURI)) == "BUOB_NO_TARGET"  # the dealer knows; still no target


def test_s8_rejection_7_the_jack_held_by_the_kings_own_player_has_no_target():
    state = setup({ANNA: ["SK", "SJ"]})
    state = play(state, ANNA, "SK")
    assert code_of(state, _call(BIGNA)) == "BUOB_NO_TARGET"
    assert code_of(state, _call(ANNA)) == "BUOB_NO_TARGET"
    assert code_of(state, _call(BIGNA, "S")) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_rejection_7_the_jack_already_played_has_no_target():
    # Trick 1 (cups): Bigna, void in cups and trumps, discards SJ; Anna's C5 wins.
    # Trick 2: Anna leads SK; swords were never led, but SJ is gone.
    state = setup({ANNA: ["C5", "SK"], BIGNA: ["SJ"], CURDIN: ["C6"], DURI: ["C7"]},
                  void={BIGNA: "CT"})
    state = play_trick(state, (ANNA, "C5"), (BIGNA, "SJ"), (CURDIN, "C6"), (DURI, "C7"))
    assert state.deal.tricks[0].winner == ANNA and "S" not in state.deal.led_suits
    state = play(state, ANNA, "SK")
    assert code_of(state, _call(CURDIN)) == "BUOB_NO_TARGET"
    assert code_of(state, _call(CURDIN, "S")) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_rejection_7_the_jack_in_this_trick_has_no_target():
    state = setup({ANNA: ["SJ"], BIGNA: ["SK"]})
    state = play_trick(state, (ANNA, "SJ"), (BIGNA, "SK"))
    assert code_of(state, _call(CURDIN)) == "BUOB_NO_TARGET"


def test_s8_a_rejected_call_does_not_use_up_the_tricks_call(sk_led):
    assert code_of(sk_led, _call(BIGNA, "B")) == "BUOB_SUIT_NOT_CANDIDATE"
    assert code_of(sk_led, _call(CURDIN, "T")) == "BUOB_SUIT_NOT_CANDIDATE"
    state = call(sk_led, CURDIN)
    assert _buob(state).target == DURI


def test_s12_call_buob_outside_play_is_wrong_phase():
    state = dealt(deck_for(DURI, {ANNA: ["SK"]}), DURI)
    assert code_of(state, _call(ANNA)) == "WRONG_PHASE"


# --- forced jack, attached calls ---------------------------------------------------------------

def test_s8_forced_jack_is_legal_against_the_follow_rule():
    """Cups led; Bigna (void in cups and trumps) discards SK with call_buob; Curdin holds SJ and
    cups → FORCED: his only legal card is SJ, cups and the Narr are refused."""
    state = setup({ANNA: ["C5"], BIGNA: ["SK"], CURDIN: ["SJ", "C6", "NARR"]},
                  void={BIGNA: "CT"})
    state = play(state, ANNA, "C5")
    state = play(state, BIGNA, "SK", call_buob=True)
    assert (_buob(state).target, _buob(state).mode) == (CURDIN, "forced")
    assert legal_cards(state, CURDIN) == ["SJ"]
    assert code_of(state, _play(CURDIN, "C6")) == "BUOB_FORCED_JACK"
    assert code_of(state, _play(CURDIN, "NARR")) == "BUOB_FORCED_JACK"
    state = play(state, CURDIN, "SJ")
    assert state.deal.current.cards[-1] == (CURDIN, INDEX["SJ"])


def test_s12_forced_jack_is_checked_after_card_not_in_hand():
    state = setup({ANNA: ["C5"], BIGNA: ["SK"], CURDIN: ["SJ"]}, void={BIGNA: "CT"})
    state = play(state, ANNA, "C5")
    state = play(state, BIGNA, "SK", call_buob=True)
    assert code_of(state, _play(CURDIN, "C5")) == "CARD_NOT_IN_HAND"
    assert code_of(state, _play(CURDIN, "C55")) == "UNKNOWN_CARD"


def test_s8_attached_call_on_the_4th_card():
    """The only way to call when a king is the 4th card: Duri plays SK last with call_buob;
    SJ is Bigna's, who played S3 → DEFERRED, resolved at once: SK wins with SJ captured."""
    state = setup({ANNA: ["S2"], BIGNA: ["S3", "SJ"], CURDIN: ["S4"], DURI: ["SK"]})
    state = play_trick(state, (ANNA, "S2"), (BIGNA, "S3"), (CURDIN, "S4"))
    state = play(state, DURI, "SK", call_buob=True)
    trick = state.deal.tricks[0]
    assert (trick.buob.caller, trick.buob.target, trick.buob.mode) == (DURI, BIGNA, "deferred")
    assert _cards(trick) == [(ANNA, "S2"), (BIGNA, "SJ"), (CURDIN, "S4"), (DURI, "SK")]
    assert trick.winner == DURI
    assert "S3" in hand(state, BIGNA)


def test_s8_attached_call_that_fails_rejects_the_whole_play():
    """Duri plays SK with call_buob while holding SJ himself: BUOB_NO_TARGET rejects the play,
    SK stays in his hand and it is still his turn."""
    state = setup({ANNA: ["S2"], BIGNA: ["S3"], CURDIN: ["S4"], DURI: ["SK", "SJ"]})
    state = play_trick(state, (ANNA, "S2"), (BIGNA, "S3"), (CURDIN, "S4"))
    before = state
    assert code_of(state, _play(DURI, "SK", call_buob=True)) == "BUOB_NO_TARGET"
    assert state == before
    assert "SK" in hand(state, DURI) and state.deal.turn == DURI
    assert len(state.deal.current.cards) == 3 and state.deal.current.buob is None
    # Without the call the same card is accepted.
    assert play(state, DURI, "SK").deal.tricks[0].winner == DURI


def test_s8_attached_call_is_checked_after_the_cards_own_checks():
    state = setup({ANNA: ["C5"], BIGNA: ["SK", "C6"]})
    state = play(state, ANNA, "C5")
    assert code_of(state, _play(BIGNA, "SK", call_buob=True)) == "MUST_FOLLOW_SUIT"


def test_s8_attached_call_without_a_king_is_no_king():
    state = setup({ANNA: ["C5"], DURI: ["CJ"]})
    assert code_of(state, _play(ANNA, "C5", call_buob=True)) == "BUOB_NO_KING"
    assert "C5" in hand(state, ANNA)


def test_s8_attached_call_sees_the_trick_with_the_card_placed_and_l_set():
    # Anna leads the king: the trick counts as open, L is S, Anna's card is on the table.
    state = setup({ANNA: ["SK"], CURDIN: ["SJ"]})
    state = play(state, ANNA, "SK", call_buob=True)
    assert state.deal.current.led == "S"
    assert (_buob(state).target, _buob(state).mode) == (CURDIN, "forced")


def test_s8_attached_call_on_a_jack_just_played_finds_no_target():
    # The card is no longer in the hand: Bigna's own SJ, just placed, is in this trick.
    state = setup({ANNA: ["SK"], BIGNA: ["SJ"]})
    state = play(state, ANNA, "SK")
    assert code_of(state, _play(BIGNA, "SJ", call_buob=True)) == "BUOB_NO_TARGET"
    assert "SJ" in hand(state, BIGNA)


def test_s8_buob_suit_is_ignored_without_call_buob():
    state = setup({ANNA: ["SK"], DURI: ["SJ"]})
    state = play(state, ANNA, "SK", buob_suit="T")
    assert state.deal.current.buob is None
    state = setup({ANNA: ["SK"], DURI: ["SJ"]})
    state = play(state, ANNA, "SK", call_buob=False, buob_suit="S")
    assert state.deal.current.buob is None


def test_s8_attached_call_with_buob_suit_names_the_suit():
    state = setup({ANNA: ["C5", "CJ"], BIGNA: ["CK"], CURDIN: ["BK"], DURI: ["BJ"]},
                  void={CURDIN: "CT"})
    state = play_trick(state, (ANNA, "C5"), (BIGNA, "CK"))
    state = play(state, CURDIN, "BK", call_buob=True, buob_suit="B")
    assert (_buob(state).suit, _buob(state).target) == ("B", DURI)


def test_s8_forced_target_attaching_a_call_gets_already_called():
    state = setup({ANNA: ["SK"], BIGNA: ["S4"], CURDIN: ["S9"], DURI: ["SJ", "S2"]})
    state = play(state, ANNA, "SK", call_buob=True)
    state = play_trick(state, (BIGNA, "S4"), (CURDIN, "S9"))
    assert code_of(state, _play(DURI, "SJ", call_buob=True)) == "BUOB_ALREADY_CALLED"
    assert "SJ" in hand(state, DURI)


# --- candidates, priority, target ----------------------------------------------------------------

def test_s8_priority_named_suit_before_the_king_of_l(two_kings):
    assert _buob(call(two_kings, ANNA, "B")).suit == "B"


def test_s8_priority_king_of_l_before_the_earliest_king():
    # Cups led; Bigna (void in cups and trumps) discards BK first, then Curdin plays CK.
    state = setup({ANNA: ["C5", "CJ"], BIGNA: ["BK"], CURDIN: ["CK"], DURI: ["BJ"]},
                  void={BIGNA: "CT"})
    state = play_trick(state, (ANNA, "C5"), (BIGNA, "BK"), (CURDIN, "CK"))
    b = _buob(call(state, DURI))
    assert (b.suit, b.target, b.mode) == ("C", ANNA, "deferred")


def test_s8_priority_earliest_king_when_the_king_of_l_is_not_a_candidate():
    # As above, but CJ lies in the scart: CK is no candidate, so the earlier BK is chosen.
    state = setup({ANNA: ["C5"], BIGNA: ["BK"], CURDIN: ["CK"], DURI: ["BJ"]},
                  void={BIGNA: "CT"}, scart=["CJ", "R10"])
    state = play_trick(state, (ANNA, "C5"), (BIGNA, "BK"), (CURDIN, "CK"))
    b = _buob(call(state, ANNA))
    assert (b.suit, b.target, b.mode) == ("B", DURI, "forced")


def test_s8_priority_earliest_candidate_king_when_l_has_no_king():
    # Coins led; Bigna discards BK (she holds BJ herself: no candidate), Curdin discards SK.
    state = setup({ANNA: ["R5"], BIGNA: ["BK", "BJ"], CURDIN: ["SK", "CK"], DURI: ["SJ", "CJ"]},
                  void={BIGNA: "RT", CURDIN: "RT"})
    state = play_trick(state, (ANNA, "R5"), (BIGNA, "BK"), (CURDIN, "SK"))
    b = _buob(call(state, ANNA))
    assert (b.suit, b.target) == ("S", DURI)


def test_s8_priority_earliest_king_among_two_candidates():
    state = setup({ANNA: ["R5"], BIGNA: ["BK"], CURDIN: ["SK"], DURI: ["SJ", "BJ"]},
                  void={BIGNA: "RT", CURDIN: "RT"})
    state = play_trick(state, (ANNA, "R5"), (BIGNA, "BK"), (CURDIN, "SK"))
    assert _buob(call(state, ANNA)).suit == "B"


def test_s8_the_kings_own_player_is_never_the_target():
    state = setup({ANNA: ["SK", "SJ"]})
    assert code_of(state, _play(ANNA, "SK", call_buob=True)) == "BUOB_NO_TARGET"


def test_s8_the_partner_of_the_kings_player_may_be_the_target():
    state = setup({ANNA: ["SK"], CURDIN: ["SJ"]})
    state = play(state, ANNA, "SK", call_buob=True)
    b = _buob(state)
    assert (b.caller, b.target, b.mode) == (ANNA, CURDIN, "forced")


def test_s8_self_call_before_the_caller_has_played():
    # Curdin holds SJ and calls before his turn: SELF; he then follows with S9, which returns.
    state = setup({ANNA: ["SK"], BIGNA: ["S4"], CURDIN: ["SJ", "S9"], DURI: ["S2"]})
    state = play(state, ANNA, "SK")
    state = call(state, CURDIN)
    assert (_buob(state).target, _buob(state).mode) == (CURDIN, "self")
    state = play_trick(state, (BIGNA, "S4"), (CURDIN, "S9"), (DURI, "S2"))
    trick = state.deal.tricks[0]
    assert _cards(trick)[2] == (CURDIN, "SJ")
    assert trick.buob.returned_card == INDEX["S9"]
    assert "S9" in hand(state, CURDIN)


def test_s8_self_caller_who_plays_the_jack_itself_returns_nothing():
    state = setup({ANNA: ["SK"], BIGNA: ["S4"], CURDIN: ["SJ", "S9"], DURI: ["S2"]})
    state = play(state, ANNA, "SK")
    state = call(state, CURDIN)
    state = play_trick(state, (BIGNA, "S4"), (CURDIN, "SJ"), (DURI, "S2"))
    trick = state.deal.tricks[0]
    assert trick.buob.returned_card is None
    assert "S9" in hand(state, CURDIN)


def test_s8_self_call_after_the_caller_has_played():
    # Anna leads S4, Bigna plays SK; Anna, who holds SJ, calls → SELF although she has played.
    state = setup({ANNA: ["S4", "SJ"], BIGNA: ["SK"], CURDIN: ["S9"], DURI: ["S2"]})
    state = play_trick(state, (ANNA, "S4"), (BIGNA, "SK"))
    state = call(state, ANNA)
    assert (_buob(state).target, _buob(state).mode) == (ANNA, "self")
    state = play_trick(state, (CURDIN, "S9"), (DURI, "S2"))
    trick = state.deal.tricks[0]
    assert _cards(trick)[0] == (ANNA, "SJ")
    assert trick.buob.returned_card == INDEX["S4"]
    assert trick.winner == BIGNA
    assert "S4" in hand(state, ANNA)


def test_s8_a_null_suit_names_no_suit(two_kings):
    state = do(two_kings, {"type": "call_buob", "seat": CURDIN, "suit": None})
    assert _buob(state).suit == "C"
    state = do(two_kings, {"type": "play_card", "seat": DURI, "card": "CJ", "call_buob": True,
                           "buob_suit": None})
    # CJ is now in this trick, so CK is no candidate: BK, whose jack is Anna's, is chosen.
    assert (_buob(state).suit, _buob(state).target, _buob(state).mode) == ("B", ANNA, "forced")


def test_s8_a_call_does_not_move_the_turn(sk_led):
    assert sk_led.deal.turn == BIGNA
    state = call(sk_led, DURI)
    assert state.deal.turn == BIGNA
    assert len(state.deal.current.cards) == 1


# --- §8 as written, checked against the engine on many random tables ----------------------------

def _rules_call(state, caller, named):
    """RULES §8 read literally: the code a CALL_BUOB gets, or (suit, target, mode)."""
    deal, opts = state.deal, state.options
    trick = deal.current
    if trick is None or not trick.cards:
        return "BUOB_TRICK_NOT_OPEN"
    if trick.buob is not None:
        return "BUOB_ALREADY_CALLED"
    ids = [(s, ids_of(1 << c)[0]) for s, c in trick.cards]
    kings = [(s, c) for s, c in ids if c in ("CK", "RK", "SK", "BK")]
    if not kings:
        return "BUOB_NO_KING"
    if opts.buob_caller == "king_team":
        kings = [(s, c) for s, c in kings if s % 2 == caller % 2]
        if not kings:
            return "BUOB_NOT_ALLOWED_CALLER"
    led_before = {t.led for t in deal.tricks}
    eligible = [(s, c) for s, c in kings if c[0] not in led_before]
    if not eligible:
        return "BUOB_KING_SUIT_ALREADY_LED"
    candidates = []
    for s, c in eligible:
        holders = [h for h in range(4) if c[0] + "J" in hand(state, h)]
        if holders and holders[0] != s:
            candidates.append((c[0], holders[0]))
    if named is not None:
        chosen = [cand for cand in candidates if cand[0] == named]
        if not chosen:
            return "BUOB_SUIT_NOT_CANDIDATE"
        suit, target = chosen[0]
    else:
        if not candidates:
            return "BUOB_NO_TARGET"
        of_l = [cand for cand in candidates if cand[0] == trick.led]
        suit, target = (of_l or candidates)[0]
    played = {s for s, _ in trick.cards}
    mode = "self" if target == caller else "deferred" if target in played else "forced"
    return (suit, target, mode)


@pytest.mark.parametrize("buob_caller", ["any", "king_team"])
def test_s8_every_call_on_random_tables_follows_the_rules_as_written(buob_caller):
    """Seeded random play; at every open trick each seat tries every call (no suit, C R S B,
    and "T"), and the engine must answer exactly what §8 read literally answers."""
    import random
    from collections import Counter

    from games.engine import RuleError, new_match_state
    from games.engine.playout import random_action

    rng = random.Random(8 if buob_caller == "any" else 88)
    state = new_match_state(Options(buob_caller=buob_caller, match_deals=0), 0)
    seen: Counter[str] = Counter()
    tables = 0
    while tables < 3000:
        if state.phase == "PLAY" and state.deal.current.cards:
            tables += 1
            accepted = []
            for caller in range(4):
                for named in (None, "C", "R", "S", "B", "T"):
                    expected = _rules_call(state, caller, named)
                    try:
                        new, _ = apply(state, {"type": "call_buob", "seat": caller,
                                               "suit": named})
                        b = new.deal.current.buob
                        got = (b.suit, b.target, b.mode)
                        accepted.append(new)
                    except RuleError as e:
                        got = e.code
                    assert got == expected, (_show(state), caller, named)
                    seen[got if isinstance(got, str) else got[2]] += 1
            if accepted and rng.random() < 0.5:
                state = rng.choice(accepted)  # play on with the call (exchanges happen)
                continue
        try:
            state, _ = apply(state, random_action(state, rng, buob_rate=0.0))
        except RuleError:
            pass
    assert set(seen) >= {"BUOB_ALREADY_CALLED", "BUOB_NO_KING", "BUOB_KING_SUIT_ALREADY_LED",
                         "BUOB_SUIT_NOT_CANDIDATE", "BUOB_NO_TARGET", "forced", "deferred",
                         "self"}, seen
    if buob_caller == "king_team":
        assert seen["BUOB_NOT_ALLOWED_CALLER"] > 0


def _show(state):
    deal = state.deal
    return {"trick": [(s, ids_of(1 << c)[0]) for s, c in deal.current.cards],
            "led_before": deal.led_suits, "hands": [hand(state, s) for s in range(4)]}
