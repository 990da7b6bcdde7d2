"""The easy bot plays like a sensible player in hand-built tricks (trick 1, Curdin deals, so the
owner leads and Curdin plays fourth; Curdin's partner is Anna)."""

from __future__ import annotations

from typing import Any

from games import bots
from games.engine import Options, view
from games.engine.state import MatchState
from tests.engine.helpers import ANNA, BENEDETG, CURDIN, OWNER, dealt, deck_for, play, setup


def _decide(state: MatchState, seat: int, level: str = "easy") -> dict[str, Any]:
    return bots.decide(view(state, seat), [], level=level, seed=7, samples=4)


def test_takes_a_trick_that_carries_points_with_the_cheapest_winning_card() -> None:
    state = setup({OWNER: ["SN"], ANNA: ["S2"], BENEDETG: ["S3"],
                   CURDIN: ["SQ", "SK", "S9", "T5", "T6"]})
    state = play(play(play(state, OWNER, "SN"), ANNA, "S2"), BENEDETG, "S3")
    assert _decide(state, CURDIN) == {"type": "play_card", "seat": CURDIN, "card": "SQ"}


def test_smears_points_onto_a_trick_the_partner_wins() -> None:
    state = setup({OWNER: ["S5"], ANNA: ["SK"], BENEDETG: ["S6"],
                   CURDIN: ["SQ", "S2", "S3", "T5"]})
    state = play(play(play(state, OWNER, "S5"), ANNA, "SK"), BENEDETG, "S6")
    assert _decide(state, CURDIN)["card"] == "SQ"


def test_follows_cheaply_when_it_cannot_win() -> None:
    state = setup({OWNER: ["SK"], ANNA: ["S2"], BENEDETG: ["S3"],
                   CURDIN: ["SQ", "S4", "S8", "SN"]})
    state = play(play(play(state, OWNER, "SK"), ANNA, "S2"), BENEDETG, "S3")
    assert _decide(state, CURDIN)["card"] == "S4"


def test_the_narr_saves_a_valuable_card_on_a_lost_trick() -> None:
    # Curdin holds only court cards in swords and the Narr: swords are led and lost.
    state = setup({OWNER: ["SK"], ANNA: ["S2"], BENEDETG: ["S3"],
                   CURDIN: ["SQ", "SN", "NARR"]}, void={CURDIN: "S"})
    state = play(play(play(state, OWNER, "SK"), ANNA, "S2"), BENEDETG, "S3")
    assert _decide(state, CURDIN)["card"] == "NARR"


def test_trumps_a_trick_with_points_as_cheaply_as_it_can() -> None:
    state = setup({OWNER: ["BQ"], ANNA: ["B2"], BENEDETG: ["B3"],
                   CURDIN: ["T2", "T9", "T21", "T1"]}, void={CURDIN: "B"})
    state = play(play(play(state, OWNER, "BQ"), ANNA, "B2"), BENEDETG, "B3")
    assert _decide(state, CURDIN)["card"] == "T2"


def test_keeps_its_trumps_when_it_leads() -> None:
    state = setup({OWNER: ["C5", "C9", "T3", "T4", "T5", "T6", "T7"]}, void={OWNER: "RSB"})
    action = _decide(state, OWNER)
    assert action["card"] in ("C5", "C9", "CK")  # a plain card (an unled king if it has one)


def test_leads_an_unled_king() -> None:
    state = setup({OWNER: ["RK", "R5", "T8"]})
    assert _decide(state, OWNER)["card"] == "RK"


def test_calls_buob_when_its_team_wins_the_kings_trick_and_the_jack_is_placed() -> None:
    # The owner leads the king of swords; Benedetg (the partner, no jack) saw SJ among Anna's
    # reveal cards, so the call must find it: it calls before playing (tests/bots/test_calls.py
    # has the calls it does not make).
    state = setup({OWNER: ["SK"], ANNA: ["SJ", "S2"], BENEDETG: ["S5", "S6"]})
    state = play(play(state, OWNER, "SK"), ANNA, "S2")
    events = [{"type": "reveal_shown", "reveal": {str(ANNA): "SJ"}}]
    action = bots.decide(view(state, BENEDETG), events, level="easy", seed=7)
    assert action == {"type": "call_buob", "seat": BENEDETG, "suit": "S"}


def test_does_not_call_buob_for_the_other_team() -> None:
    state = setup({OWNER: ["SK"], ANNA: ["S7"], BENEDETG: ["SJ", "S6"], CURDIN: ["S5", "S8"]})
    state = play(play(play(state, OWNER, "SK"), ANNA, "S7"), BENEDETG, "S6")
    assert _decide(state, CURDIN)["type"] == "play_card"


def test_scart_keeps_honours_and_trumps_and_secures_points() -> None:
    # The dealer's 21 cards: honours, trumps, a short suit of court cards and one low cup.
    trumps = [f"T{n}" for n in range(2, 15)]
    want = {CURDIN: ["CK", "RK", "T1", "T21", "NARR", "BQ", "BN", "C5", *trumps]}
    state = dealt(deck_for(CURDIN, want), CURDIN, Options())
    action = _decide(state, CURDIN)
    assert action["type"] == "discard_scart"
    assert set(action["cards"]) == {"BQ", "BN"}


def test_scart_discards_a_short_suit_whole_rather_than_court_cards() -> None:
    # Two low swords beside long cups and coins with a queen each: discarding the swords makes
    # the dealer void there from trick 1 (issue #27 item 4), where the rule of thumb alone
    # would have put the queens away.
    trumps = [f"T{n}" for n in range(2, 9)]
    want = {CURDIN: ["CK", "C1", "C2", "C3", "CQ", "RK", "R1", "R2", "RQ", "S2", "S5", "T1",
                     "T21", "NARR", *trumps]}
    state = dealt(deck_for(CURDIN, want), CURDIN, Options())
    action = _decide(state, CURDIN)
    assert set(action["cards"]) == {"S2", "S5"}


def test_scart_obeys_the_rooms_scart_rule() -> None:
    want = {CURDIN: ["CQ", "CN", "C1", "C2"]}
    options = Options(scart_forbidden="honours_and_trumps")
    state = dealt(deck_for(CURDIN, want), CURDIN, options)
    v = view(state, CURDIN)
    for level in bots.LEVELS:
        action = bots.decide(v, [], level=level, seed=1)
        assert set(action["cards"]) <= set(v["actions"]["scart_allowed"])
        assert len(set(action["cards"])) == 2
