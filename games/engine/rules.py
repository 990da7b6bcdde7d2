"""The transition function: `apply(state, action) -> (state, events)` (RULES.md §5–§12).

Actions are plain mappings shaped like the transcript's (TRANSCRIPT.md): {"type": "play_card",
"seat": 2, "card": "SK", "call_buob": true}. Check order for every action: phase (WRONG_PHASE or
MATCH_OVER) → role (NOT_DEALER, NOT_YOUR_TURN) → the action's own checks. A rejection raises
RuleError and, states being immutable, changes nothing. One kind of rejection is also a public
fact of the table (RULES §8: a BUOB call refused because of where a jack lies): it raises the
subclass PublicRefusal, which carries the table after the refusal and its event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import events as ev
from .actions import ENGINE_TYPES, SYSTEM_TYPES
from .buob import callable_suits, evaluate_call, refused_suits
from .cards import (
    CARD_IDS,
    HONOURS_MASK,
    INDEX,
    JACKS,
    KING_SUIT,
    NARR,
    NARR_BIT,
    NUM_CARDS,
    ONE_POINT_MASK,
    POINTS_OF,
    STRENGTH_OF,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    TRUMP_MASK,
    cards_of,
    counted_points,
    ids_of,
)
from .errors import ErrorCode, RuleError
from .state import (
    DEALING,
    LOBBY,
    MATCH_OVER,
    PLAY,
    REVEAL,
    ROUND_OVER,
    SCART,
    TEAMS,
    TRICKS_PER_DEAL,
    Buob,
    BuobMode,
    Deal,
    MatchState,
    NarrDebt,
    Phase,
    Team,
    Trick,
    tricks_won,
)


class PublicRefusal(RuleError):
    """A rejected action whose refusal is itself public (RULES.md §8: a BUOB call refused with
    BUOB_SUIT_NOT_CANDIDATE or BUOB_NO_TARGET, which depends on where a jack lies).

    Still a RuleError: the action is rejected with its code and the state passed to `apply` is
    untouched. The refusal is a fact of the table, though: `state` is the table after it (the
    refused suits recorded for the rest of the trick) and `events` its public `buob_refused`
    event. Whoever keeps the table (the services, a transcript replay) continues from `state`.
    """

    def __init__(self, code: ErrorCode | str, state: MatchState,
                 events: tuple[ev.Event, ...]) -> None:
        super().__init__(code)
        self.state = state
        self.events = events


# The actions `apply` takes, and those only the server sends: the action table's
# (actions.py), which `_HANDLERS` below follows.
ACTION_TYPES = ENGINE_TYPES
SYSTEM_ACTIONS = SYSTEM_TYPES
# The BUOB refusals that depend on where a jack lies: public (RULES §8, §13).
PUBLIC_REFUSALS = frozenset({ErrorCode.BUOB_SUIT_NOT_CANDIDATE, ErrorCode.BUOB_NO_TARGET})

Result = tuple[MatchState, list[ev.Event]]


# --- helpers ------------------------------------------------------------------------------

def _seat(action: Mapping[str, Any]) -> int:
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise RuleError("INVALID_ACTION")
    return seat


def _deck(action: Mapping[str, Any]) -> tuple[int, ...]:
    deck = action.get("deck")
    if not isinstance(deck, list | tuple) or len(deck) != NUM_CARDS:
        raise RuleError("INVALID_ACTION")
    try:
        out = tuple(map(INDEX.__getitem__, deck))  # a C loop: no generator frame per card
    except (KeyError, TypeError):
        raise RuleError("INVALID_ACTION") from None
    if len(set(out)) != NUM_CARDS:
        raise RuleError("INVALID_ACTION")
    return out


def _require_phase(state: MatchState, *phases: Phase, in_match_over: str = "WRONG_PHASE"
                   ) -> None:
    if state.phase not in phases:
        raise RuleError(in_match_over if state.phase == MATCH_OVER else "WRONG_PHASE")


def _new_deal(state: MatchState, deck: tuple[int, ...], dealer: int
              ) -> tuple[MatchState, ev.RoundStarted]:
    is_bock = state.bock_pending > 0
    deal = Deal(
        number=state.deals_played + 1, dealer=dealer, deck=deck, passes=0,
        hands=(0, 0, 0, 0), reveal=None, scart=None, is_bock=is_bock, tricks=(), current=None,
        turn=None, led_suits="", piles=(0, 0), narr_debt=None, points=None, bock_triggered=False,
    )
    (options, first_dealer, _, _, totals, deals_played, bock_pending, _, winner) = state
    new: MatchState = _tuple_new(MatchState, (
        options, first_dealer, DEALING, dealer, totals, deals_played,
        bock_pending - 1 if is_bock else bock_pending, deal, winner))
    return new, ev.RoundStarted(deal.number, dealer, is_bock)


def forbidden_scart_mask(deal: Deal, scart_forbidden: str) -> int:
    """Cards the dealer may not discard this deal (RULES §6, option `scart_forbidden`)."""
    if scart_forbidden == "none":
        return 0
    if scart_forbidden == "honours_and_trumps":
        mask = HONOURS_MASK | TRUMP_MASK
        if (deal.hands[deal.dealer] & ~mask).bit_count() >= 2:
            return mask
    return HONOURS_MASK


def lowest_cards(mask: int, n: int) -> list[int]:
    """The n cards of lowest point value in mask (ties: lowest canonical index)."""
    return sorted(cards_of(mask), key=lambda c: (POINTS_OF[c], c))[:n]


def trick_legality(hand: int, led: str | None, buob: Buob | None, seat: int
                   ) -> tuple[int, ErrorCode]:
    """The one rule of which cards `seat` may play now (RULES §7, §8 forced jack), from its
    hand and the open trick's led suit and BUOB call: the mask of the legal cards of its hand,
    and the code that rejects any other card of that hand. (fast.py asks it too.)"""
    # The codes are module constants: an Enum member looked up as ErrorCode.X costs more
    # than the rest of this function, which runs twice for every card played.
    if buob is not None and buob.mode == _FORCED and buob.target == seat:
        return 1 << JACKS[buob.suit], _FORCED_JACK
    if led is None:
        return hand, _NOT_IN_HAND  # a lead: any card of the hand
    follow = hand & SUIT_MASK[led]
    if follow:
        return follow | (hand & NARR_BIT), _MUST_FOLLOW
    trumps = hand & TRUMP_MASK
    if trumps:
        return trumps | (hand & NARR_BIT), _MUST_TRUMP
    # Void in L and in trumps: any card. (The Narr, exempt from following, is in every mask.)
    return hand, _NOT_IN_HAND


_FORCED_JACK = ErrorCode.BUOB_FORCED_JACK
_NOT_IN_HAND = ErrorCode.CARD_NOT_IN_HAND
_MUST_FOLLOW = ErrorCode.MUST_FOLLOW_SUIT
_MUST_TRUMP = ErrorCode.MUST_PLAY_TRUMP
_NOT_YOUR_TURN = ErrorCode.NOT_YOUR_TURN
_UNKNOWN_CARD = ErrorCode.UNKNOWN_CARD


def _legality(deal: Deal, seat: int) -> tuple[int, ErrorCode]:
    """`trick_legality` for `seat` at `deal`'s open trick."""
    trick = deal.current
    if trick is None:
        return 0, ErrorCode.WRONG_PHASE
    return trick_legality(deal.hands[seat], trick.led, trick.buob, seat)


def _legal_mask(deal: Deal, seat: int) -> int:
    """The cards `seat` may play now (see `trick_legality`)."""
    return _legality(deal, seat)[0]


# --- the actions --------------------------------------------------------------------------

def _start_round(state: MatchState, action: Mapping[str, Any]) -> Result:
    _require_phase(state, LOBBY)
    deck = _deck(action)
    first = action.get("first_dealer", state.first_dealer)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first <= 3:
        raise RuleError("INVALID_ACTION")
    state = state._replace(first_dealer=first)
    new, started = _new_deal(state, deck, first)
    return new, [started]


def _deal_pass(state: MatchState, auto: bool = False) -> Result:
    (options, first_dealer, phase, dealer, totals, deals_played, bock_pending, deal,
     winner) = state
    assert deal is not None
    (number, d, deck, passes, (h0, h1, h2, h3), reveal, scart, is_bock, tricks, current, turn,
     led_suits, piles, narr_debt, points, bock_triggered) = deal
    hands = [h0, h1, h2, h3]
    pos = passes * 24
    shown = [0, 0, 0, 0]
    for k in (1, 2, 3, 4):
        s = (d + k) % 4
        n = (9 if s == d else 7) if passes == 2 else 6
        taken = deck[pos:pos + n]
        pos += n
        hands[s] |= sum(map(_BIT.__getitem__, taken))  # distinct cards: their sum is their OR
        if passes == 2:
            shown[s] = taken[-1]
    passes += 1
    counts = (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(),
              hands[3].bit_count())
    events: list[ev.Event] = [ev.PassDealt(passes, counts, auto)]
    phase = DEALING
    if passes == 3:
        reveal = (shown[0], shown[1], shown[2], shown[3])
        phase = REVEAL
        events.append(ev.RevealShown(reveal))
    # As on the card path, the tuples are built as literals rather than through _replace.
    new_deal: Deal = _tuple_new(Deal, (
        number, d, deck, passes, (hands[0], hands[1], hands[2], hands[3]), reveal, scart,
        is_bock, tricks, current, turn, led_suits, piles, narr_debt, points, bock_triggered))
    return _tuple_new(MatchState, (options, first_dealer, phase, dealer, totals, deals_played,
                                   bock_pending, new_deal, winner)), events


_BIT = tuple(1 << c for c in range(NUM_CARDS))


def _deal_next_pass(state: MatchState, action: Mapping[str, Any]) -> Result:
    _require_phase(state, DEALING)
    assert state.deal is not None
    if _seat(action) != state.deal.dealer:
        raise RuleError("NOT_DEALER")
    return _deal_pass(state)


def _end_reveal(state: MatchState, action: Mapping[str, Any]) -> Result:
    _require_phase(state, REVEAL)
    return _with_phase(state, SCART, state.deal), [ev.RevealEnded()]


def _scart(state: MatchState, cards: list[int], auto: bool = False) -> Result:
    deal = state.deal
    assert deal is not None
    d = deal.dealer
    hands = list(deal.hands)
    hands[d] &= ~((1 << cards[0]) | (1 << cards[1]))
    leader = (d + 1) % 4
    scart = (min(cards), max(cards))
    (number, dealer, deck, passes, _, reveal, _, is_bock, tricks, _, _, led_suits, piles,
     narr_debt, points, bock_triggered) = deal
    new_deal: Deal = _tuple_new(Deal, (
        number, dealer, deck, passes, (hands[0], hands[1], hands[2], hands[3]), reveal, scart,
        is_bock, tricks, _tuple_new(Trick, (1, leader, (), None, None, None, "")), leader,
        led_suits, piles, narr_debt, points, bock_triggered))
    return _with_phase(state, PLAY, new_deal), [ev.ScartDiscarded(d, scart, auto)]


def _discard_scart(state: MatchState, action: Mapping[str, Any]) -> Result:
    _require_phase(state, SCART)
    deal = state.deal
    assert deal is not None
    if _seat(action) != deal.dealer:
        raise RuleError("NOT_DEALER")
    raw = action.get("cards")
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        raise RuleError("SCART_WRONG_COUNT")
    first, second = raw
    if not (isinstance(first, str) and first in INDEX and isinstance(second, str)
            and second in INDEX):
        raise RuleError("UNKNOWN_CARD")
    cards = [INDEX[first], INDEX[second]]
    if cards[0] == cards[1]:
        raise RuleError("SCART_DUPLICATE")
    both = (1 << cards[0]) | (1 << cards[1])
    if deal.hands[deal.dealer] & both != both:
        raise RuleError("CARD_NOT_IN_HAND")
    if forbidden_scart_mask(deal, state.options.scart_forbidden) & both:
        raise RuleError("SCART_FORBIDDEN_CARD")
    return _scart(state, cards)


_DEAL_AT = MatchState._fields.index("deal")
_tuple_new = tuple.__new__  # NamedTuple._make without its length check: fields are complete
_NEXT_SEAT = (1, 2, 3, 0)
_FORCED = BuobMode.FORCED
_TEAM_A = Team.A
# For each led suit L, every card's rank in a trick led in L (RULES §7): a trump 100 + its
# strength, a card of L its strength, any other card (the Narr too) -1. The winner is the
# highest rank among four look-ups; no card ranks above -1 only when a BUOB exchange took the
# only card of L from a trick without trumps.
TRICK_RANK: dict[str, tuple[int, ...]] = {
    led: tuple(100 + STRENGTH_OF[c] if SUIT_OF[c] == "T"
               else STRENGTH_OF[c] if SUIT_OF[c] == led else -1 for c in range(NUM_CARDS))
    for led in (*SUITS, "T")
}


def _with_phase(state: MatchState, phase: Phase, deal: Deal | None) -> MatchState:
    """`state` with another phase and deal (a literal, not _replace: see `_play_card`)."""
    (options, first_dealer, _, dealer, totals, deals_played, bock_pending, _, winner) = state
    return _tuple_new(MatchState, (options, first_dealer, phase, dealer, totals, deals_played,
                                   bock_pending, deal, winner))


def _with_deal(state: MatchState, deal: Deal) -> MatchState:
    fields: list[Any] = list(state)
    fields[_DEAL_AT] = deal
    return _tuple_new(MatchState, fields)


def _play_card(state: MatchState, action: Mapping[str, Any], auto: bool = False) -> Result:
    """Check a card (RULES §7, §12: phase → turn → card → hand → legality), place it, attach a
    BUOB call if asked, complete the trick on the 4th card. A turn timeout plays its card
    through here too (`auto`), so there is one way a card reaches the table.

    The hot path of every deal, written for speed: the table's tuples are unpacked into
    locals once and the new ones built as literals (in C), not through _replace, the
    NamedTuples' own __new__ (a Python frame each) or list(...) + tuple.__new__ (two more
    copies of a 16-field deal)."""
    (options, first_dealer, phase, dealer, totals, deals_played, bock_pending, deal,
     winner) = state
    if phase is not PLAY:
        _require_phase(state, PLAY)
    assert deal is not None
    (deal_number, deal_dealer, deck, passes, hands, reveal, scart, is_bock, tricks, trick, seat,
     led_suits, piles, narr_debt, points, bock_triggered) = deal
    sent = action.get("seat")
    # `is`: the seat on turn sent back as the same int object, as callers do; otherwise the
    # full check (an equal int that is not a bool).
    if sent is not seat and (sent != seat or isinstance(sent, bool)):
        raise RuleError(_NOT_YOUR_TURN)
    assert seat is not None and trick is not None  # PLAY always has a seat on turn and a trick
    try:  # only the 78 ids are keys: anything else (none sent, a number, a list) is unknown
        card = INDEX[action["card"]]
    except (KeyError, TypeError):
        raise RuleError(_UNKNOWN_CARD) from None
    hand = hands[seat]
    bit = 1 << card
    if not hand & bit:
        raise RuleError(_NOT_IN_HAND)
    number, leader, cards, led, buob, _, refused = trick
    legal, refusal = trick_legality(hand, led, buob, seat)
    if not legal & bit:
        raise RuleError(refusal)
    # Accepted: the card leaves the hand (XOR: it is in it) and joins the trick.
    h0, h1, h2, h3 = hands
    if seat == 0:
        h0 ^= bit
    elif seat == 1:
        h1 ^= bit
    elif seat == 2:
        h2 ^= bit
    else:
        h3 ^= bit
    new_hands = (h0, h1, h2, h3)
    if led is None and card != NARR:
        led = SUIT_OF[card]
    cards = (*cards, (seat, card))
    trick = _tuple_new(Trick, (number, leader, cards, led, buob, None, refused))
    events: list[ev.Event] = [_CARD_PLAYED.get((seat, card, number, auto))
                              or ev.card_played(seat, card, number, auto)]
    if action.get("call_buob") is True:
        buob = _evaluate(state, trick, new_hands, seat, action.get("buob_suit"))
        trick = trick._replace(buob=buob)
        events.append(ev.BuobCalled(buob.caller, buob.suit, buob.target, buob.mode, number))
    if len(cards) < 4:
        new_deal: Deal = _tuple_new(Deal, (
            deal_number, deal_dealer, deck, passes, new_hands, reveal, scart, is_bock, tricks,
            trick, _NEXT_SEAT[seat], led_suits, piles, narr_debt, points, bock_triggered))
        return _tuple_new(MatchState, (options, first_dealer, phase, dealer, totals,
                                       deals_played, bock_pending, new_deal, winner)), events
    return _complete_trick(state, trick, new_hands, events)


_CARD_PLAYED = ev.CARD_PLAYED  # the shared CardPlayed events (events.card_played builds them)


def _call_buob(state: MatchState, action: Mapping[str, Any]) -> Result:
    _require_phase(state, PLAY)
    deal = state.deal
    assert deal is not None
    seat = _seat(action)
    current = deal.current
    if current is None:
        raise RuleError("BUOB_TRICK_NOT_OPEN")
    buob = _evaluate(state, current, deal.hands, seat, action.get("suit"))
    trick = current._replace(buob=buob)
    new = state._replace(deal=deal._replace(current=trick))
    return new, [ev.BuobCalled(buob.caller, buob.suit, buob.target, buob.mode, trick.number)]


def _evaluate(state: MatchState, trick: Trick, hands: tuple[int, ...], caller: int,
              suit: object) -> Buob:
    """The call `caller` makes on `trick` (as the call sees it: for an attached call, with the
    card placed), or its refusal. A refusal that depends on where a jack lies is public
    (RULES §8): raised as PublicRefusal, carrying the table with the refused suits recorded in
    the open trick and the `buob_refused` event. A named suit outside C R S B is never a
    candidate whatever the cards: that refusal stays private, like codes 1-5."""
    deal = state.deal
    assert deal is not None
    try:
        return evaluate_call(deal, trick, hands, caller, suit, state.options)
    except RuleError as exc:
        if exc.code not in PUBLIC_REFUSALS:
            raise
        if suit is None:
            named = None
        elif isinstance(suit, str) and suit in SUITS:
            named = suit
        else:
            raise
        current = deal.current
        assert current is not None  # a refusal with code 6 or 7 saw an open trick
        refused = refused_suits(deal, trick, caller, named, state.options)
        after = state
        if refused != current.refused:
            after = _with_deal(state, deal._replace(current=current._replace(refused=refused)))
        raise PublicRefusal(exc.code, after, (
            ev.BuobRefused(caller, named, exc.code.value, current.number),)) from None



def trick_winner(cards: Any, led: Any, buob: Any) -> tuple[int, int, int]:
    """A complete trick's winner, its cards as a mask and the Narr's player (-1: none): one
    pass over the cards with the led suit's rank table (RULES §7). Shared with fast.py."""
    rank = TRICK_RANK[led]
    winner = best = -1
    mask = 0
    narr_owner = -1
    for s, c in cards:
        mask |= 1 << c
        r = rank[c]
        if r > best:
            best, winner = r, s
        if c == NARR:
            narr_owner = s
    if winner < 0:
        assert buob is not None  # only an exchange can take every card of the led suit away
        winner = buob.king_seat
    return winner, mask, narr_owner

def _complete_trick(state: MatchState, trick: Trick, hands: tuple[int, int, int, int],
                    events: list[ev.Event]) -> Result:
    """RULES §7, in order: exchange → winner → distribute → settle the debt → next trick.

    `trick` holds the four cards and `hands` are the hands after the 4th; `state` is the
    table before it. As in `_play`, the deal and the table are rebuilt as tuple literals."""
    (options, first_dealer, phase, dealer, totals, deals_played, bock_pending, deal,
     winner_of_match) = state
    assert deal is not None
    (deal_number, deal_dealer, deck, passes, _, reveal, scart, is_bock, tricks, _, _,
     led_suits, (pile_a, pile_b), debt, points, bock_triggered) = deal
    number, leader, cards, led, buob, _, _ = trick
    assert led is not None  # four cards, at most one of them the Narr
    # 1. A pending BUOB exchange (deferred or self): the jack takes the target's slot.
    if buob is not None:
        jack = JACKS[buob.suit]
        returned = None
        if buob.mode != _FORCED:
            placed = list(cards)
            i = next(k for k, (s, _) in enumerate(placed) if s == buob.target)
            x = placed[i][1]
            if x != jack:
                new_hands = list(hands)
                new_hands[buob.target] = (new_hands[buob.target] & ~(1 << jack)) | (1 << x)
                hands = (new_hands[0], new_hands[1], new_hands[2], new_hands[3])
                placed[i] = (buob.target, jack)
                cards = tuple(placed)
                returned = x
        buob = buob._replace(returned_card=returned)
        events.append(ev.BuobResolved(buob.target, returned, jack, number))
    # 2. The winner: highest trump, else highest card of L, else the called king's player.
    winner, mask, narr_owner = trick_winner(cards, led, buob)
    wteam = winner % 2
    # 3. Distribute: tricks 1-18 send the Narr to its owner's team, a debt if that team lost.
    piles = [pile_a, pile_b]
    if narr_owner >= 0 and number < TRICKS_PER_DEAL:
        owner_team = narr_owner % 2
        piles[owner_team] |= NARR_BIT
        piles[wteam] |= mask & ~NARR_BIT
        if owner_team != wteam:
            debt = NarrDebt(debtor=TEAMS[owner_team], creditor=TEAMS[wteam], trick=number,
                            status="pending")
            events.append(ev.NarrDebtCreated(number, debt.debtor, debt.creditor))
    else:
        piles[wteam] |= mask
    done: Trick = _tuple_new(Trick, (number, leader, cards, led, buob, winner, ""))
    events.append(ev.TrickWon(number, winner, TEAMS[wteam], cards))
    # 4. Try to settle a pending Narr debt with a 1-point card of the debtor's pile.
    if debt is not None and debt.status == "pending":
        dt = 0 if debt.debtor == _TEAM_A else 1
        payable = piles[dt] & ONE_POINT_MASK
        if payable:
            paid = (payable & -payable).bit_length() - 1
            piles[dt] &= ~(1 << paid)
            piles[1 - dt] |= 1 << paid
            debt = debt._replace(status="settled", paid_card=paid, settled_at=number)
            events.append(ev.NarrDebtSettled(debt.debtor, debt.creditor, number, paid))
    # 5. Record L as led; next trick or scoring.
    if led not in led_suits:
        led_suits += led
    if number < TRICKS_PER_DEAL:
        new_deal: Deal = _tuple_new(Deal, (
            deal_number, deal_dealer, deck, passes, hands, reveal, scart, is_bock,
            (*tricks, done), _tuple_new(Trick, (number + 1, winner, (), None, None, None, "")),
            winner, led_suits, (piles[0], piles[1]), debt, points, bock_triggered))
        return _tuple_new(MatchState, (options, first_dealer, phase, dealer, totals,
                                       deals_played, bock_pending, new_deal,
                                       winner_of_match)), events
    return _score_deal(state, _tuple_new(Deal, (
        deal_number, deal_dealer, deck, passes, hands, reveal, scart, is_bock, (*tricks, done),
        None, None, led_suits, (piles[0], piles[1]), debt, points, bock_triggered)), events)


def _score_deal(state: MatchState, deal: Deal, events: list[ev.Event]) -> Result:
    """RULES §10–§11: scart to the dealer's team, deal-end debt fallback, count, Bock, totals."""
    piles = list(deal.piles)
    assert deal.scart is not None
    dteam = deal.dealer % 2
    piles[dteam] |= (1 << deal.scart[0]) | (1 << deal.scart[1])
    debt = deal.narr_debt
    if debt is not None and debt.status == "pending":
        dt = 0 if debt.debtor == Team.A else 1
        others = piles[dt] & ~NARR_BIT
        paid = lowest_cards(others, 1)[0] if others else NARR
        piles[dt] &= ~(1 << paid)
        piles[1 - dt] |= 1 << paid
        debt = debt._replace(status="settled", paid_card=paid, settled_at="end")
        events.append(ev.NarrDebtSettled(debt.debtor, debt.creditor, "end", paid))
    points = (counted_points(piles[0]), counted_points(piles[1]))
    won = tricks_won(deal)
    opts = state.options
    fired: list[str] = []
    if opts.bock:
        if "tie" in opts.bock_triggers and points[0] == points[1]:
            fired.append("tie")
        if "all_tricks" in opts.bock_triggers and TRICKS_PER_DEAL in won:
            fired.append("all_tricks")
    triggered = bool(fired)
    mult = 2 if deal.is_bock else 1
    totals = (state.totals[0] + points[0] * mult, state.totals[1] + points[1] * mult)
    deal = deal._replace(piles=(piles[0], piles[1]), narr_debt=debt, points=points,
                         bock_triggered=triggered)
    deals_played = state.deals_played + 1
    bock_pending = state.bock_pending + (4 if triggered else 0)
    events.append(ev.DealScored(deal.number, points, mult, totals, won, triggered,
                                tuple(fired)))
    phase: Phase = ROUND_OVER
    winner: str | None = None
    if opts.match_deals and deals_played >= opts.match_deals:
        phase, winner = MATCH_OVER, _match_winner(totals)
        events.append(ev.MatchOver(winner, totals))
    new = state._replace(phase=phase, deal=deal, totals=totals, deals_played=deals_played,
                         bock_pending=bock_pending, winner=winner)
    return new, events


def _match_winner(totals: tuple[int, int]) -> str:
    """Team.A, Team.B or "draw"."""
    if totals[0] == totals[1]:
        return "draw"
    return Team.A if totals[0] > totals[1] else Team.B


def _turn_timeout(state: MatchState, action: Mapping[str, Any]) -> Result:
    _require_phase(state, DEALING, SCART, PLAY)
    deal = state.deal
    assert deal is not None
    if state.phase == DEALING:
        return _deal_pass(state, auto=True)
    if state.phase == SCART:
        allowed = deal.hands[deal.dealer] & ~forbidden_scart_mask(deal,
                                                                  state.options.scart_forbidden)
        return _scart(state, lowest_cards(allowed, 2), auto=True)
    seat = deal.turn
    assert seat is not None
    card = lowest_cards(_legal_mask(deal, seat), 1)[0]
    return _play_card(state, {"seat": seat, "card": CARD_IDS[card]}, auto=True)


def _regame(state: MatchState, action: Mapping[str, Any]) -> Result:
    _require_phase(state, ROUND_OVER, in_match_over="MATCH_OVER")
    deck = _deck(action)
    new, started = _new_deal(state, deck, (state.dealer + 1) % 4)
    return new, [started]


def _end_match(state: MatchState, action: Mapping[str, Any]) -> Result:
    if state.phase != ROUND_OVER or state.options.match_deals != 0:
        raise RuleError("WRONG_PHASE")
    winner = _match_winner(state.totals)
    return (state._replace(phase=MATCH_OVER, winner=winner),
            [ev.MatchOver(winner, state.totals)])


def resign(state: MatchState, seat: int) -> Result:
    """A seated player gives the match up: it is over at once, won by the other team, with the
    totals as they stand (the deal in play is not scored). Not an engine action of the
    transcript format: the writer applies it (the RESIGN command) and logs it as such."""
    _require_phase(state, DEALING, REVEAL, SCART, PLAY, ROUND_OVER, in_match_over="MATCH_OVER")
    if not 0 <= seat <= 3:
        raise RuleError("INVALID_ACTION")
    winner = TEAMS[(seat + 1) % 2]
    return (state._replace(phase=MATCH_OVER, winner=winner),
            [ev.MatchOver(winner, state.totals)])


def _new_match(state: MatchState, action: Mapping[str, Any]) -> Result:
    _require_phase(state, MATCH_OVER)
    new = state._replace(phase=LOBBY, dealer=state.first_dealer, totals=(0, 0), deals_played=0,
                         bock_pending=0, deal=None, winner=None)
    return new, [ev.MatchReset()]


_HANDLERS: dict[str | None, Callable[[MatchState, Mapping[str, Any]], Result]] = {
    "start_round": _start_round,
    "deal_next_pass": _deal_next_pass,
    "end_reveal": _end_reveal,
    "discard_scart": _discard_scart,
    "play_card": _play_card,
    "call_buob": _call_buob,
    "turn_timeout": _turn_timeout,
    "regame": _regame,
    "end_match": _end_match,
    "new_match": _new_match,
}


def apply(state: MatchState, action: Mapping[str, Any]) -> Result:
    """Apply one action; return the new state and the typed events it produced.

    Raises RuleError (code from RULES.md §12) if the action is rejected; `state` is unchanged.
    A PublicRefusal (a RuleError) also carries the table after a public refusal (RULES §8):
    whoever keeps the table continues from its `state` and announces its `events`.
    """
    handler = _HANDLERS.get(action.get("type"))
    if handler is None:
        raise RuleError("INVALID_ACTION")
    return handler(state, action)


# --- what a seat may do now ---------------------------------------------------------------

def legal_cards(state: MatchState, seat: int) -> list[str]:
    """The card ids `seat` may play now (empty unless it is that seat's turn in PLAY)."""
    deal = state.deal
    if state.phase != PLAY or deal is None or deal.turn != seat:
        return []
    return ids_of(_legality(deal, seat)[0])


# legal_actions' keys, in their order, with the values of a seat that may do nothing; the three
# lists are filled in by legal_actions with new ones.
_NOTHING: dict[str, Any] = {
    "deal": False, "scart": False, "scart_allowed": None, "play": False, "legal_cards": None,
    "buob_suits": None, "regame": False, "end_match": False, "new_match": False,
}


def legal_actions(state: MatchState, seat: int | None) -> dict[str, Any]:
    """What a seat may do now — the single source of legality for clients and bots.

    `buob_suits` is judged from what the seat can see (see buob.callable_suits); room-level
    permissions (owner, `regame_by`) are the web layer's and are not applied here.
    """
    deal = state.deal
    phase = state.phase
    # PLAY first: every card of a deal asks this for the seat on turn (and for every view),
    # most often with no king on the table.
    if phase is PLAY and seat is not None and deal is not None:
        trick = deal.current
        if trick is not None:
            play = deal.turn == seat
            legal = ids_of(trick_legality(deal.hands[seat], trick.led, trick.buob, seat)[0]
                           ) if play else []
            suits: list[str] = []
            if trick.buob is None:
                for _, c in trick.cards:  # no king on the table (most tricks): no call
                    if c in KING_SUIT:
                        suits = callable_suits(deal, seat, state.options)
                        break
            # A copy of the constant answer and four stores cost a third less than a literal
            # of nine keys; the lists are new, never the template's.
            out = _NOTHING.copy()
            out["scart_allowed"] = []
            out["play"] = play
            out["legal_cards"] = legal
            out["buob_suits"] = suits
            return out
    out = {
        "deal": False, "scart": False, "scart_allowed": [], "play": False, "legal_cards": [],
        "buob_suits": [], "regame": False, "end_match": False, "new_match": False,
    }
    if seat is None:
        return out
    if phase == DEALING:
        if deal is not None and deal.dealer == seat:
            out["deal"] = True
    elif phase == SCART:
        if deal is not None and deal.dealer == seat:
            out["scart"] = True
            forbidden = forbidden_scart_mask(deal, state.options.scart_forbidden)
            out["scart_allowed"] = ids_of(deal.hands[seat] & ~forbidden)
    elif phase == ROUND_OVER:
        out["regame"] = True
        out["end_match"] = state.options.match_deals == 0
    elif phase == MATCH_OVER:
        out["new_match"] = True
    return out
