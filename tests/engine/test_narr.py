"""RULES.md §9 — the Narr goes back to its owner's team; a lost Narr creates a debt.

Personas (tests/personas.py): the owner (0, A), Anna (1, B), Benedetg (2, A), Curdin (3, B).
"""

from __future__ import annotations

from games.engine import apply, event_to_json, legal_cards
from games.engine.cards import INDEX, ids_of
from games.engine.state import NarrDebt

from .helpers import (
    ANNA,
    BENEDETG,
    CANONICAL_DECK,
    CURDIN,
    OWNER,
    call,
    constructed,
    hand,
    play,
    play_trick,
    setup,
)

NARR = INDEX["NARR"]


def _pile(state, team):
    return ids_of(state.deal.piles["AB".index(team)])


def test_s9_narr_played_in_a_trick_its_team_wins_stays_with_the_team_no_debt():
    state = setup({OWNER: ["C5"], ANNA: ["C6"], BENEDETG: ["NARR"], CURDIN: ["C7"]})
    state = play_trick(state, (OWNER, "C5"), (ANNA, "C6"), (BENEDETG, "NARR"), (CURDIN, "C7"))
    assert state.deal.tricks[0].winner == OWNER
    assert "NARR" in _pile(state, "A")
    assert state.deal.narr_debt is None


def test_s9_lost_narr_goes_to_its_owners_team_and_the_debt_is_paid_at_once():
    """Trick 1 goes to B (C1 wins); in trick 2 Curdin's Narr is lost to A: the debt B → A is
    settled at once with B's lowest-index 1-point card, C1."""
    state = setup({OWNER: ["C10", "C6"], ANNA: ["C1", "C7"], BENEDETG: ["C9", "CK"],
                   CURDIN: ["C8", "NARR"]})
    state = play_trick(state, (OWNER, "C10"), (ANNA, "C1"), (BENEDETG, "C9"), (CURDIN, "C8"))
    assert state.deal.tricks[0].winner == ANNA
    for seat, card in ((ANNA, "C7"), (BENEDETG, "CK"), (CURDIN, "NARR")):
        state = play(state, seat, card)
    state, events = apply(state, {"type": "play_card", "seat": OWNER, "card": "C6"})
    assert state.deal.tricks[1].winner == BENEDETG
    assert state.deal.narr_debt == NarrDebt("B", "A", 2, "settled", INDEX["C1"], 2)
    assert _pile(state, "B") == ["C8", "C9", "C10", "NARR"]
    assert "C1" in _pile(state, "A") and "NARR" not in _pile(state, "A")
    kinds = [event_to_json(e)["type"] for e in events]
    assert kinds.index("narr_debt_created") < kinds.index("narr_debt_settled")


def test_s9_debt_stays_pending_until_the_debtors_pile_holds_a_1_point_card():
    """Anna's Narr is lost in trick 1 (B's pile: only the Narr) → pending. B wins trick 2 with
    court cards only (no 1-point card) → still pending. B wins trick 3 → settled with C1."""
    state = setup({OWNER: ["C5", "SN", "C9"], ANNA: ["NARR", "SQ", "C8"],
                   BENEDETG: ["CK", "SJ", "C10"], CURDIN: ["C6", "SK", "C1"]})
    state = play_trick(state, (OWNER, "C5"), (ANNA, "NARR"), (BENEDETG, "CK"), (CURDIN, "C6"))
    assert state.deal.narr_debt == NarrDebt("B", "A", 1, "pending", None, None)
    assert _pile(state, "B") == ["NARR"]
    state = play_trick(state, (BENEDETG, "SJ"), (CURDIN, "SK"), (OWNER, "SN"), (ANNA, "SQ"))
    assert state.deal.tricks[1].winner == CURDIN
    assert state.deal.narr_debt.status == "pending"
    state = play_trick(state, (CURDIN, "C1"), (OWNER, "C9"), (ANNA, "C8"), (BENEDETG, "C10"))
    assert state.deal.tricks[2].winner == CURDIN
    assert state.deal.narr_debt == NarrDebt("B", "A", 1, "settled", INDEX["C1"], 3)
    assert "C1" in _pile(state, "A")
    assert "C1" not in _pile(state, "B")


def _end_of_deal(b_pile, scart, dealer, narr_debt, tricks_won, last=None):
    """Trick 19 about to be played: the owner T21, Anna C1, Benedetg T20, Curdin C2 — A wins it."""
    last = last or {OWNER: ["T21"], ANNA: ["C1"], BENEDETG: ["T20"], CURDIN: ["C2"]}
    used = {c for cs in last.values() for c in cs} | set(scart) | set(b_pile)
    a_pile = [c for c in CANONICAL_DECK if c not in used]
    state = constructed(dealer=dealer, hands=last, scart=scart,
                        piles={"A": a_pile, "B": list(b_pile)}, leader=OWNER,
                        narr_debt=narr_debt, tricks_won=tricks_won)
    for seat in (OWNER, ANNA, BENEDETG, CURDIN):
        state = play(state, seat, hand(state, seat)[0])
    return state


def test_s9_unpaid_debt_at_deal_end_is_paid_with_the_lowest_value_card_ties_lowest_index():
    # B lost the Narr in trick 5 and won one trick of court cards: CJ RJ (2 points) RN RQ.
    debt = NarrDebt("B", "A", 5, "pending")
    state = _end_of_deal(["NARR", "CJ", "RJ", "RN", "RQ"], ["C3", "C4"], OWNER, debt, (17, 1))
    assert state.phase in ("ROUND_OVER", "MATCH_OVER")
    assert state.deal.narr_debt == NarrDebt("B", "A", 5, "settled", INDEX["CJ"], "end")
    assert _pile(state, "B") == ["RJ", "RN", "RQ", "NARR"]
    assert "CJ" in _pile(state, "A")


def test_s9_unpaid_debt_with_nothing_but_the_narr_pays_the_narr_itself():
    debt = NarrDebt("B", "A", 3, "pending")
    state = _end_of_deal(["NARR"], ["C3", "C4"], OWNER, debt, (18, 0))
    assert state.deal.narr_debt == NarrDebt("B", "A", 3, "settled", NARR, "end")
    assert _pile(state, "B") == []
    assert "NARR" in _pile(state, "A")
    assert state.deal.points == (72, 0)


def test_s10_deal_end_debt_is_settled_after_the_scart_is_added():
    # Curdin (B) deals: the scart C3 C4 joins B's pile first, so C3 pays the debt.
    debt = NarrDebt("B", "A", 3, "pending")
    state = _end_of_deal(["NARR"], ["C3", "C4"], CURDIN, debt, (18, 0))
    assert state.deal.narr_debt == NarrDebt("B", "A", 3, "settled", INDEX["C3"], "end")
    assert _pile(state, "B") == ["C4", "NARR"]


def test_s9_debt_settled_by_the_last_trick_records_trick_19():
    debt = NarrDebt("B", "A", 3, "pending")
    last = {OWNER: ["C2"], ANNA: ["T21"], BENEDETG: ["C3"], CURDIN: ["T20"]}
    state = _end_of_deal(["NARR", "SK", "SQ", "SN", "SJ"], ["C4", "C5"], OWNER, debt, (17, 1),
                         last=last)
    assert state.deal.tricks[-1].winner == ANNA
    assert state.deal.narr_debt == NarrDebt("B", "A", 3, "settled", INDEX["C2"], 19)


def test_s9_narr_in_trick_19_is_captured_like_any_card_no_debt():
    last = {OWNER: ["T21"], ANNA: ["NARR"], BENEDETG: ["T20"], CURDIN: ["C2"]}
    state = _end_of_deal([], ["C3", "C4"], OWNER, None, (18, 0), last=last)
    assert state.deal.tricks[-1].winner == OWNER
    assert state.deal.narr_debt is None
    assert "NARR" in _pile(state, "A")


def test_s9_narr_returned_by_a_buob_exchange_creates_no_debt_and_may_be_played_again():
    """The owner leads SK, Anna plays the Narr, Benedetg calls: SJ is Anna's → DEFERRED. At
    completion the Narr goes back to Anna's hand (no debt); she plays it again in trick 2."""
    state = setup({OWNER: ["SK", "C5"], ANNA: ["NARR", "SJ"], BENEDETG: ["S9", "CK"],
                   CURDIN: ["S2", "C6"]})
    state = play_trick(state, (OWNER, "SK"), (ANNA, "NARR"))
    state = call(state, BENEDETG)
    assert (state.deal.current.buob.target, state.deal.current.buob.mode) == (ANNA, "deferred")
    state = play_trick(state, (BENEDETG, "S9"), (CURDIN, "S2"))
    trick = state.deal.tricks[0]
    assert trick.winner == OWNER
    assert trick.buob.returned_card == NARR
    assert state.deal.narr_debt is None
    assert "NARR" in hand(state, ANNA)
    assert "NARR" not in _pile(state, "A") + _pile(state, "B")
    assert set(_pile(state, "A")) == {"SK", "SJ", "S9", "S2"}
    # Trick 2: the Narr is played again and lost to A — now the debt arises.
    state = play(state, OWNER, "C5")
    assert "NARR" in legal_cards(state, ANNA)
    state = play_trick(state, (ANNA, "NARR"), (BENEDETG, "CK"), (CURDIN, "C6"))
    assert state.deal.narr_debt == NarrDebt("B", "A", 2, "pending", None, None)
    assert _pile(state, "B") == ["NARR"]
