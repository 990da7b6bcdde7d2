"""RULES.md §8 (a refusal that depends on hidden cards is public) and §13 (no viewer alone learns
where a hidden card lies): a BUOB call refused with BUOB_SUIT_NOT_CANDIDATE or BUOB_NO_TARGET.

The action stays rejected with its code and the state passed to `apply` is untouched, but the
refusal is a fact of the table: `apply` raises PublicRefusal (a RuleError) carrying the table
after it — the refused suits recorded in the open trick — and its `buob_refused` event, the same
for every seat and the spectators. For the rest of that trick nobody is offered those suits and
a call naming one is refused alike; the next trick starts with none refused.

Personas (tests/personas.py): the owner (seat 0, A), Anna (1, B), Benedetg (2, A) and Curdin
(3, B), who deals, so the owner leads trick 1.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import (
    CARD_IDS,
    Options,
    PublicRefusal,
    RuleError,
    apply,
    events_for,
    from_json,
    legal_actions,
    replay,
    to_json,
    view,
)
from games.engine.state import MatchState

from .helpers import (
    ANNA,
    BENEDETG,
    CURDIN,
    OWNER,
    SEATS,
    call,
    code_of,
    deck_for,
    first_legal,
    hand,
    play,
    play_trick,
    setup,
)

AUDIENCES: tuple[int | None, ...] = (*SEATS, None)


def _call(seat: int, suit: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "call_buob", "seat": seat}
    if suit is not None:
        action["suit"] = suit
    return action


def _play(seat: int, card: str, **extra: Any) -> dict[str, Any]:
    return {"type": "play_card", "seat": seat, "card": card, **extra}


def refusal(state: MatchState, action: dict[str, Any]) -> PublicRefusal:
    """Apply an action that must be refused publicly; the given state stays untouched."""
    before = to_json(state)
    with pytest.raises(PublicRefusal) as info:
        apply(state, action)
    assert to_json(state) == before
    return info.value


def offered(state: MatchState) -> dict[int | None, list[str]]:
    """Every audience's offered BUOB suits, from legal_actions and from the view (the same)."""
    out: dict[int | None, list[str]] = {}
    for seat in AUDIENCES:
        suits = legal_actions(state, seat)["buob_suits"]
        v = view(state, seat)
        assert v["actions"]["buob_suits"] == suits
        assert v["buob"] is None or v["buob"]["suits"] == suits
        out[seat] = suits
    return out


def assert_public_event(exc: PublicRefusal, caller: int, suit: str | None, code: str) -> None:
    """One `buob_refused` event, identical for every seat and the spectators, with no card."""
    trick = exc.state.deal.current.number  # type: ignore[union-attr]
    expected = {"type": "buob_refused", "caller": caller, "suit": suit, "code": code,
                "trick": trick}
    for seat in AUDIENCES:
        assert events_for(exc.events, seat) == [expected]
    assert not {v for v in expected.values() if isinstance(v, str)} & set(CARD_IDS)


# --- the refusal is recorded, public, and holds for the rest of the trick ---------------------

def test_s8_suit_not_candidate_with_the_jack_in_the_scart_is_public_for_the_trick():
    """§8: the owner leads SK, SJ lies in Curdin's Scart. Before the call every seat that
    cannot see the Scart is offered swords; Anna's call on S is refused (her error as before)
    and the refusal goes to everyone; nobody is offered S again in this trick."""
    state = setup({OWNER: ["SK"], ANNA: ["S2"], BENEDETG: ["S3"], CURDIN: ["S4"]},
                  scart=["SJ", "C2"])
    state = play(state, OWNER, "SK")
    assert offered(state) == {OWNER: ["S"], ANNA: ["S"], BENEDETG: ["S"], CURDIN: [],
                              None: []}
    exc = refusal(state, _call(ANNA, "S"))
    assert isinstance(exc, RuleError) and exc.code == "BUOB_SUIT_NOT_CANDIDATE"
    assert_public_event(exc, ANNA, "S", "BUOB_SUIT_NOT_CANDIDATE")
    state = exc.state
    assert state.deal.current.refused == "S" and state.deal.current.buob is None
    assert state.deal.turn == ANNA and len(state.deal.current.cards) == 1  # nothing else moved
    for seat, card in ((ANNA, "S2"), (BENEDETG, "S3")):
        assert all(not suits for suits in offered(state).values())
        # A later call of that suit, or one naming none, is refused alike and reveals nothing
        # more: the same codes, and the table after it is the table before it.
        again = refusal(state, _call(BENEDETG, "S"))
        assert again.code == "BUOB_SUIT_NOT_CANDIDATE" and again.state == state
        assert_public_event(again, BENEDETG, "S", "BUOB_SUIT_NOT_CANDIDATE")
        unnamed = refusal(state, _call(OWNER))
        assert unnamed.code == "BUOB_NO_TARGET" and unnamed.state == state
        state = play(state, seat, card)
    assert all(not suits for suits in offered(state).values())
    state = play(state, CURDIN, "S4")
    assert state.deal.tricks[0].refused == "" and state.deal.current.refused == ""


def test_s8_the_refused_suit_is_offered_again_in_the_next_trick():
    """§8 "for the rest of this trick": Anna, void in cups and trumps, tries SK with an attached
    call while SJ lies in the Scart — refused publicly, SK stays in her hand, S is refused for
    trick 1. She discards B3 instead; in trick 2 she discards SK and swords are offered again
    to every seat that cannot see the Scart (a call is refused again, publicly again)."""
    state = setup({OWNER: ["C5", "C8"], ANNA: ["SK", "B3"], BENEDETG: ["C6", "C9"],
                   CURDIN: ["C7", "C10"]}, void={ANNA: "CT"}, scart=["SJ", "R2"])
    state = play(state, OWNER, "C5")
    exc = refusal(state, _play(ANNA, "SK", call_buob=True))
    assert exc.code == "BUOB_NO_TARGET"
    assert_public_event(exc, ANNA, None, "BUOB_NO_TARGET")
    state = exc.state
    assert "SK" in hand(state, ANNA) and state.deal.turn == ANNA
    assert state.deal.current.refused == "S"
    state = play_trick(state, (ANNA, "B3"), (BENEDETG, "C6"), (CURDIN, "C7"))
    assert len(state.deal.tricks) == 1 and state.deal.current.refused == ""
    leader = state.deal.turn
    cup = next(c for c in hand(state, leader) if c.startswith("C"))
    state = play(state, leader, cup)
    while state.deal.turn != ANNA:
        state = first_legal(state)
    state = play(state, ANNA, "SK")
    assert offered(state) == {OWNER: ["S"], ANNA: ["S"], BENEDETG: ["S"], CURDIN: [],
                              None: []}
    again = refusal(state, _call(OWNER, "S"))
    assert again.code == "BUOB_SUIT_NOT_CANDIDATE" and again.state.deal.current.refused == "S"


def test_s8_a_refused_call_without_suit_leaves_every_king_it_considered_out():
    """§8 "offer none after a refused call without suit that found no candidate": CK and BK on
    the table, CJ in the Scart, BJ in Anna's hand (she played BK): no target for either."""
    state = setup({OWNER: ["CK"], ANNA: ["BK", "BJ"], BENEDETG: ["C3"]}, void={ANNA: "CT"},
                  scart=["CJ", "R2"])
    state = play_trick(state, (OWNER, "CK"), (ANNA, "BK"))
    assert offered(state)[BENEDETG] == ["C", "B"]
    exc = refusal(state, _call(BENEDETG))
    assert exc.code == "BUOB_NO_TARGET"
    assert_public_event(exc, BENEDETG, None, "BUOB_NO_TARGET")
    assert exc.state.deal.current.refused == "CB"
    assert all(not suits for suits in offered(exc.state).values())
    assert code_of(exc.state, _call(CURDIN, "B")) == "BUOB_SUIT_NOT_CANDIDATE"


def test_s8_with_king_team_a_refusal_leaves_out_only_the_kings_its_caller_considered():
    """buob_caller = king_team: Benedetg (A) calls without suit; only the owner's CK counts for
    him and CJ is in the Scart, so C is refused. Anna's BK (B) was not considered: BJ is
    Curdin's, and the B seats may still call it."""
    state = setup({OWNER: ["CK"], ANNA: ["BK"], BENEDETG: ["C3"], CURDIN: ["BJ"]},
                  void={ANNA: "CT"}, scart=["CJ", "R2"], options=Options(buob_caller="king_team"))
    state = play_trick(state, (OWNER, "CK"), (ANNA, "BK"))
    exc = refusal(state, _call(BENEDETG))
    assert exc.code == "BUOB_NO_TARGET" and exc.state.deal.current.refused == "C"
    state = exc.state
    assert offered(state) == {OWNER: [], ANNA: ["B"], BENEDETG: [], CURDIN: ["B"], None: []}
    b = call(state, CURDIN, "B").deal.current.buob
    assert (b.suit, b.target, b.mode) == ("B", CURDIN, "self")


def test_s8_a_suit_refused_publicly_stays_refused_even_if_its_jack_comes_back():
    """Decision (docs/rules-decisions.md): Anna plays CJ with a call on C while CK is on the
    table — CJ would be in this trick, so C has no target and is refused publicly. CJ stays in
    her hand, yet C stays refused for the trick (every view already leaves it out): Benedetg's
    later call on C is refused alike, here and in a transcript replay."""
    state = setup({OWNER: ["CK"], ANNA: ["CJ", "C2"], BENEDETG: ["C3"]}, scart=["R1", "R2"])
    state = play(state, OWNER, "CK")
    exc = refusal(state, _play(ANNA, "CJ", call_buob=True, buob_suit="C"))
    assert exc.code == "BUOB_SUIT_NOT_CANDIDATE" and "CJ" in hand(exc.state, ANNA)
    state = play(exc.state, ANNA, "C2")
    assert code_of(state, _call(BENEDETG, "C")) == "BUOB_SUIT_NOT_CANDIDATE"

    deck = deck_for(CURDIN, {OWNER: ["CK"], ANNA: ["CJ", "C2"], BENEDETG: ["C3"]},
                    scart=["R1", "R2"])
    doc = {"format": "troccas-transcript/1", "first_dealer": CURDIN, "actions": [
        {"type": "start_round", "deck": deck},
        *[{"type": "deal_next_pass", "seat": CURDIN}] * 3,
        {"type": "end_reveal"},
        {"type": "discard_scart", "seat": CURDIN, "cards": ["R1", "R2"]},
        {"type": "play_card", "seat": OWNER, "card": "CK"},
        {"type": "play_card", "seat": ANNA, "card": "CJ", "call_buob": True, "buob_suit": "C"},
        {"type": "play_card", "seat": ANNA, "card": "C2"},
        {"type": "call_buob", "seat": BENEDETG, "suit": "C"},
    ]}
    results = replay(doc)["results"]
    assert [r for r in results if not r["ok"]] == [
        {"i": 7, "ok": False, "error": "BUOB_SUIT_NOT_CANDIDATE"},
        {"i": 9, "ok": False, "error": "BUOB_SUIT_NOT_CANDIDATE"}]


# --- §13: what the refusal makes public, and nothing more -------------------------------------

def test_s13_no_view_tells_the_scart_from_the_king_players_hand():
    """Two tables that differ only in where SJ lies — Curdin's Scart, or the hand of the owner,
    who played SK (no target either way). Anna's call on S gets the same refusal, the same
    event and the same record; every seat that sees neither place, and the spectators, see
    exactly the same table before and after it."""
    fill = {ANNA: ["S2"], BENEDETG: ["S3"], CURDIN: ["S4"]}
    in_scart = setup({OWNER: ["SK", "C2"], **fill}, scart=["SJ", "C3"])
    in_hand = setup({OWNER: ["SK", "SJ"], **fill}, scart=["C2", "C3"])
    tables = [play(t, OWNER, "SK") for t in (in_scart, in_hand)]
    blind = (ANNA, BENEDETG, None)
    for seat in blind:
        assert view(tables[0], seat) == view(tables[1], seat)
    refused = [refusal(t, _call(ANNA, "S")) for t in tables]
    assert refused[0].code == refused[1].code == "BUOB_SUIT_NOT_CANDIDATE"
    for seat in AUDIENCES:
        assert events_for(refused[0].events, seat) == events_for(refused[1].events, seat)
    after = [r.state for r in refused]
    assert after[0].deal.current.refused == after[1].deal.current.refused == "S"
    for seat in blind:
        assert view(after[0], seat) == view(after[1], seat)


def test_s13_refusals_that_depend_on_public_facts_stay_private():
    """Codes 1-5, and a named "suit" that is none of C R S B, depend on no hidden card: a plain
    RuleError for the caller alone, nothing recorded."""
    state = setup({OWNER: ["SK", "C5"], ANNA: ["S2"]}, scart=["SJ", "C2"])
    private = [(state, _call(ANNA), "BUOB_TRICK_NOT_OPEN")]
    led = play(state, OWNER, "C5")
    private.append((led, _call(ANNA), "BUOB_NO_KING"))
    sk = play(state, OWNER, "SK")
    private.append((sk, _call(ANNA, "T"), "BUOB_SUIT_NOT_CANDIDATE"))
    for st, action, code in private:
        with pytest.raises(RuleError) as info:
            apply(st, action)
        assert info.value.code == code and not isinstance(info.value, PublicRefusal)


def test_s8_a_named_suit_without_its_king_on_the_table_is_announced_but_not_recorded():
    """Code 6 is always announced; a suit whose king is not on the table was refused for a
    public reason, so nothing is recorded and it is offered once its king is played."""
    state = setup({OWNER: ["SK"], ANNA: ["S2", "SJ"], BENEDETG: ["CK"], CURDIN: ["CJ"]},
                  void={BENEDETG: "ST"})
    state = play(state, OWNER, "SK")
    exc = refusal(state, _call(ANNA, "C"))  # CK is not on the table (yet)
    assert exc.code == "BUOB_SUIT_NOT_CANDIDATE"
    assert_public_event(exc, ANNA, "C", "BUOB_SUIT_NOT_CANDIDATE")
    assert exc.state == state  # announced, nothing recorded
    state = play_trick(exc.state, (ANNA, "S2"), (BENEDETG, "CK"))
    assert offered(state)[OWNER] == ["C", "S"]


def test_s8_the_record_survives_the_stored_form():
    state = setup({OWNER: ["SK"]}, scart=["SJ", "C2"])
    state = play(state, OWNER, "SK")
    assert "refused" not in to_json(state)["deal"]["current"]  # stored form unchanged
    state = refusal(state, _call(ANNA, "S")).state
    stored = to_json(state)
    assert stored["deal"]["current"]["refused"] == "S"
    assert from_json(stored) == state
