"""RULES.md §11 — REGAME, match length, END_MATCH, NEW_MATCH and Bock rounds.

Personas (tests/personas.py): the owner (0, A; the room owner in these matches unless said
otherwise), Anna (1, B), Benedetg (2, A), Curdin (3, B).
"""

from __future__ import annotations

import pytest

from games.engine import (
    DEALING,
    LOBBY,
    MATCH_OVER,
    ROUND_OVER,
    Options,
    apply,
    new_match_state,
)

from .helpers import (
    ANNA,
    CANONICAL_DECK,
    CURDIN,
    OWNER,
    all_tricks_at_trick_19,
    code_of,
    dealt,
    do,
    in_play,
    play_last_trick,
    rotated_deck,
    started,
    tie_at_trick_19,
    whole_deal,
)

BOCK = Options(bock=True)


def _regame(state, k=1):
    return do(state, {"type": "regame", "deck": rotated_deck(k)})


def _over(options=None, dealer=OWNER):
    """One complete deal: phase ROUND_OVER (or MATCH_OVER)."""
    return whole_deal(started(CANONICAL_DECK, dealer=dealer, options=options))


def _match_over(options=None, dealer=OWNER):
    state = _over(options or Options(), dealer)
    k = 1
    while state.phase == ROUND_OVER:
        state = whole_deal(_regame(state, k))
        k += 1
    assert state.phase == MATCH_OVER
    return state


# --- REGAME -------------------------------------------------------------------------------------

def test_s11_regame_in_the_lobby_is_wrong_phase():
    state = new_match_state(Options(), first_dealer=OWNER)
    assert code_of(state, {"type": "regame", "deck": CANONICAL_DECK}) == "WRONG_PHASE"


@pytest.mark.parametrize("passes", [0, 1, 2, 3])
def test_s11_regame_while_dealing_or_revealing_is_wrong_phase(passes):
    state = started(CANONICAL_DECK, dealer=CURDIN)
    for _ in range(passes):
        state = do(state, {"type": "deal_next_pass", "seat": CURDIN})
    assert code_of(state, {"type": "regame", "deck": CANONICAL_DECK}) == "WRONG_PHASE"


def test_s11_regame_in_scart_and_play_is_wrong_phase():
    assert code_of(dealt(CANONICAL_DECK), {"type": "regame", "deck": CANONICAL_DECK}) \
        == "WRONG_PHASE"
    assert code_of(in_play(CANONICAL_DECK, ["R5", "R6"]),
                   {"type": "regame", "deck": CANONICAL_DECK}) == "WRONG_PHASE"


def test_s11_regame_after_scoring_moves_the_dealer_and_keeps_the_totals():
    state = _over(dealer=CURDIN)
    assert state.phase == ROUND_OVER
    totals = state.totals
    assert sum(totals) == 72
    state = _regame(state, 5)
    assert state.phase == DEALING
    assert state.dealer == OWNER and state.deal.dealer == OWNER  # next(3) = 0
    assert state.totals == totals
    assert state.deals_played == 1 and state.deal.number == 2
    assert state.deal.hands == (0, 0, 0, 0) and state.deal.passes == 0
    assert list(state.deal.deck) == [CANONICAL_DECK.index(c) for c in rotated_deck(5)]
    assert code_of(state, {"type": "deal_next_pass", "seat": CURDIN}) == "NOT_DEALER"
    assert do(state, {"type": "deal_next_pass", "seat": OWNER}).deal.passes == 1


def test_s11_each_regame_moves_the_dealer_one_seat():
    state = _over(Options(match_deals=0), dealer=2)
    dealers = [state.dealer]
    for k in range(1, 6):
        state = whole_deal(_regame(state, k))
        dealers.append(state.dealer)
    assert dealers == [2, 3, 0, 1, 2, 3]


# --- match length -------------------------------------------------------------------------------

def test_s11_the_deal_that_completes_match_deals_ends_the_match():
    state = _over(Options(match_deals=4), dealer=ANNA)
    for k in range(1, 4):
        assert state.phase == ROUND_OVER and state.deals_played == k
        state = whole_deal(_regame(state, k))
    assert state.phase == MATCH_OVER and state.deals_played == 4
    a, b = state.totals
    assert a + b == 4 * 72
    assert state.winner == ("A" if a > b else "B" if b > a else "draw")


@pytest.mark.parametrize("deals", [8])
def test_s11_match_deals_8_lasts_eight_deals(deals):
    state = _match_over(Options(match_deals=deals))
    assert state.deals_played == deals


def test_s11_equal_totals_are_a_draw():
    state = play_last_trick(tie_at_trick_19(deals_played=3, totals=(100, 100)))
    assert state.phase == MATCH_OVER
    assert state.totals == (136, 136)
    assert state.winner == "draw"


def test_s11_the_higher_total_wins_the_match():
    state = play_last_trick(tie_at_trick_19(deals_played=3, totals=(100, 99)))
    assert (state.phase, state.winner) == (MATCH_OVER, "A")
    state = play_last_trick(all_tricks_at_trick_19(deals_played=3, totals=(100, 200)))
    assert (state.phase, state.winner) == (MATCH_OVER, "B")  # 171 : 201


def test_s11_match_deals_0_never_ends_by_itself():
    state = _over(Options(match_deals=0))
    for k in range(1, 6):
        state = whole_deal(_regame(state, k))
        assert state.phase == ROUND_OVER
    assert state.deals_played == 6


# --- END_MATCH ------------------------------------------------------------------------------------

def test_s11_end_match_with_unlimited_deals_in_round_over_ends_the_match():
    state = _over(Options(match_deals=0))
    state, events = apply(state, {"type": "end_match"})
    assert state.phase == MATCH_OVER
    a, b = state.totals
    assert state.winner == ("A" if a > b else "B" if b > a else "draw")
    assert any(e.kind == "match_over" for e in events)


def test_s11_end_match_with_a_set_number_of_deals_is_wrong_phase():
    state = _over(Options(match_deals=4))
    assert state.phase == ROUND_OVER
    assert code_of(state, {"type": "end_match"}) == "WRONG_PHASE"


def test_s11_end_match_outside_round_over_is_wrong_phase():
    opts = Options(match_deals=0)
    assert code_of(new_match_state(opts, 0), {"type": "end_match"}) == "WRONG_PHASE"
    assert code_of(started(CANONICAL_DECK, options=opts), {"type": "end_match"}) == "WRONG_PHASE"
    assert code_of(in_play(CANONICAL_DECK, ["R5", "R6"], options=opts),
                   {"type": "end_match"}) == "WRONG_PHASE"


def test_s11_end_match_in_match_over_is_wrong_phase():
    state = do(_over(Options(match_deals=0)), {"type": "end_match"})
    assert code_of(state, {"type": "end_match"}) == "WRONG_PHASE"


# --- MATCH_OVER -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def match_over():
    return _match_over(Options(match_deals=4), dealer=ANNA)


def test_s11_regame_in_match_over_is_match_over(match_over):
    assert code_of(match_over, {"type": "regame", "deck": CANONICAL_DECK}) == "MATCH_OVER"


@pytest.mark.parametrize("action", [
    {"type": "start_round", "deck": CANONICAL_DECK},
    {"type": "deal_next_pass", "seat": ANNA},
    {"type": "end_reveal"},
    {"type": "discard_scart", "seat": ANNA, "cards": ["C1", "C2"]},
    {"type": "play_card", "seat": 0, "card": "C1"},
    {"type": "call_buob", "seat": 0},
    {"type": "turn_timeout"},
    {"type": "end_match"},
], ids=lambda a: a["type"])
def test_s11_every_other_action_in_match_over_is_wrong_phase(match_over, action):
    assert code_of(match_over, action) == "WRONG_PHASE"


def test_s11_new_match_resets_totals_deals_and_bock_and_returns_to_the_lobby(match_over):
    state, events = apply(match_over, {"type": "new_match"})
    assert state.phase == LOBBY
    assert state.totals == (0, 0) and state.deals_played == 0 and state.bock_pending == 0
    assert state.winner is None and state.deal is None
    assert any(e.kind == "match_reset" for e in events)


def test_s11_new_match_the_owners_seat_deals_first_again(match_over):
    assert match_over.first_dealer == ANNA
    state = do(match_over, {"type": "new_match"})
    assert state.dealer == ANNA
    state = do(state, {"type": "start_round", "deck": CANONICAL_DECK})
    assert state.deal.dealer == ANNA and state.deal.number == 1
    assert do(state, {"type": "deal_next_pass", "seat": ANNA}).deal.passes == 1


def test_s11_new_match_outside_match_over_is_wrong_phase():
    assert code_of(new_match_state(Options(), 0), {"type": "new_match"}) == "WRONG_PHASE"
    assert code_of(_over(), {"type": "new_match"}) == "WRONG_PHASE"
    assert code_of(in_play(CANONICAL_DECK, ["R5", "R6"]), {"type": "new_match"}) == "WRONG_PHASE"


# --- Bock rounds ----------------------------------------------------------------------------

def test_s11_bock_tie_trigger_starts_a_bock_round_with_the_next_deal():
    state = play_last_trick(tie_at_trick_19(options=BOCK))
    assert state.phase == ROUND_OVER
    assert state.deal.bock_triggered is True
    assert state.bock_pending == 4
    assert state.totals == (36, 36)  # the triggering deal itself counts single
    state = _regame(state)
    assert state.deal.is_bock is True
    assert state.bock_pending == 3


def test_s11_bock_deals_count_double_for_both_teams():
    state = play_last_trick(tie_at_trick_19(options=Options(bock=True, match_deals=0)))
    state = whole_deal(_regame(state))
    a, b = state.deal.points
    assert state.totals == (36 + 2 * a, 36 + 2 * b)


def test_s11_bock_round_lasts_four_deals():
    state = play_last_trick(tie_at_trick_19(options=Options(bock=True, match_deals=0)))
    flags = []
    for k in range(1, 7):
        state = _regame(state, k)
        flags.append(state.deal.is_bock)
        state = whole_deal(state)
        assert not state.deal.bock_triggered  # (the test's decks trigger nothing more)
    assert flags == [True, True, True, True, False, False]
    assert state.bock_pending == 0


def test_s11_bock_all_tricks_trigger():
    state = play_last_trick(all_tricks_at_trick_19(options=BOCK))
    assert [t.winner % 2 for t in state.deal.tricks] == [0] * 19
    assert state.deal.bock_triggered is True
    assert state.bock_pending == 4


def test_s11_bock_trigger_inside_a_bock_round_queues_four_more_multiplier_stays_2():
    state = tie_at_trick_19(options=Options(bock=True, match_deals=0), is_bock=True,
                            bock_pending=2, totals=(10, 10), deals_played=1)
    state, events = apply(state, {"type": "play_card", "seat": 0, "card": "T21"})
    for seat, card in ((1, "C1"), (2, "T20")):
        state, _ = apply(state, {"type": "play_card", "seat": seat, "card": card})
    state, events = apply(state, {"type": "play_card", "seat": 3, "card": "C2"})
    scored = next(e for e in events if e.kind == "deal_scored")
    assert scored.multiplier == 2
    assert state.totals == (10 + 72, 10 + 72)
    assert state.bock_pending == 6
    # Every following Bock deal still counts exactly double.
    state = _regame(state)
    assert state.deal.is_bock and state.bock_pending == 5
    before = state.totals
    state = whole_deal(state)
    assert state.totals == tuple(t + 2 * p for t, p in zip(before, state.deal.points, strict=True))


@pytest.mark.parametrize("triggers,tie_fires,all_fires", [
    ((), False, False),
    (("tie",), True, False),
    (("all_tricks",), False, True),
    (("tie", "all_tricks"), True, True),
])
def test_s11_bock_triggers_option_selects_the_triggers(triggers, tie_fires, all_fires):
    opts = Options(bock=True, bock_triggers=triggers)
    tie = play_last_trick(tie_at_trick_19(options=opts))
    assert tie.deal.bock_triggered is tie_fires
    assert tie.bock_pending == (4 if tie_fires else 0)
    sweep = play_last_trick(all_tricks_at_trick_19(options=opts))
    assert sweep.deal.bock_triggered is all_fires
    assert sweep.bock_pending == (4 if all_fires else 0)


def test_s11_bock_off_no_trigger():
    tie = play_last_trick(tie_at_trick_19(options=Options(bock=False)))
    assert tie.deal.bock_triggered is False and tie.bock_pending == 0
    sweep = play_last_trick(all_tricks_at_trick_19(options=Options(bock=False)))
    assert sweep.deal.bock_triggered is False and sweep.bock_pending == 0
    assert not _regame(tie).deal.is_bock


def test_s11_owed_bock_deals_are_dropped_at_match_end_and_bock_pending_is_kept():
    state = play_last_trick(tie_at_trick_19(options=BOCK, deals_played=3, totals=(50, 60)))
    assert state.phase == MATCH_OVER
    assert state.deals_played == 4
    assert state.bock_pending == 4
    assert code_of(state, {"type": "regame", "deck": CANONICAL_DECK}) == "MATCH_OVER"


def test_s11_bock_round_cut_short_by_the_match_end():
    # Deal 3 ties: deal 4 is a Bock deal, and the match ends after it with 3 Bock deals owed.
    state = play_last_trick(tie_at_trick_19(options=BOCK, deals_played=2))
    assert state.phase == ROUND_OVER and state.bock_pending == 4
    state = _regame(state)
    assert state.deal.is_bock and state.deal.number == 4
    state = whole_deal(state)
    assert state.phase == MATCH_OVER
    assert state.bock_pending == 3


def test_s11_new_match_resets_bock_pending():
    state = play_last_trick(tie_at_trick_19(options=BOCK, deals_played=3))
    assert state.bock_pending == 4
    state = do(state, {"type": "new_match"})
    assert state.bock_pending == 0
    state = do(state, {"type": "start_round", "deck": CANONICAL_DECK})
    assert state.deal.is_bock is False
