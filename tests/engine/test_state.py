"""ARCHITECTURE.md convention 2 and RULES.md §3 — immutable state, exact JSON round trip, a
rejected action changes nothing, and the first dealer (the owner's seat) deals first.
"""

from __future__ import annotations

import json

import pytest

from games.engine import (
    LOBBY,
    MATCH_OVER,
    Options,
    RuleError,
    apply,
    from_json,
    new_match_state,
    to_json,
)

from .helpers import (
    ANNA,
    BENEDETG,
    CANONICAL_DECK,
    CURDIN,
    OWNER,
    SEATS,
    call,
    code_of,
    do,
    hand,
    play,
    play_last_trick,
    play_trick,
    rotated_deck,
    setup,
    started,
    tie_at_trick_19,
    whole_deal,
)


def _round_trip(state):
    data = json.loads(json.dumps(to_json(state)))  # plain JSON data, nothing else
    back = from_json(data)
    assert back == state
    assert to_json(back) == to_json(state)
    return back


def _states_of_one_match():
    """One state for every phase, including a trick with a BUOB call and a Narr debt."""
    out = {}
    state = new_match_state(Options(match_deals=4, bock=True), first_dealer=CURDIN)
    out["lobby"] = state
    state = do(state, {"type": "start_round", "deck": CANONICAL_DECK})
    out["dealing_0"] = state
    for k in (1, 2):
        state = do(state, {"type": "deal_next_pass", "seat": CURDIN})
        out[f"dealing_{k}"] = state
    state = do(state, {"type": "deal_next_pass", "seat": CURDIN})
    out["reveal"] = state
    state = do(state, {"type": "end_reveal"})
    out["scart"] = state
    state = do(state, {"type": "discard_scart", "seat": CURDIN, "cards": ["R5", "R6"]})
    out["play_trick_1"] = state
    state = play(state, OWNER, "C1")
    out["play_mid_trick"] = state
    out["round_over"] = whole_deal(started(CANONICAL_DECK))
    return out


@pytest.mark.parametrize("phase", ["lobby", "dealing_0", "dealing_1", "dealing_2", "reveal",
                                   "scart", "play_trick_1", "play_mid_trick", "round_over"])
def test_json_round_trip_is_exact_in_every_phase(phase):
    _round_trip(_states_of_one_match()[phase])


def test_json_round_trip_with_a_buob_call_and_a_narr_debt():
    state = setup({OWNER: ["SK", "C5"], ANNA: ["NARR", "S4"], BENEDETG: ["S9", "CK"],
                   CURDIN: ["SJ", "C6"]})
    state = play(state, OWNER, "SK", call_buob=True)
    _round_trip(state)  # FORCED call pending
    state = play_trick(state, (ANNA, "S4"), (BENEDETG, "S9"), (CURDIN, "SJ"))
    _round_trip(state)  # resolved call in the history
    state = play_trick(state, (OWNER, "C5"), (ANNA, "NARR"), (BENEDETG, "CK"), (CURDIN, "C6"))
    assert state.deal.narr_debt is not None
    _round_trip(state)


def test_json_round_trip_after_a_deferred_exchange():
    state = setup({OWNER: ["SK"], ANNA: ["S4", "SJ"], BENEDETG: ["S9"], CURDIN: ["S2"]})
    state = play_trick(state, (OWNER, "SK"), (ANNA, "S4"))
    state = call(state, BENEDETG)
    _round_trip(state)
    state = play_trick(state, (BENEDETG, "S9"), (CURDIN, "S2"))
    assert state.deal.tricks[0].buob.returned_card is not None
    _round_trip(state)


def test_json_round_trip_in_match_over_and_after_new_match():
    state = play_last_trick(tie_at_trick_19(options=Options(bock=True), deals_played=3))
    assert state.phase == MATCH_OVER and state.bock_pending == 4
    _round_trip(state)
    state = do(state, {"type": "new_match"})
    assert state.phase == LOBBY
    _round_trip(state)


def test_json_round_trip_keeps_the_options():
    opts = Options(reveal_seconds=9, reveal_persist=True, scart_forbidden="none",
                   buob_caller="king_team", regame_by="owner", match_deals=0, bock=True,
                   bock_triggers=("all_tricks",), turn_seconds=30)
    _round_trip(new_match_state(opts, first_dealer=ANNA))
    _round_trip(started(CANONICAL_DECK, options=opts))


def test_states_are_immutable():
    state = new_match_state(Options(), 0)
    with pytest.raises(AttributeError):
        state.phase = "PLAY"  # type: ignore[misc]
    deal = started(CANONICAL_DECK).deal
    with pytest.raises(AttributeError):
        deal.dealer = 1  # type: ignore[misc]


REJECTED = [
    ("lobby", {"type": "deal_next_pass", "seat": CURDIN}),
    ("dealing_1", {"type": "deal_next_pass", "seat": OWNER}),
    ("reveal", {"type": "discard_scart", "seat": CURDIN, "cards": ["R5", "R6"]}),
    ("scart", {"type": "discard_scart", "seat": CURDIN, "cards": ["T21", "R5"]}),
    ("scart", {"type": "discard_scart", "seat": CURDIN, "cards": ["R5"]}),
    ("play_trick_1", {"type": "play_card", "seat": ANNA, "card": "C7"}),
    ("play_trick_1", {"type": "call_buob", "seat": ANNA}),
    ("play_mid_trick", {"type": "play_card", "seat": ANNA, "card": "S3"}),
    ("play_mid_trick", {"type": "call_buob", "seat": BENEDETG}),
    ("round_over", {"type": "end_match"}),
]


@pytest.mark.parametrize("phase,action", REJECTED,
                         ids=[f"{p}-{a['type']}" for p, a in REJECTED])
def test_a_rejected_action_leaves_the_state_identical(phase, action):
    state = _states_of_one_match()[phase]
    snapshot = json.dumps(to_json(state), sort_keys=True)
    with pytest.raises(RuleError):
        apply(state, action)
    assert json.dumps(to_json(state), sort_keys=True) == snapshot


def test_a_rejected_attached_call_leaves_the_state_identical():
    state = setup({OWNER: ["SK", "SJ"]})
    snapshot = to_json(state)
    assert code_of(state, {"type": "play_card", "seat": OWNER, "card": "SK",
                           "call_buob": True}) == "BUOB_NO_TARGET"
    assert to_json(state) == snapshot
    assert "SK" in hand(state, OWNER)


@pytest.mark.parametrize("owner", SEATS)
def test_s3_the_first_dealer_deals_first(owner):
    state = new_match_state(Options(), first_dealer=owner)
    assert state.phase == LOBBY and state.dealer == owner
    state = do(state, {"type": "start_round", "deck": CANONICAL_DECK})
    assert state.deal.dealer == owner
    for seat in SEATS:
        if seat != owner:
            assert code_of(state, {"type": "deal_next_pass", "seat": seat}) == "NOT_DEALER"
    state = do(state, {"type": "deal_next_pass", "seat": owner})
    assert hand(state, (owner + 1) % 4) == sorted(CANONICAL_DECK[0:6], key=CANONICAL_DECK.index)


@pytest.mark.parametrize("owner", [OWNER, BENEDETG])
def test_s3_every_match_starts_with_the_owners_seat_dealing_also_after_new_match(owner):
    state = started(CANONICAL_DECK, dealer=owner, options=Options(match_deals=4))
    state = whole_deal(state)
    k = 1
    while state.phase != MATCH_OVER:
        state = whole_deal(do(state, {"type": "regame", "deck": rotated_deck(k)}))
        k += 1
    assert state.dealer == (owner + 3) % 4
    state = do(state, {"type": "new_match"})
    assert state.dealer == owner
    state = do(state, {"type": "start_round", "deck": rotated_deck(9)})
    assert state.deal.dealer == owner


def test_s3_new_match_state_rejects_a_seat_outside_0_to_3():
    with pytest.raises(ValueError):
        new_match_state(Options(), first_dealer=4)
