"""The view carries the refusal (issue #23 item 5; RULES.md §7, §8, §12, §13).

Beside its legal cards, a seat's view says why every other card of its own hand cannot be
played now: `refusal = {code, cards, suit}`. The code is the one `apply` raises for such a card
(checked card by card below: one source of legality), `cards` are the cards the rule asks for
instead, all of them from the seat's own hand, and never a card of another seat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import Options, RuleError, apply, new_match_state, view
from games.engine.playout import random_action, random_options
from games.engine.state import DEALING, REVEAL, SCART, MatchState

from .helpers import (
    ANNA,
    BENEDETG,
    CANONICAL_DECK,
    CURDIN,
    OWNER,
    dealt,
    do,
    hand,
    in_play,
    play,
    setup,
    started,
)


@pytest.fixture
def vector() -> MatchState:
    """The §5 deal (Curdin deals and discards R9 R10); the owner leads trick 1.

    The owner: C1–C6 RJ RN RQ RK S1 S2 B7–B10 BJ BN BQ · Anna: C7–C10 CJ CN S3–S8 BK T1–T6 ·
    Benedetg: CQ CK R1–R4 S9 S10 SJ SN SQ SK T7–T13 · Curdin: R5–R8 B1–B6 T14–T21 NARR.
    """
    return in_play(CANONICAL_DECK, ["R9", "R10"], dealer=CURDIN)


def refused(state: MatchState, seat: int) -> list[str]:
    """The cards of `seat`'s hand its view does not offer to play."""
    v = view(state, seat)
    return [c for c in v["hand"] if c not in v["legal_cards"]]


def apply_code(state: MatchState, seat: int, card: str) -> str:
    try:
        apply(state, {"type": "play_card", "seat": seat, "card": card})
    except RuleError as exc:
        return exc.code
    raise AssertionError(f"{card} was accepted for seat {seat}")


def assert_one_source(state: MatchState, seat: int) -> dict[str, Any] | None:
    """Every refused card is refused by `apply` with the view's code; the named cards are the
    seat's own."""
    v = view(state, seat)
    r = v["refusal"]
    cards = refused(state, seat)
    if r is None:
        assert not cards or state.phase == SCART, (cards, r)
        return None
    assert set(r["cards"]) <= set(v["hand"]), "a refusal names only the seat's own cards"
    if state.phase != SCART or seat != state.deal.dealer:  # type: ignore[union-attr]
        for card in cards:
            assert apply_code(state, seat, card) == r["code"], card
    return r


# --- RULES §7: follow suit, trump, the Narr ---------------------------------------------------

def test_s7_must_follow_suit_names_the_seats_cards_of_the_suit_led(vector):
    state = play(vector, OWNER, "C1")
    r = assert_one_source(state, ANNA)
    assert r == {"code": "MUST_FOLLOW_SUIT", "cards": ["C7", "C8", "C9", "C10", "CJ", "CN"],
                 "suit": "C"}
    assert set(refused(state, ANNA)) == set(hand(state, ANNA)) - set(r["cards"])


def test_s7_must_play_trump_names_the_seats_trumps(vector):
    state = play(vector, OWNER, "RK")  # Anna holds no coins
    r = assert_one_source(state, ANNA)
    assert r == {"code": "MUST_PLAY_TRUMP", "cards": ["T1", "T2", "T3", "T4", "T5", "T6"],
                 "suit": "R"}


def test_s7_a_trump_led_is_followed_with_trumps():
    state = setup({OWNER: ["T2"], ANNA: ["T3", "C5"]})
    state = play(state, OWNER, "T2")
    r = assert_one_source(state, ANNA)
    assert r is not None and r["code"] == "MUST_FOLLOW_SUIT" and r["suit"] == "T"
    assert "T3" in r["cards"] and "C5" in refused(state, ANNA)


def test_s7_the_narr_is_exempt_never_refused_and_never_named():
    state = setup({OWNER: ["R1"], ANNA: ["T3", "NARR"]}, void={ANNA: "R"})
    state = play(state, OWNER, "R1")
    r = assert_one_source(state, ANNA)
    assert r is not None and r["code"] == "MUST_PLAY_TRUMP"
    assert "NARR" in view(state, ANNA)["legal_cards"]
    assert "NARR" not in r["cards"] and "NARR" not in refused(state, ANNA)


def test_s7_a_narr_led_leaves_the_second_card_free():
    state = setup({ANNA: ["NARR", "RK"], BENEDETG: ["C2", "T7"]}, dealer=OWNER)
    state = play(state, ANNA, "NARR")
    assert view(state, BENEDETG)["refusal"] is None
    assert refused(state, BENEDETG) == []


def test_s7_void_in_the_suit_led_and_in_trumps_refuses_nothing():
    state = setup({OWNER: ["R1"]}, void={ANNA: "RT"})
    state = play(state, OWNER, "R1")
    assert view(state, ANNA)["refusal"] is None and refused(state, ANNA) == []


def test_s7_the_leader_may_lead_any_card(vector):
    assert view(vector, OWNER)["refusal"] is None


# --- RULES §8: the forced jack -----------------------------------------------------------------

def test_s8_a_forced_target_may_play_only_the_called_jack():
    state = setup({OWNER: ["SK"], ANNA: ["S4"], BENEDETG: ["S9"], CURDIN: ["SJ", "S2", "NARR"]})
    state = apply(state, {"type": "play_card", "seat": OWNER, "card": "SK",
                          "call_buob": True})[0]
    state = play(play(state, ANNA, "S4"), BENEDETG, "S9")
    r = assert_one_source(state, CURDIN)
    assert r == {"code": "BUOB_FORCED_JACK", "cards": ["SJ"], "suit": None}
    assert "NARR" in refused(state, CURDIN) and "S2" in refused(state, CURDIN)


# --- RULES §12: the turn and the phase come first ----------------------------------------------

@pytest.mark.parametrize("seat", [ANNA, BENEDETG, CURDIN])
def test_s12_out_of_turn_every_card_is_not_your_turn(vector, seat):
    r = assert_one_source(vector, seat)
    assert r == {"code": "NOT_YOUR_TURN", "cards": [], "suit": None}
    assert refused(vector, seat) == hand(vector, seat)


def test_s12_a_card_in_dealing_or_reveal_is_the_wrong_phase():
    state = do(started(CANONICAL_DECK), {"type": "deal_next_pass", "seat": CURDIN})
    assert state.phase == DEALING
    for seat in range(4):
        assert assert_one_source(state, seat) == {"code": "WRONG_PHASE", "cards": [],
                                                  "suit": None}
    for _ in range(2):
        state = do(state, {"type": "deal_next_pass", "seat": CURDIN})
    assert state.phase == REVEAL
    assert view(state, OWNER)["refusal"]["code"] == "WRONG_PHASE"


def test_s12_in_the_scart_others_wait_and_the_dealer_is_told_the_forbidden_cards():
    state = dealt(CANONICAL_DECK)
    assert assert_one_source(state, OWNER)["code"] == "WRONG_PHASE"
    v = view(state, CURDIN)
    forbidden = [c for c in v["hand"] if c not in v["actions"]["scart_allowed"]]
    assert forbidden  # Curdin holds T21 and the Narr
    # The refusal names them: the dealer's own cards the rules keep out (issue #28 item 4).
    assert v["refusal"] == {"code": "SCART_FORBIDDEN_CARD", "cards": forbidden, "suit": None}
    for card in forbidden:
        other = next(c for c in v["actions"]["scart_allowed"])
        with pytest.raises(RuleError) as exc:
            apply(state, {"type": "discard_scart", "seat": CURDIN, "cards": [card, other]})
        assert exc.value.code == "SCART_FORBIDDEN_CARD"
    free = dealt(CANONICAL_DECK, options=Options(scart_forbidden="none"))
    assert view(free, CURDIN)["refusal"] is None


def test_s13_spectators_and_empty_hands_carry_no_refusal(vector):
    assert view(vector, None)["refusal"] is None
    assert view(new_match_state(Options(), 0), OWNER)["refusal"] is None


# --- RULES §13: never a card of another seat; one source over random deals ---------------------

def test_s13_random_deals_refusals_name_only_own_cards_and_agree_with_apply():
    rng = random.Random(23)
    seen: set[str] = set()
    for _ in range(30):
        state = new_match_state(random_options(rng), rng.randrange(4))
        for _ in range(600):
            try:
                state = apply(state, random_action(state, rng, buob_rate=0.5))[0]
            except RuleError as exc:
                state = getattr(exc, "state", state)  # a public refusal goes on from its table
                continue
            if state.phase == "MATCH_OVER":
                break
            if rng.random() < 0.2:
                for seat in range(4):
                    r = assert_one_source(state, seat)
                    if r is None:
                        continue
                    seen.add(r["code"])
                    others = {c for s in range(4) if s != seat for c in hand(state, s)}
                    assert not set(r["cards"]) & others, "a card of another seat is named"
    assert seen == {"MUST_FOLLOW_SUIT", "MUST_PLAY_TRUMP", "BUOB_FORCED_JACK", "NOT_YOUR_TURN",
                    "WRONG_PHASE", "SCART_FORBIDDEN_CARD"}, seen
