"""RULES.md §8 — BUOB: the five worked examples, every rejection in order, attached calls,
candidate priority and the target rule.

Personas (tests/personas.py) in the worked examples: the owner (seat 0, A), Anna (1, B),
Benedetg (2, A) and Curdin (3, B), who deals, so the owner leads trick 1.
"""

from __future__ import annotations

import contextlib

import pytest

from games.engine import Options, apply, event_to_json, legal_cards
from games.engine.cards import INDEX, ids_of

from .helpers import (
    ANNA,
    BENEDETG,
    CURDIN,
    OWNER,
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
    """§8 example 1: the owner leads SK with call_buob; SJ is Curdin's → FORCED; Curdin's S2 is
    rejected with BUOB_FORCED_JACK, he plays SJ; SK wins and A captures SK S4 S9 SJ."""
    state = setup({OWNER: ["SK"], ANNA: ["S4"], BENEDETG: ["S9"], CURDIN: ["SJ", "S2"]})
    state, events = apply(state, _play(OWNER, "SK", call_buob=True))
    b = _buob(state)
    assert (b.caller, b.suit, b.target, b.mode) == (OWNER, "S", CURDIN, "forced")
    called = [event_to_json(e) for e in events if e.kind == "buob_called"]
    assert called and called[0]["target"] == CURDIN and called[0]["mode"] == "forced"
    state = play_trick(state, (ANNA, "S4"), (BENEDETG, "S9"))
    assert legal_cards(state, CURDIN) == ["SJ"]
    assert code_of(state, _play(CURDIN, "S2")) == "BUOB_FORCED_JACK"
    state = play(state, CURDIN, "SJ")
    trick = state.deal.tricks[0]
    assert trick.winner == OWNER
    assert set(ids_of(state.deal.piles[0])) == {"SK", "S4", "S9", "SJ"}
    assert state.deal.piles[1] == 0


def test_s8_example_2_deferred():
    """§8 example 2: swords never led; Benedetg leads S3, Curdin S8, the owner SK, Benedetg
    calls; SJ is Curdin's, who played S8 → DEFERRED; Anna S6; S8 returns to Curdin, SJ takes its
    slot: S3 SJ SK S6 → SK (the owner) wins."""
    state = setup({OWNER: ["R10", "SK"], ANNA: ["R9", "S6"], BENEDETG: ["RK", "S3"],
                   CURDIN: ["R8", "S8", "SJ"]})
    state = play_trick(state, (OWNER, "R10"), (ANNA, "R9"), (BENEDETG, "RK"), (CURDIN, "R8"))
    assert state.deal.tricks[0].winner == BENEDETG and "S" not in state.deal.led_suits
    state = play_trick(state, (BENEDETG, "S3"), (CURDIN, "S8"), (OWNER, "SK"))
    state = call(state, BENEDETG)  # Anna is on turn; Benedetg calls all the same
    b = _buob(state)
    assert (b.caller, b.suit, b.target, b.mode) == (BENEDETG, "S", CURDIN, "deferred")
    state, events = apply(state, _play(ANNA, "S6"))
    trick = state.deal.tricks[1]
    assert _cards(trick) == [(BENEDETG, "S3"), (CURDIN, "SJ"), (OWNER, "SK"), (ANNA, "S6")]
    assert trick.winner == OWNER
    assert trick.buob.returned_card == INDEX["S8"]
    assert "S8" in hand(state, CURDIN) and "SJ" not in hand(state, CURDIN)
    resolved = [event_to_json(e) for e in events if e.kind == "buob_resolved"]
    assert resolved[0]["returned_card"] == "S8" and resolved[0]["jack"] == "SJ"
    assert len({len(hand(state, s)) for s in range(4)}) == 1


def test_s8_example_3_self():
    """§8 example 3: coins never led; Anna leads C7, Benedetg C1, Curdin (void in cups and trumps)
    discards RK; the owner holds RJ and calls → SELF; she follows with C10; C10 returns to her and
    RJ goes in: C7 C1 RK RJ → C1 (Benedetg) wins; A takes RK and RJ."""
    state = setup({OWNER: ["S1", "RJ", "C10"], ANNA: ["S10", "C7"], BENEDETG: ["S2", "C1"],
                   CURDIN: ["S3", "RK"]}, void={CURDIN: "CT"})
    state = play_trick(state, (OWNER, "S1"), (ANNA, "S10"), (BENEDETG, "S2"), (CURDIN, "S3"))
    assert state.deal.tricks[0].winner == ANNA and "R" not in state.deal.led_suits
    state = play_trick(state, (ANNA, "C7"), (BENEDETG, "C1"), (CURDIN, "RK"))
    state = call(state, OWNER)
    b = _buob(state)
    assert (b.caller, b.suit, b.target, b.mode) == (OWNER, "R", OWNER, "self")
    state = play(state, OWNER, "C10")
    trick = state.deal.tricks[1]
    assert _cards(trick) == [(ANNA, "C7"), (BENEDETG, "C1"), (CURDIN, "RK"), (OWNER, "RJ")]
    assert trick.winner == BENEDETG
    assert "C10" in hand(state, OWNER) and "RJ" not in hand(state, OWNER)
    assert {"RK", "RJ", "C7", "C1"} <= set(ids_of(state.deal.piles[0]))


@pytest.fixture
def two_kings():
    """§8 example 4: Anna leads CK, Benedetg (void in cups and trumps) discards BK.
    CJ is Curdin's, BJ is the owner's."""
    state = setup({OWNER: ["S1", "BJ"], ANNA: ["S10", "CK"], BENEDETG: ["S2", "BK"],
                   CURDIN: ["S3", "CJ"]}, void={BENEDETG: "CT"})
    state = play_trick(state, (OWNER, "S1"), (ANNA, "S10"), (BENEDETG, "S2"), (CURDIN, "S3"))
    return play_trick(state, (ANNA, "CK"), (BENEDETG, "BK"))


def test_s8_example_4_call_without_suit_targets_the_cj_holder(two_kings):
    b = _buob(call(two_kings, BENEDETG))
    assert (b.suit, b.target, b.mode) == ("C", CURDIN, "forced")


def test_s8_example_4_call_naming_b_targets_the_bj_holder(two_kings):
    b = _buob(call(two_kings, BENEDETG, "B"))
    assert (b.suit, b.target, b.mode) == ("B", OWNER, "forced")


def test_s8_example_4_call_naming_s_is_suit_not_candidate(two_kings):
    assert code_of(two_kings, _call(BENEDETG, "S")) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_example_5_fallback_winner():
    """§8 example 5: the owner leads R5; Anna, Benedetg and Curdin hold no coins and no trumps;
    Anna discards SK, Benedetg calls (SJ is the owner's, already played → DEFERRED), Benedetg and
    Curdin play B3, C4; R5 returns to the owner: no coin and no trump left, so SK (Anna, team B)
    wins."""
    coins = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "RJ", "RN", "RK"]
    state = setup(
        {OWNER: ["T17", "T18", "T19", "T20", "T21", "SJ", *coins],
         ANNA: ["T1", "T2", "T3", "T4", "T5", "SK"],
         BENEDETG: ["T6", "T7", "T8", "T9", "T10", "B3"],
         CURDIN: ["T11", "T12", "T13", "T14", "T15", "C4"]},
        void={ANNA: "RT", BENEDETG: "RT", CURDIN: "RT"}, scart=["RQ", "T16"])
    # Tricks 1–5: the owner draws the trumps; the others must follow with trumps.
    for top in ("T21", "T20", "T19", "T18", "T17"):
        state = play(state, OWNER, top)
        for _ in range(3):
            state = first_legal(state)
        assert state.deal.tricks[-1].winner == OWNER
    for seat in (ANNA, BENEDETG, CURDIN):
        assert not any(c[0] in "RT" for c in hand(state, seat)), seat
    state = play_trick(state, (OWNER, "R5"), (ANNA, "SK"))
    state = call(state, BENEDETG)
    b = _buob(state)
    assert (b.caller, b.suit, b.target, b.mode) == (BENEDETG, "S", OWNER, "deferred")
    state = play_trick(state, (BENEDETG, "B3"), (CURDIN, "C4"))
    trick = state.deal.tricks[5]
    assert _cards(trick) == [(OWNER, "SJ"), (ANNA, "SK"), (BENEDETG, "B3"), (CURDIN, "C4")]
    assert trick.led == "R"  # L does not change
    assert trick.winner == ANNA
    assert "R5" in hand(state, OWNER)
    assert {"SJ", "SK", "B3", "C4"} <= set(ids_of(state.deal.piles[1]))
    assert state.deal.turn == ANNA


# --- rejections, in §8 order -------------------------------------------------------------------

@pytest.fixture
def sk_led():
    """The owner leads SK; SJ is Curdin's; Anna holds BK and CK, Benedetg BJ."""
    state = setup({OWNER: ["SK", "C5"], ANNA: ["S4", "BK", "CK"], BENEDETG: ["S9", "BJ"],
                   CURDIN: ["SJ", "S2", "CJ"]})
    return play(state, OWNER, "SK")


@pytest.mark.parametrize("seat", [OWNER, ANNA, BENEDETG, CURDIN])
def test_s8_rejection_1_no_card_on_the_table_is_trick_not_open(seat):
    state = setup({OWNER: ["SK"], CURDIN: ["SJ"]})
    assert code_of(state, _call(seat)) == "BUOB_TRICK_NOT_OPEN"
    assert code_of(state, _call(seat, "S")) == "BUOB_TRICK_NOT_OPEN"


def test_s8_rejection_1_trick_not_open_again_after_a_trick_completes(sk_led):
    state = play_trick(sk_led, (ANNA, "S4"), (BENEDETG, "S9"), (CURDIN, "S2"))
    assert not state.deal.current.cards
    assert code_of(state, _call(ANNA)) == "BUOB_TRICK_NOT_OPEN"


def test_s8_rejection_2_second_call_in_a_trick_is_already_called(sk_led):
    state = call(sk_led, BENEDETG)
    assert code_of(state, _call(ANNA)) == "BUOB_ALREADY_CALLED"
    assert code_of(state, _call(BENEDETG)) == "BUOB_ALREADY_CALLED"


def test_s8_rejection_2_comes_before_the_later_predicates(sk_led):
    state = call(sk_led, BENEDETG)
    assert code_of(state, _call(ANNA, "T")) == "BUOB_ALREADY_CALLED"
    assert code_of(state, _call(ANNA, "B")) == "BUOB_ALREADY_CALLED"


def test_s8_rejection_3_no_king_on_the_table():
    state = setup({OWNER: ["C5"], CURDIN: ["SJ"]})
    state = play(state, OWNER, "C5")
    assert code_of(state, _call(ANNA)) == "BUOB_NO_KING"
    assert code_of(state, _call(ANNA, "C")) == "BUOB_NO_KING"


def test_s8_rejection_4_king_team_caller_of_the_other_team_is_not_allowed():
    state = setup({OWNER: ["SK"], CURDIN: ["SJ"]}, options=Options(buob_caller="king_team"))
    state = play(state, OWNER, "SK")
    assert code_of(state, _call(ANNA)) == "BUOB_NOT_ALLOWED_CALLER"
    assert code_of(state, _call(CURDIN)) == "BUOB_NOT_ALLOWED_CALLER"


def test_s8_king_team_the_kings_player_and_partner_may_call():
    state = setup({OWNER: ["SK"], CURDIN: ["SJ"]}, options=Options(buob_caller="king_team"))
    state = play(state, OWNER, "SK")
    assert _buob(call(state, BENEDETG)).target == CURDIN
    assert _buob(call(state, OWNER)).target == CURDIN


def test_s8_king_team_considers_only_the_callers_teams_kings():
    """§8: with king_team, eligibility, candidates and priority use the caller's team's kings."""
    state = setup({OWNER: ["C5", "BJ"], ANNA: ["CK"], BENEDETG: ["BK"], CURDIN: ["CJ"]},
                  void={BENEDETG: "CT"}, options=Options(buob_caller="king_team"))
    state = play_trick(state, (OWNER, "C5"), (ANNA, "CK"), (BENEDETG, "BK"))
    # For the owner (A) only Benedetg's BK counts, although CK is the king of L.
    b = _buob(call(state, OWNER))
    assert (b.suit, b.target, b.mode) == ("B", OWNER, "self")
    assert code_of(state, _call(OWNER, "C")) == "BUOB_SUIT_NOT_CANDIDATE"
    # For Curdin (B) only Anna's CK counts.
    b = _buob(call(state, CURDIN))
    assert (b.suit, b.target, b.mode) == ("C", CURDIN, "self")


def test_s8_rejection_5_king_suit_already_led():
    state = setup({OWNER: ["S1", "C5"], ANNA: ["S10", "SK", "C6"], BENEDETG: ["S2"],
                   CURDIN: ["S3", "SJ"]})
    state = play_trick(state, (OWNER, "S1"), (ANNA, "S10"), (BENEDETG, "S2"), (CURDIN, "S3"))
    assert "S" in state.deal.led_suits
    state = play(state, ANNA, "SK")  # Anna leads trick 2 with the king of a led suit
    assert code_of(state, _call(OWNER)) == "BUOB_KING_SUIT_ALREADY_LED"
    assert code_of(state, _call(OWNER, "S")) == "BUOB_KING_SUIT_ALREADY_LED"  # 5 before 6
    assert code_of(state, _call(OWNER, "T")) == "BUOB_KING_SUIT_ALREADY_LED"


def test_s8_king_team_not_allowed_comes_before_king_suit_already_led():
    state = setup({OWNER: ["S1", "C5"], ANNA: ["S10", "SK", "C6"], BENEDETG: ["S2"],
                   CURDIN: ["S3", "SJ"]}, options=Options(buob_caller="king_team"))
    state = play_trick(state, (OWNER, "S1"), (ANNA, "S10"), (BENEDETG, "S2"), (CURDIN, "S3"))
    state = play(state, ANNA, "SK")
    assert code_of(state, _call(OWNER)) == "BUOB_NOT_ALLOWED_CALLER"
    assert code_of(state, _call(CURDIN)) == "BUOB_KING_SUIT_ALREADY_LED"


def test_s8_the_current_tricks_own_led_suit_does_not_make_its_king_ineligible(sk_led):
    assert sk_led.deal.current.led == "S"
    assert _buob(call(sk_led, ANNA)).suit == "S"


def test_s8_rejection_6_named_suit_with_no_king_on_the_table(sk_led):
    assert code_of(sk_led, _call(ANNA, "B")) == "BUOB_SUIT_NOT_CANDIDATE"
    assert code_of(sk_led, _call(ANNA, "C")) == "BUOB_SUIT_NOT_CANDIDATE"


@pytest.mark.parametrize("name", ["T", "s", "NARR", "", "SK"])
def test_s8_rejection_6_a_string_that_is_not_a_suit_is_never_a_candidate(sk_led, name):
    assert code_of(sk_led, _call(ANNA, name)) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_rejection_6_named_suit_already_led_while_another_king_is_eligible():
    # Trick 1 (swords) goes to Anna; in trick 2 she leads SK, Benedetg discards BK.
    state = setup({OWNER: ["S1", "BJ"], ANNA: ["S10", "SK"], BENEDETG: ["C1", "BK"],
                   CURDIN: ["S3", "SJ"]}, void={BENEDETG: "ST"})
    state = play_trick(state, (OWNER, "S1"), (ANNA, "S10"), (BENEDETG, "C1"), (CURDIN, "S3"))
    state = play_trick(state, (ANNA, "SK"), (BENEDETG, "BK"))
    assert code_of(state, _call(CURDIN, "S")) == "BUOB_SUIT_NOT_CANDIDATE"
    assert _buob(call(state, CURDIN)).suit == "B"


def test_s8_rejection_6_named_suit_whose_jack_is_in_the_scart():
    state = setup({OWNER: ["SK"]}, scart=["SJ", "C1"])
    state = play(state, OWNER, "SK")
    assert code_of(state, _call(ANNA, "S")) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_rejection_7_no_suit_named_and_the_jack_is_in_the_scart():
    state = setup({OWNER: ["SK"]}, scart=["SJ", "C1"])
    state = play(state, OWNER, "SK")
    assert code_of(state, _call(ANNA)) == "BUOB_NO_TARGET"
    assert code_of(state, _call(CURDIN)) == "BUOB_NO_TARGET"  # the dealer knows; still no target


def test_s8_rejection_7_the_jack_held_by_the_kings_own_player_has_no_target():
    state = setup({OWNER: ["SK", "SJ"]})
    state = play(state, OWNER, "SK")
    assert code_of(state, _call(ANNA)) == "BUOB_NO_TARGET"
    assert code_of(state, _call(OWNER)) == "BUOB_NO_TARGET"
    assert code_of(state, _call(ANNA, "S")) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_rejection_7_the_jack_already_played_has_no_target():
    # Trick 1 (cups): Anna, void in cups and trumps, discards SJ; the owner's C5 wins.
    # Trick 2: the owner leads SK; swords were never led, but SJ is gone.
    state = setup({OWNER: ["C5", "SK"], ANNA: ["SJ"], BENEDETG: ["C6"], CURDIN: ["C7"]},
                  void={ANNA: "CT"})
    state = play_trick(state, (OWNER, "C5"), (ANNA, "SJ"), (BENEDETG, "C6"), (CURDIN, "C7"))
    assert state.deal.tricks[0].winner == OWNER and "S" not in state.deal.led_suits
    state = play(state, OWNER, "SK")
    assert code_of(state, _call(BENEDETG)) == "BUOB_NO_TARGET"
    assert code_of(state, _call(BENEDETG, "S")) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_rejection_7_the_jack_in_this_trick_has_no_target():
    state = setup({OWNER: ["SJ"], ANNA: ["SK"]})
    state = play_trick(state, (OWNER, "SJ"), (ANNA, "SK"))
    assert code_of(state, _call(BENEDETG)) == "BUOB_NO_TARGET"


def test_s8_a_rejected_call_does_not_use_up_the_tricks_call(sk_led):
    assert code_of(sk_led, _call(ANNA, "B")) == "BUOB_SUIT_NOT_CANDIDATE"
    assert code_of(sk_led, _call(BENEDETG, "T")) == "BUOB_SUIT_NOT_CANDIDATE"
    state = call(sk_led, BENEDETG)
    assert _buob(state).target == CURDIN


def test_s12_call_buob_outside_play_is_wrong_phase():
    state = dealt(deck_for(CURDIN, {OWNER: ["SK"]}), CURDIN)
    assert code_of(state, _call(OWNER)) == "WRONG_PHASE"


# --- forced jack, attached calls ---------------------------------------------------------------

def test_s8_forced_jack_is_legal_against_the_follow_rule():
    """Cups led; Anna (void in cups and trumps) discards SK with call_buob; Benedetg holds SJ and
    cups → FORCED: his only legal card is SJ, cups and the Narr are refused."""
    state = setup({OWNER: ["C5"], ANNA: ["SK"], BENEDETG: ["SJ", "C6", "NARR"]},
                  void={ANNA: "CT"})
    state = play(state, OWNER, "C5")
    state = play(state, ANNA, "SK", call_buob=True)
    assert (_buob(state).target, _buob(state).mode) == (BENEDETG, "forced")
    assert legal_cards(state, BENEDETG) == ["SJ"]
    assert code_of(state, _play(BENEDETG, "C6")) == "BUOB_FORCED_JACK"
    assert code_of(state, _play(BENEDETG, "NARR")) == "BUOB_FORCED_JACK"
    state = play(state, BENEDETG, "SJ")
    assert state.deal.current.cards[-1] == (BENEDETG, INDEX["SJ"])


def test_s12_forced_jack_is_checked_after_card_not_in_hand():
    state = setup({OWNER: ["C5"], ANNA: ["SK"], BENEDETG: ["SJ"]}, void={ANNA: "CT"})
    state = play(state, OWNER, "C5")
    state = play(state, ANNA, "SK", call_buob=True)
    assert code_of(state, _play(BENEDETG, "C5")) == "CARD_NOT_IN_HAND"
    assert code_of(state, _play(BENEDETG, "C55")) == "UNKNOWN_CARD"


def test_s8_attached_call_on_the_4th_card():
    """The only way to call when a king is the 4th card: Curdin plays SK last with call_buob;
    SJ is Anna's, who played S3 → DEFERRED, resolved at once: SK wins with SJ captured."""
    state = setup({OWNER: ["S2"], ANNA: ["S3", "SJ"], BENEDETG: ["S4"], CURDIN: ["SK"]})
    state = play_trick(state, (OWNER, "S2"), (ANNA, "S3"), (BENEDETG, "S4"))
    state = play(state, CURDIN, "SK", call_buob=True)
    trick = state.deal.tricks[0]
    assert (trick.buob.caller, trick.buob.target, trick.buob.mode) == (CURDIN, ANNA, "deferred")
    assert _cards(trick) == [(OWNER, "S2"), (ANNA, "SJ"), (BENEDETG, "S4"), (CURDIN, "SK")]
    assert trick.winner == CURDIN
    assert "S3" in hand(state, ANNA)


def test_s8_attached_call_that_fails_rejects_the_whole_play():
    """Curdin plays SK with call_buob while holding SJ himself: BUOB_NO_TARGET rejects the play,
    SK stays in his hand and it is still his turn."""
    state = setup({OWNER: ["S2"], ANNA: ["S3"], BENEDETG: ["S4"], CURDIN: ["SK", "SJ"]})
    state = play_trick(state, (OWNER, "S2"), (ANNA, "S3"), (BENEDETG, "S4"))
    before = state
    assert code_of(state, _play(CURDIN, "SK", call_buob=True)) == "BUOB_NO_TARGET"
    assert state == before
    assert "SK" in hand(state, CURDIN) and state.deal.turn == CURDIN
    assert len(state.deal.current.cards) == 3 and state.deal.current.buob is None
    # Without the call the same card is accepted.
    assert play(state, CURDIN, "SK").deal.tricks[0].winner == CURDIN


def test_s8_attached_call_is_checked_after_the_cards_own_checks():
    state = setup({OWNER: ["C5"], ANNA: ["SK", "C6"]})
    state = play(state, OWNER, "C5")
    assert code_of(state, _play(ANNA, "SK", call_buob=True)) == "MUST_FOLLOW_SUIT"


def test_s8_attached_call_without_a_king_is_no_king():
    state = setup({OWNER: ["C5"], CURDIN: ["CJ"]})
    assert code_of(state, _play(OWNER, "C5", call_buob=True)) == "BUOB_NO_KING"
    assert "C5" in hand(state, OWNER)


def test_s8_attached_call_sees_the_trick_with_the_card_placed_and_l_set():
    # The owner leads the king: the trick counts as open, L is S, the owner's card is on the table.
    state = setup({OWNER: ["SK"], BENEDETG: ["SJ"]})
    state = play(state, OWNER, "SK", call_buob=True)
    assert state.deal.current.led == "S"
    assert (_buob(state).target, _buob(state).mode) == (BENEDETG, "forced")


def test_s8_attached_call_on_a_jack_just_played_finds_no_target():
    # The card is no longer in the hand: Anna's own SJ, just placed, is in this trick.
    state = setup({OWNER: ["SK"], ANNA: ["SJ"]})
    state = play(state, OWNER, "SK")
    assert code_of(state, _play(ANNA, "SJ", call_buob=True)) == "BUOB_NO_TARGET"
    assert "SJ" in hand(state, ANNA)


def test_s8_buob_suit_is_ignored_without_call_buob():
    state = setup({OWNER: ["SK"], CURDIN: ["SJ"]})
    state = play(state, OWNER, "SK", buob_suit="T")
    assert state.deal.current.buob is None
    state = setup({OWNER: ["SK"], CURDIN: ["SJ"]})
    state = play(state, OWNER, "SK", call_buob=False, buob_suit="S")
    assert state.deal.current.buob is None


def test_s8_attached_call_with_buob_suit_names_the_suit():
    state = setup({OWNER: ["C5", "CJ"], ANNA: ["CK"], BENEDETG: ["BK"], CURDIN: ["BJ"]},
                  void={BENEDETG: "CT"})
    state = play_trick(state, (OWNER, "C5"), (ANNA, "CK"))
    state = play(state, BENEDETG, "BK", call_buob=True, buob_suit="B")
    assert (_buob(state).suit, _buob(state).target) == ("B", CURDIN)


def test_s8_forced_target_attaching_a_call_gets_already_called():
    state = setup({OWNER: ["SK"], ANNA: ["S4"], BENEDETG: ["S9"], CURDIN: ["SJ", "S2"]})
    state = play(state, OWNER, "SK", call_buob=True)
    state = play_trick(state, (ANNA, "S4"), (BENEDETG, "S9"))
    assert code_of(state, _play(CURDIN, "SJ", call_buob=True)) == "BUOB_ALREADY_CALLED"
    assert "SJ" in hand(state, CURDIN)


# --- candidates, priority, target ----------------------------------------------------------------

def test_s8_priority_named_suit_before_the_king_of_l(two_kings):
    assert _buob(call(two_kings, OWNER, "B")).suit == "B"


def test_s8_priority_king_of_l_before_the_earliest_king():
    # Cups led; Anna (void in cups and trumps) discards BK first, then Benedetg plays CK.
    state = setup({OWNER: ["C5", "CJ"], ANNA: ["BK"], BENEDETG: ["CK"], CURDIN: ["BJ"]},
                  void={ANNA: "CT"})
    state = play_trick(state, (OWNER, "C5"), (ANNA, "BK"), (BENEDETG, "CK"))
    b = _buob(call(state, CURDIN))
    assert (b.suit, b.target, b.mode) == ("C", OWNER, "deferred")


def test_s8_priority_earliest_king_when_the_king_of_l_is_not_a_candidate():
    # As above, but CJ lies in the scart: CK is no candidate, so the earlier BK is chosen.
    state = setup({OWNER: ["C5"], ANNA: ["BK"], BENEDETG: ["CK"], CURDIN: ["BJ"]},
                  void={ANNA: "CT"}, scart=["CJ", "R10"])
    state = play_trick(state, (OWNER, "C5"), (ANNA, "BK"), (BENEDETG, "CK"))
    b = _buob(call(state, OWNER))
    assert (b.suit, b.target, b.mode) == ("B", CURDIN, "forced")


def test_s8_priority_earliest_candidate_king_when_l_has_no_king():
    # Coins led; Anna discards BK (she holds BJ herself: no candidate), Benedetg discards SK.
    state = setup({OWNER: ["R5"], ANNA: ["BK", "BJ"], BENEDETG: ["SK", "CK"], CURDIN: ["SJ", "CJ"]},
                  void={ANNA: "RT", BENEDETG: "RT"})
    state = play_trick(state, (OWNER, "R5"), (ANNA, "BK"), (BENEDETG, "SK"))
    b = _buob(call(state, OWNER))
    assert (b.suit, b.target) == ("S", CURDIN)


def test_s8_priority_earliest_king_among_two_candidates():
    state = setup({OWNER: ["R5"], ANNA: ["BK"], BENEDETG: ["SK"], CURDIN: ["SJ", "BJ"]},
                  void={ANNA: "RT", BENEDETG: "RT"})
    state = play_trick(state, (OWNER, "R5"), (ANNA, "BK"), (BENEDETG, "SK"))
    assert _buob(call(state, OWNER)).suit == "B"


def test_s8_the_kings_own_player_is_never_the_target():
    state = setup({OWNER: ["SK", "SJ"]})
    assert code_of(state, _play(OWNER, "SK", call_buob=True)) == "BUOB_NO_TARGET"


def test_s8_the_partner_of_the_kings_player_may_be_the_target():
    state = setup({OWNER: ["SK"], BENEDETG: ["SJ"]})
    state = play(state, OWNER, "SK", call_buob=True)
    b = _buob(state)
    assert (b.caller, b.target, b.mode) == (OWNER, BENEDETG, "forced")


def test_s8_self_call_before_the_caller_has_played():
    # Benedetg holds SJ and calls before his turn: SELF; he then follows with S9, which returns.
    state = setup({OWNER: ["SK"], ANNA: ["S4"], BENEDETG: ["SJ", "S9"], CURDIN: ["S2"]})
    state = play(state, OWNER, "SK")
    state = call(state, BENEDETG)
    assert (_buob(state).target, _buob(state).mode) == (BENEDETG, "self")
    state = play_trick(state, (ANNA, "S4"), (BENEDETG, "S9"), (CURDIN, "S2"))
    trick = state.deal.tricks[0]
    assert _cards(trick)[2] == (BENEDETG, "SJ")
    assert trick.buob.returned_card == INDEX["S9"]
    assert "S9" in hand(state, BENEDETG)


def test_s8_self_caller_who_plays_the_jack_itself_returns_nothing():
    state = setup({OWNER: ["SK"], ANNA: ["S4"], BENEDETG: ["SJ", "S9"], CURDIN: ["S2"]})
    state = play(state, OWNER, "SK")
    state = call(state, BENEDETG)
    state = play_trick(state, (ANNA, "S4"), (BENEDETG, "SJ"), (CURDIN, "S2"))
    trick = state.deal.tricks[0]
    assert trick.buob.returned_card is None
    assert "S9" in hand(state, BENEDETG)


def test_s8_self_call_after_the_caller_has_played():
    # The owner leads S4, Anna plays SK; the owner, who holds SJ, calls → SELF although she has
    # played.
    state = setup({OWNER: ["S4", "SJ"], ANNA: ["SK"], BENEDETG: ["S9"], CURDIN: ["S2"]})
    state = play_trick(state, (OWNER, "S4"), (ANNA, "SK"))
    state = call(state, OWNER)
    assert (_buob(state).target, _buob(state).mode) == (OWNER, "self")
    state = play_trick(state, (BENEDETG, "S9"), (CURDIN, "S2"))
    trick = state.deal.tricks[0]
    assert _cards(trick)[0] == (OWNER, "SJ")
    assert trick.buob.returned_card == INDEX["S4"]
    assert trick.winner == ANNA
    assert "S4" in hand(state, OWNER)


def test_s8_a_null_suit_names_no_suit(two_kings):
    state = do(two_kings, {"type": "call_buob", "seat": BENEDETG, "suit": None})
    assert _buob(state).suit == "C"
    state = do(two_kings, {"type": "play_card", "seat": CURDIN, "card": "CJ", "call_buob": True,
                           "buob_suit": None})
    # CJ is now in this trick, so CK is no candidate: BK, whose jack is the owner's, is chosen.
    assert (_buob(state).suit, _buob(state).target, _buob(state).mode) == ("B", OWNER, "forced")


def test_s8_a_call_does_not_move_the_turn(sk_led):
    assert sk_led.deal.turn == ANNA
    state = call(sk_led, CURDIN)
    assert state.deal.turn == ANNA
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
        with contextlib.suppress(RuleError):
            state, _ = apply(state, random_action(state, rng, buob_rate=0.0))
    assert set(seen) >= {"BUOB_ALREADY_CALLED", "BUOB_NO_KING", "BUOB_KING_SUIT_ALREADY_LED",
                         "BUOB_SUIT_NOT_CANDIDATE", "BUOB_NO_TARGET", "forced", "deferred",
                         "self"}, seen
    if buob_caller == "king_team":
        assert seen["BUOB_NOT_ALLOWED_CALLER"] > 0


def _show(state):
    deal = state.deal
    return {"trick": [(s, ids_of(1 << c)[0]) for s, c in deal.current.cards],
            "led_before": deal.led_suits, "hands": [hand(state, s) for s in range(4)]}
