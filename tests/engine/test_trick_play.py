"""RULES.md §7 — trick play: turn order, legal cards, the Narr's exemption, trick winners."""

from __future__ import annotations

import pytest

from games.engine import Options, legal_cards
from games.engine.cards import INDEX, points
from games.engine.state import NarrDebt, team_of

from .helpers import (
    ANNA,
    BENEDETG,
    CANONICAL_DECK,
    CURDIN,
    OWNER,
    code_of,
    hand,
    in_play,
    play,
    play_trick,
    setup,
)


def _play(seat, card):
    return {"type": "play_card", "seat": seat, "card": card}


@pytest.fixture
def vector():
    """The §5 deal (Curdin deals and discards R9 R10); the owner leads trick 1.

    The owner: C1–C6 RJ RN RQ RK S1 S2 B7–B10 BJ BN BQ · Anna: C7–C10 CJ CN S3–S8 BK T1–T6 ·
    Benedetg: CQ CK R1–R4 S9 S10 SJ SN SQ SK T7–T13 · Curdin: R5–R8 B1–B6 T14–T21 NARR.
    """
    return in_play(CANONICAL_DECK, ["R9", "R10"], dealer=CURDIN)


# --- turn order --------------------------------------------------------------------------------

@pytest.mark.parametrize("seat", [ANNA, BENEDETG, CURDIN])
def test_s7_out_of_turn_is_not_your_turn(vector, seat):
    card = hand(vector, seat)[0]
    assert code_of(vector, _play(seat, card)) == "NOT_YOUR_TURN"


def test_s7_order_inside_a_trick_is_leader_then_next_next_next(vector):
    state = play(vector, OWNER, "C1")
    assert state.deal.turn == ANNA
    assert code_of(state, _play(OWNER, "C2")) == "NOT_YOUR_TURN"
    assert code_of(state, _play(BENEDETG, "CQ")) == "NOT_YOUR_TURN"
    state = play(state, ANNA, "C7")
    assert state.deal.turn == BENEDETG
    state = play(state, BENEDETG, "CQ")
    assert state.deal.turn == CURDIN


def test_s12_not_your_turn_is_checked_before_the_cards_own_checks(vector):
    assert code_of(vector, _play(ANNA, "XX")) == "NOT_YOUR_TURN"


def test_s12_unknown_card_id_is_unknown_card(vector):
    assert code_of(vector, _play(OWNER, "C11")) == "UNKNOWN_CARD"


def test_s12_card_not_in_hand(vector):
    assert code_of(vector, _play(OWNER, "C7")) == "CARD_NOT_IN_HAND"


def test_s7_the_leader_may_play_any_card(vector):
    assert legal_cards(vector, OWNER) == hand(vector, OWNER)
    assert legal_cards(vector, ANNA) == []  # not on turn


# --- following -----------------------------------------------------------------------------------

def test_s7_must_follow_suit_when_holding_the_led_suit(vector):
    state = play(vector, OWNER, "C1")
    assert code_of(state, _play(ANNA, "S3")) == "MUST_FOLLOW_SUIT"
    assert code_of(state, _play(ANNA, "T1")) == "MUST_FOLLOW_SUIT"  # no trumping either
    assert legal_cards(state, ANNA) == ["C7", "C8", "C9", "C10", "CJ", "CN"]
    assert play(state, ANNA, "C10").deal.current.cards[-1] == (ANNA, INDEX["C10"])


def test_s7_narr_is_exempt_from_following_suit(vector):
    state = play_trick(vector, (OWNER, "B7"), (ANNA, "BK"), (BENEDETG, "T7"))
    assert "NARR" in legal_cards(state, CURDIN)
    assert "B1" in legal_cards(state, CURDIN)
    assert code_of(state, _play(CURDIN, "R5")) == "MUST_FOLLOW_SUIT"
    state = play(state, CURDIN, "NARR")  # Curdin holds batons and still may play the Narr
    assert state.deal.tricks[-1].cards[-1] == (CURDIN, INDEX["NARR"])


def test_s7_must_trump_when_void_in_the_led_suit(vector):
    state = play_trick(vector, (OWNER, "C1"), (ANNA, "C7"), (BENEDETG, "CQ"))
    assert code_of(state, _play(CURDIN, "R5")) == "MUST_PLAY_TRUMP"
    assert code_of(state, _play(CURDIN, "B1")) == "MUST_PLAY_TRUMP"
    assert legal_cards(state, CURDIN) == [f"T{n}" for n in range(14, 22)] + ["NARR"]


def test_s7_narr_is_exempt_from_trumping(vector):
    state = play_trick(vector, (OWNER, "C1"), (ANNA, "C7"), (BENEDETG, "CQ"))
    state = play(state, CURDIN, "NARR")
    assert state.deal.tricks[-1].winner == BENEDETG


def test_s7_no_duty_to_overtrump():
    state = setup({OWNER: ["C5"], ANNA: ["T10"], BENEDETG: ["T2", "T20"]},
                  void={ANNA: "C", BENEDETG: "C"})
    state = play_trick(state, (OWNER, "C5"), (ANNA, "T10"))
    assert "T2" in legal_cards(state, BENEDETG)
    state = play(state, BENEDETG, "T2")  # under the T10 on the table, though holding T20
    assert state.deal.current.cards[-1] == (BENEDETG, INDEX["T2"])


def test_s7_no_duty_to_beat_the_cards_of_the_led_suit():
    state = setup({OWNER: ["C5"], ANNA: ["C1", "C10"]})
    state = play(state, OWNER, "C5")
    state = play(state, ANNA, "C10")  # holds C1, which would win; C10 is still legal
    assert state.deal.current.cards[-1] == (ANNA, INDEX["C10"])


def test_s7_free_discard_when_void_in_the_led_suit_and_in_trumps():
    state = setup({OWNER: ["C5"], BENEDETG: ["SK", "NARR"]}, void={BENEDETG: "CT"})
    state = play(state, OWNER, "C5")
    state = play(state, ANNA, legal_cards(state, ANNA)[0])
    assert legal_cards(state, BENEDETG) == hand(state, BENEDETG)
    state = play(state, BENEDETG, "SK")
    assert state.deal.current.cards[-1] == (BENEDETG, INDEX["SK"])


def test_s7_trump_led_the_others_follow_with_trumps():
    state = setup({OWNER: ["T3"], ANNA: ["T1", "C7"]}, void={ANNA: "N"})
    state = play(state, OWNER, "T3")
    assert state.deal.current.led == "T"
    assert code_of(state, _play(ANNA, "C7")) == "MUST_FOLLOW_SUIT"
    assert all(c.startswith("T") for c in legal_cards(state, ANNA))
    assert play(state, ANNA, "T1").deal.turn == BENEDETG


def test_s7_narr_led_second_card_is_free_and_sets_the_led_suit():
    state = setup({OWNER: ["NARR"], ANNA: ["S5", "C7"], BENEDETG: ["S9", "C8"]})
    state = play(state, OWNER, "NARR")
    assert state.deal.current.led is None
    assert legal_cards(state, ANNA) == hand(state, ANNA)
    state = play(state, ANNA, "S5")  # Anna holds cups and trumps; the second card is free
    assert state.deal.current.led == "S"
    assert code_of(state, _play(BENEDETG, "C8")) == "MUST_FOLLOW_SUIT"
    assert all(c.startswith("S") or c == "NARR" for c in legal_cards(state, BENEDETG))


def test_s7_the_narr_never_wins_a_trick():
    state = setup({OWNER: ["NARR"], ANNA: ["S1"], BENEDETG: ["S2"], CURDIN: ["S3"]},
                  void={BENEDETG: "T", CURDIN: "T"})
    state = play_trick(state, (OWNER, "NARR"), (ANNA, "S1"), (BENEDETG, "S2"), (CURDIN, "S3"))
    assert state.deal.tricks[0].winner == CURDIN


# --- winners --------------------------------------------------------------------------------------

def test_s7_round_suit_numeral_1_beats_10_and_the_winner_leads_next():
    state = setup({OWNER: ["C10"], ANNA: ["C1"], BENEDETG: ["C9"], CURDIN: ["C7"]})
    state = play_trick(state, (OWNER, "C10"), (ANNA, "C1"), (BENEDETG, "C9"), (CURDIN, "C7"))
    assert state.deal.tricks[0].winner == ANNA
    assert state.deal.turn == ANNA and state.deal.current.leader == ANNA
    assert state.deal.current.number == 2


def test_s7_round_suit_court_cards_beat_numerals_cavalier_beats_jack():
    state = setup({OWNER: ["C1"], ANNA: ["CJ"], BENEDETG: ["C2"], CURDIN: ["CN"]})
    state = play_trick(state, (OWNER, "C1"), (ANNA, "CJ"), (BENEDETG, "C2"), (CURDIN, "CN"))
    assert state.deal.tricks[0].winner == CURDIN


def test_s7_long_suit_numeral_10_beats_1():
    state = setup({OWNER: ["S1"], ANNA: ["S10"], BENEDETG: ["S3"], CURDIN: ["S9"]})
    state = play_trick(state, (OWNER, "S1"), (ANNA, "S10"), (BENEDETG, "S3"), (CURDIN, "S9"))
    assert state.deal.tricks[0].winner == ANNA


def test_s7_long_suit_jack_beats_10_cavalier_beats_jack():
    state = setup({OWNER: ["B10"], ANNA: ["BJ"], BENEDETG: ["B9"], CURDIN: ["B1"]})
    state = play_trick(state, (OWNER, "B10"), (ANNA, "BJ"), (BENEDETG, "B9"), (CURDIN, "B1"))
    assert state.deal.tricks[0].winner == ANNA
    state = setup({OWNER: ["B10"], ANNA: ["BJ"], BENEDETG: ["BN"], CURDIN: ["B1"]})
    state = play_trick(state, (OWNER, "B10"), (ANNA, "BJ"), (BENEDETG, "BN"), (CURDIN, "B1"))
    assert state.deal.tricks[0].winner == BENEDETG


def test_s7_off_suit_cards_never_win():
    state = setup({OWNER: ["R10"], ANNA: ["SK"], BENEDETG: ["R9"]}, void={ANNA: "RT"})
    state = play_trick(state, (OWNER, "R10"), (ANNA, "SK"), (BENEDETG, "R9"))
    state = play(state, CURDIN, legal_cards(state, CURDIN)[0])
    assert state.deal.tricks[0].winner != ANNA


def test_s7_trump_beats_a_higher_off_suit_king():
    state = setup({OWNER: ["C5"], ANNA: ["CK"], BENEDETG: ["T1"], CURDIN: ["C6"]},
                  void={BENEDETG: "C"})
    state = play_trick(state, (OWNER, "C5"), (ANNA, "CK"), (BENEDETG, "T1"), (CURDIN, "C6"))
    assert state.deal.tricks[0].winner == BENEDETG


def test_s7_highest_trump_wins_when_several_trumps():
    state = setup({OWNER: ["C5"], ANNA: ["T10"], BENEDETG: ["T2"]}, void={ANNA: "C", BENEDETG: "C"})
    state = play_trick(state, (OWNER, "C5"), (ANNA, "T10"), (BENEDETG, "T2"))
    state = play(state, CURDIN, legal_cards(state, CURDIN)[0])
    winner_card = dict(state.deal.tricks[0].cards)[state.deal.tricks[0].winner]
    assert max(c for _, c in state.deal.tricks[0].cards if 56 <= c <= 76) == winner_card


def test_s7_led_suit_is_recorded_after_the_trick():
    state = setup({OWNER: ["C10"], ANNA: ["C1"], BENEDETG: ["C9"], CURDIN: ["C7"]})
    state = play_trick(state, (OWNER, "C10"), (ANNA, "C1"), (BENEDETG, "C9"), (CURDIN, "C7"))
    assert "C" in state.deal.led_suits


def test_s7_hand_sizes_stay_equal_after_each_trick(vector):
    state = play_trick(vector, (OWNER, "C1"), (ANNA, "C7"), (BENEDETG, "CQ"), (CURDIN, "T14"))
    assert [len(hand(state, s)) for s in range(4)] == [18, 18, 18, 18]


def test_s12_play_card_outside_play_is_wrong_phase_before_the_turn_check():
    from .helpers import dealt
    state = dealt(CANONICAL_DECK, CURDIN)
    assert code_of(state, _play(OWNER, "C1")) == "WRONG_PHASE"
    assert code_of(state, _play(ANNA, "C7")) == "WRONG_PHASE"


# --- §7 as written, checked against the engine on many random deals ------------------------------

def _rules_legal(state, seat):
    """RULES §7's legal(hand, trick, seat), read literally."""
    deal = state.deal
    mine = hand(state, seat)
    b = deal.current.buob
    if b is not None and b.mode == "forced" and b.target == seat:
        return [b.suit + "J"]
    led = deal.current.led
    if led is None:
        return mine
    follow = [c for c in mine if c != "NARR" and c[0] == led]
    narr = [c for c in mine if c == "NARR"]
    if follow:
        return follow + narr
    trumps = [c for c in mine if c.startswith("T")]
    return trumps + narr if trumps else mine


def _strength(card):
    from games.engine.cards import strength
    return strength(INDEX[card])


def _rules_complete(pre, post, seat, card):
    """RULES §7 'completing a trick' and §9, from the state before the 4th card."""
    from games.engine.cards import ids_of

    deal = pre.deal
    cards = [(s, ids_of(1 << c)[0]) for s, c in deal.current.cards] + [(seat, card)]
    led = next(c[0] for _, c in cards if c != "NARR")
    hands = {s: set(hand(pre, s)) for s in range(4)}
    hands[seat].discard(card)
    b = post.deal.tricks[-1].buob  # which call was accepted is test_buob's business
    if b is not None and b.mode != "forced":
        jack = b.suit + "J"
        i = next(k for k, (s, _) in enumerate(cards) if s == b.target)
        x = cards[i][1]
        if x != jack:
            cards[i] = (b.target, jack)
            hands[b.target] = (hands[b.target] - {jack}) | {x}
    trumps = [(s, c) for s, c in cards if c.startswith("T")]
    of_l = [(s, c) for s, c in cards if c != "NARR" and c[0] == led]
    if trumps:
        winner = max(trumps, key=lambda sc: _strength(sc[1]))[0]
    elif of_l:
        winner = max(of_l, key=lambda sc: _strength(sc[1]))[0]
    else:
        winner = next(s for s, c in cards if c == b.suit + "K")
    piles = {t: set(ids_of(deal.piles["AB".index(t)])) for t in "AB"}
    wteam = team_of(winner)
    debt = deal.narr_debt
    for s, c in cards:
        if c == "NARR" and deal.current.number < 19:
            owner = team_of(s)
            piles[owner].add(c)
            if owner != wteam:
                debt = ("pending", owner, wteam, deal.current.number)
        else:
            piles[wteam].add(c)
    if isinstance(debt, NarrDebt):
        debt = (debt.status, debt.debtor, debt.creditor, debt.trick)
    if debt is not None and debt[0] == "pending":
        payable = sorted((c for c in piles[debt[1]]
                          if c != "NARR" and points(INDEX[c]) == 1), key=INDEX.__getitem__)
        if payable:
            piles[debt[1]].discard(payable[0])
            piles[debt[2]].add(payable[0])
            debt = ("settled", debt[1], debt[2], debt[3])
    return winner, cards, hands, piles, debt


def test_s7_every_trick_of_random_deals_follows_the_rules_as_written():
    import random

    from games.engine import RuleError, apply, new_match_state
    from games.engine.cards import ids_of
    from games.engine.playout import random_action

    rng = random.Random(7)
    state = new_match_state(Options(match_deals=0), 0)
    tricks = 0
    while tricks < 1500:
        if state.phase == "PLAY":
            turn = state.deal.turn
            assert legal_cards(state, turn) == sorted(_rules_legal(state, turn),
                                                      key=INDEX.__getitem__)
        action = random_action(state, rng, buob_rate=0.4)
        try:
            new, _ = apply(state, action)
        except RuleError:
            continue
        if (state.phase == "PLAY" and action["type"] in ("play_card", "turn_timeout")
                and len(state.deal.current.cards) == 3):
            seat = state.deal.turn
            card = action.get("card") or _timeout_card(state)
            winner, cards, hands, piles, debt = _rules_complete(state, new, seat, card)
            done = new.deal.tricks[-1]
            assert done.winner == winner
            assert [(s, ids_of(1 << c)[0]) for s, c in done.cards] == cards
            if done.number < 19:
                assert {s: set(hand(new, s)) for s in range(4)} == hands
                assert {t: set(ids_of(new.deal.piles["AB".index(t)])) for t in "AB"} == piles
                nd = new.deal.narr_debt
                assert (None if nd is None else (nd.status, nd.debtor, nd.creditor, nd.trick)) \
                    == debt
            tricks += 1
        state = new


def _timeout_card(pre):
    """§12: the legal card of lowest point value, ties lowest index."""
    legal = legal_cards(pre, pre.deal.turn)
    return min(legal, key=lambda c: (points(INDEX[c]), INDEX[c]))
