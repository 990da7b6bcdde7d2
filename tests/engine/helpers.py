"""Shared helpers for the engine's rule tests (no Django, no database).

Personas: the four seats of RULES.md §3, by the names of tests/personas.py (the people of the
web tests too). Team A sits on the even seats, team B on the odd ones; in the worked examples of
§8 Curdin (seat 3) deals, so the owner (seat 0) leads trick 1.

Decks are built from the hands a test wants, following the §5 deal order exactly:
D = [next(d), next²(d), next³(d), d]; pass 1 and pass 2 give 6 cards to each seat in D order,
pass 3 gives 7 to each non-dealer and 9 to the dealer; cards are taken from deck index 0 up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.engine import Options, RuleError, apply, legal_cards, new_match_state
from games.engine.cards import CARD_IDS, HONOURS_MASK, INDEX, SUIT_OF, ids_of, mask_of
from games.engine.state import (
    PLAY,
    ROUND_OVER,
    SCART,
    Deal,
    MatchState,
    NarrDebt,
    Trick,
)
from tests import personas

# --- personas ------------------------------------------------------------------------------

# The engine knows seats, not people: each persona is its seat index.
OWNER, ANNA, BENEDETG, CURDIN = (p.seat for p in personas.SEATED)  # A, B, A, B
SEATS: tuple[int, ...] = (OWNER, ANNA, BENEDETG, CURDIN)

CANONICAL_DECK: list[str] = list(CARD_IDS)


def next_seat(seat: int) -> int:
    return (seat + 1) % 4


def deal_order(dealer: int) -> list[int]:
    """D = [next(d), next²(d), next³(d), d] (RULES §5)."""
    return [(dealer + k) % 4 for k in (1, 2, 3, 4)]


# --- building decks from hands -------------------------------------------------------------

def deck_from_hands(hands: Sequence[Sequence[str]], dealer: int) -> list[str]:
    """The deck that deals exactly `hands` (each in the order received; dealer 21, others 19)."""
    for seat in SEATS:
        want = 21 if seat == dealer else 19
        assert len(hands[seat]) == want, (seat, len(hands[seat]))
    deck: list[str] = []
    for lo, hi in ((0, 6), (6, 12), (12, 21)):
        for seat in deal_order(dealer):
            deck.extend(hands[seat][lo:hi])
    assert sorted(deck, key=INDEX.__getitem__) == CANONICAL_DECK, "hands must hold all 78 cards"
    return deck


def _suit_key(card: str) -> str:
    s = SUIT_OF[INDEX[card]]
    return "N" if s is None else s  # "N": the Narr


def arrange_hands(dealer: int, want: Mapping[int, Iterable[str]],
                  void: Mapping[int, str] | None = None,
                  scart: Sequence[str] = ()) -> list[list[str]]:
    """Full hands for a deal: each seat gets the cards it must hold (`want`), the dealer also
    the cards it will discard (`scart`), and the other cards fill the hands in canonical order
    without giving any seat a card of a suit it must be void in (`void`: suit letters C R S B T,
    N for the Narr)."""
    void = void or {}
    hands: list[list[str]] = [[], [], [], []]
    placed: set[str] = set()
    for seat, cards in want.items():
        for c in cards:
            assert c not in placed, f"{c} wanted twice"
            hands[seat].append(c)
            placed.add(c)
    for c in scart:
        assert c not in placed, f"{c} wanted twice"
        hands[dealer].append(c)
        placed.add(c)
    size = [21 if s == dealer else 19 for s in SEATS]
    rest = [c for c in CANONICAL_DECK if c not in placed]
    allowed = {c: [s for s in SEATS if _suit_key(c) not in void.get(s, "")] for c in rest}
    # Most constrained cards first; each to the allowed seat with the most room left.
    for c in sorted(rest, key=lambda c: (len(allowed[c]), INDEX[c])):
        room = [s for s in allowed[c] if len(hands[s]) < size[s]]
        assert room, f"no seat can take {c}"
        seat = max(room, key=lambda s: (size[s] - len(hands[s]), -s))
        hands[seat].append(c)
    for s in SEATS:
        assert len(hands[s]) == size[s], (s, len(hands[s]))
    # Keep the scart cards at the front of the dealer's hand, the rest in canonical order.
    for s in SEATS:
        hands[s].sort(key=INDEX.__getitem__)
    return hands


def deck_for(dealer: int, want: Mapping[int, Iterable[str]],
             void: Mapping[int, str] | None = None, scart: Sequence[str] = ()) -> list[str]:
    return deck_from_hands(arrange_hands(dealer, want, void, scart), dealer)


# --- driving the engine --------------------------------------------------------------------

def do(state: MatchState, action: Mapping[str, Any]) -> MatchState:
    """Apply an action that must be accepted; return the new state."""
    return apply(state, dict(action))[0]


def code_of(state: MatchState, action: Mapping[str, Any]) -> str:
    """Apply an action that must be rejected; return its code (and check nothing changed)."""
    try:
        apply(state, dict(action))
    except RuleError as e:
        return e.code
    raise AssertionError(f"accepted: {action}")


def play(state: MatchState, seat: int, card: str, **extra: Any) -> MatchState:
    return do(state, {"type": "play_card", "seat": seat, "card": card, **extra})


def call(state: MatchState, seat: int, suit: str | None = None) -> MatchState:
    action: dict[str, Any] = {"type": "call_buob", "seat": seat}
    if suit is not None:
        action["suit"] = suit
    return do(state, action)


def play_trick(state: MatchState, *seat_cards: tuple[int, str]) -> MatchState:
    for seat, card in seat_cards:
        state = play(state, seat, card)
    return state


def hand(state: MatchState, seat: int) -> list[str]:
    assert state.deal is not None
    return ids_of(state.deal.hands[seat])


def started(deck: Sequence[str], dealer: int = CURDIN,
            options: Options | None = None) -> MatchState:
    """A new match whose first deal has started (phase DEALING)."""
    state = new_match_state(options or Options(), first_dealer=dealer)
    return do(state, {"type": "start_round", "deck": list(deck)})


def dealt(deck: Sequence[str], dealer: int = CURDIN,
          options: Options | None = None) -> MatchState:
    """Three passes dealt and the reveal window closed: phase SCART."""
    state = started(deck, dealer, options)
    for _ in range(3):
        state = do(state, {"type": "deal_next_pass", "seat": dealer})
    state = do(state, {"type": "end_reveal"})
    assert state.phase == SCART
    return state


def in_play(deck: Sequence[str], scart: Sequence[str], dealer: int = CURDIN,
            options: Options | None = None) -> MatchState:
    """Dealt and scarted: phase PLAY, next(dealer) on turn for trick 1."""
    state = dealt(deck, dealer, options)
    state = do(state, {"type": "discard_scart", "seat": dealer, "cards": list(scart)})
    assert state.phase == PLAY
    return state


def setup(want: Mapping[int, Iterable[str]], void: Mapping[int, str] | None = None,
          scart: Sequence[str] | None = None, dealer: int = CURDIN,
          options: Options | None = None) -> MatchState:
    """A deal in PLAY in which every seat holds what the test wants.

    Without an explicit scart the dealer discards its two lowest non-honour filler cards.
    """
    if scart is None:
        hands = arrange_hands(dealer, want, void)
        mine = set(want.get(dealer, ()))
        spare = [c for c in hands[dealer]
                 if c not in mine and not HONOURS_MASK >> INDEX[c] & 1]
        scart = spare[:2]
    deck = deck_for(dealer, {s: [c for c in cs if c not in scart] for s, cs in want.items()},
                    void, scart)
    return in_play(deck, scart, dealer, options)


def first_legal(state: MatchState) -> MatchState:
    """The seat on turn plays its first legal card (canonical order)."""
    assert state.deal is not None and state.deal.turn is not None
    seat = state.deal.turn
    return play(state, seat, legal_cards(state, seat)[0])


def finish_deal(state: MatchState) -> MatchState:
    """Play the rest of the deal with the first legal card each time."""
    while state.phase == PLAY:
        state = first_legal(state)
    return state


def whole_deal(state: MatchState, deck: Sequence[str] | None = None) -> MatchState:
    """From DEALING: deal, reveal, the dealer discards its two first allowed cards, play out."""
    assert state.deal is not None
    dealer = state.deal.dealer
    for _ in range(3):
        state = do(state, {"type": "deal_next_pass", "seat": dealer})
    state = do(state, {"type": "end_reveal"})
    state = do(state, {"type": "turn_timeout"})  # the scart, chosen by the engine
    state = finish_deal(state)
    assert state.phase in (ROUND_OVER, "MATCH_OVER")
    return state


def rotated_deck(k: int) -> list[str]:
    """A deterministic deck different for each k (the canonical deck rotated)."""
    k %= 78
    return CANONICAL_DECK[k:] + CANONICAL_DECK[:k]


# --- states built directly (near the end of a deal) ----------------------------------------

def constructed(*, dealer: int, hands: Mapping[int, Sequence[str]], scart: Sequence[str],
                piles: Mapping[str, Sequence[str]], leader: int,
                narr_debt: NarrDebt | None = None, options: Options | None = None,
                totals: tuple[int, int] = (0, 0), deals_played: int = 0,
                bock_pending: int = 0, is_bock: bool = False,
                tricks_won: tuple[int, int] | None = None,
                first_dealer: int | None = None) -> MatchState:
    """A consistent PLAY state late in a deal: all 78 cards in hands, scart and piles.

    The completed tricks are rebuilt from the piles (four cards each, in canonical order);
    `tricks_won` says how many of them each team won (default: pile sizes // 4), and the last
    completed trick is won by `leader`, who leads the current one.
    """
    sizes = {len(h) for h in hands.values()}
    assert len(hands) == 4 and len(sizes) == 1, "equal hand sizes"
    left = sizes.pop()
    number = 20 - left
    everything = [c for s in SEATS for c in hands[s]] + list(scart) + list(piles["A"]) + list(
        piles["B"])
    assert sorted(everything, key=INDEX.__getitem__) == CANONICAL_DECK, "78 cards conserved"
    done = number - 1
    pile_a, pile_b = list(piles["A"]), list(piles["B"])
    assert len(pile_a) + len(pile_b) == 4 * done
    if tricks_won is None:
        tricks_won = (len(pile_a) // 4, done - len(pile_a) // 4)
    assert sum(tricks_won) == done
    lead_team = leader % 2
    other_seat = (leader + 1) % 4
    winners = ([other_seat] * tricks_won[1 - lead_team] + [leader] * tricks_won[lead_team])
    flat = (pile_b + pile_a) if lead_team == 0 else (pile_a + pile_b)
    tricks: list[Trick] = []
    led_suits = ""
    prev = (dealer + 1) % 4
    for i, winner in enumerate(winners):
        chunk = [INDEX[c] for c in flat[4 * i:4 * i + 4]]
        cards = tuple(((prev + k) % 4, c) for k, c in enumerate(chunk))
        led = next(SUIT_OF[c] for c in chunk if SUIT_OF[c] is not None)
        tricks.append(Trick(i + 1, prev, cards, led, None, winner))
        if led not in led_suits:
            led_suits += led
        prev = winner
    assert prev == leader or done == 0
    # The deck that would have dealt these hands: today's hands + what each seat played (+ scart).
    original: list[list[str]] = [list(hands[s]) for s in SEATS]
    original[dealer] += list(scart)
    for t in tricks:
        for s, c in t.cards:
            original[s].append(CARD_IDS[c])
    deck = [INDEX[c] for c in deck_from_hands(original, dealer)]
    reveal = [0, 0, 0, 0]
    for s in SEATS:
        reveal[s] = INDEX[original[s][-1]]
    deal = Deal(
        number=deals_played + 1, dealer=dealer, deck=tuple(deck), passes=3,
        hands=tuple(mask_of([INDEX[c] for c in hands[s]]) for s in SEATS),  # type: ignore[arg-type]
        reveal=tuple(reveal), scart=tuple(sorted(INDEX[c] for c in scart)),  # type: ignore[arg-type]
        is_bock=is_bock, tricks=tuple(tricks),
        current=Trick(number, leader, (), None), turn=leader, led_suits=led_suits,
        piles=(mask_of([INDEX[c] for c in pile_a]), mask_of([INDEX[c] for c in pile_b])),
        narr_debt=narr_debt, points=None, bock_triggered=False,
    )
    first = dealer if first_dealer is None else first_dealer
    return MatchState(options=options or Options(), first_dealer=first, phase=PLAY,
                      dealer=dealer, totals=totals, deals_played=deals_played,
                      bock_pending=bock_pending, deal=deal, winner=None)


# --- two deals about to end: a 36:36 tie, and all 19 tricks to team A ------------------------

LAST_TRICK = {OWNER: ["T21"], ANNA: ["C1"], BENEDETG: ["T20"], CURDIN: ["C2"]}  # A wins it
LAST_SCART = ["C3", "C4"]  # Curdin (B) dealt
TIE_A_PILE = ["CK", "RK", "SK", "BK", "T1", "NARR", "CN", "CQ"]  # + trick 19 → exactly 36


def _at_trick_19(a_pile: list[str], tricks_won: tuple[int, int], **kw: Any) -> MatchState:
    used = {c for cs in LAST_TRICK.values() for c in cs} | set(LAST_SCART) | set(a_pile)
    b_pile = [c for c in CANONICAL_DECK if c not in used]
    deals_played = kw.get("deals_played", 0)
    kw.setdefault("first_dealer", (CURDIN - deals_played) % 4)
    return constructed(dealer=CURDIN, hands=LAST_TRICK, scart=LAST_SCART,
                       piles={"A": a_pile, "B": b_pile}, leader=OWNER, tricks_won=tricks_won,
                       **kw)


def tie_at_trick_19(**kw: Any) -> MatchState:
    """Trick 19 to play; when the owner's T21 takes it the deal ends 36:36 (B won 16 tricks)."""
    return _at_trick_19(TIE_A_PILE, (2, 16), **kw)


def all_tricks_at_trick_19(**kw: Any) -> MatchState:
    """Trick 19 to play; team A won tricks 1–18 and takes trick 19 too (71:1 with the scart)."""
    used = {c for cs in LAST_TRICK.values() for c in cs} | set(LAST_SCART)
    a_pile = [c for c in CANONICAL_DECK if c not in used]
    return _at_trick_19(a_pile, (18, 0), **kw)


def play_last_trick(state: MatchState) -> MatchState:
    for seat in SEATS:
        state = play(state, seat, LAST_TRICK[seat][0])
    return state
