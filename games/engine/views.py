"""The one projection: `view(state, seat | None)` (RULES.md §13).

Everything a socket, page, log line or error may show about a table is built here. A seat sees
its own hand and what is public; a spectator (seat None) sees only what is public. Once a deal is
over, everything of that deal is public for review.
"""

from __future__ import annotations

from typing import Any

from .cards import NARR_BIT, ids_of
from .codec import buob_public, by_seat, by_team, card_ids, debt_view, trick_view
from .errors import ErrorCode
from .rules import forbidden_scart_mask, legal_actions, trick_legality
from .state import (
    DEALING,
    MATCH_OVER,
    PLAY,
    REVEAL,
    ROUND_OVER,
    SCART,
    MatchState,
    dealt_hands,
    team_of,
    tricks_won,
)

# The keys of a view that depend on who reads it; every other key is the same for all five
# audiences, so a broadcast builds (and encodes) that shared part once (issue #16).
SEAT_KEYS = ("seat", "team", "hand", "legal_cards", "refusal", "actions", "scart", "buob")

# A view's keys in the order of the protocol's §6 table.
_ORDER = ("phase", "seat", "team", "dealer", "first_dealer", "turn", "options", "totals",
          "deals_played", "match_deals", "winner", "bock", "deal_number", "hand", "hand_counts",
          "legal_cards", "refusal", "actions", "reveal", "scart", "scart_count", "trick",
          "last_trick", "tricks_played", "tricks_won", "pile_counts", "buob", "narr_debt", "review")


def view(state: MatchState, seat: int | None) -> dict[str, Any]:
    """The table as `seat` (0–3) or a spectator (None) may see it; JSON-ready."""
    # The keys first, in the protocol's order (one C call), then both parts: `update` keeps a
    # key where it already is, so the view needs no reordering pass of its own.
    whole = dict.fromkeys(_ORDER)
    whole.update(shared_view(state))
    whole.update(seat_view(state, seat))
    return whole


def _over(state: MatchState) -> bool:
    deal = state.deal
    return (state.phase in (ROUND_OVER, MATCH_OVER) and deal is not None
            and deal.points is not None)


def seat_view(state: MatchState, seat: int | None) -> dict[str, Any]:
    """The part of `view(state, seat)` that depends on the audience: the SEAT_KEYS."""
    deal = state.deal
    actions = legal_actions(state, seat)
    out: dict[str, Any] = {
        "seat": seat,
        "team": None if seat is None else team_of(seat),
        "hand": [],
        "legal_cards": actions["legal_cards"],
        "refusal": None,
        "actions": actions,
        "scart": None,
        "buob": None,
    }
    if deal is None:
        return out
    over = _over(state)
    if seat is not None and not over:
        out["hand"] = ids_of(deal.hands[seat])
        out["refusal"] = refusal(state, seat, actions["legal_cards"])
    if deal.scart is not None and (over or seat == deal.dealer):
        out["scart"] = card_ids(deal.scart)
    if state.phase == PLAY and deal.current is not None:
        out["buob"] = {
            "call": buob_public(deal.current.buob, resolved=False),
            "suits": actions["buob_suits"],
        }
    return out


# The refusal's codes as plain strings, looked up once (see rules.trick_legality's note on
# the cost of an Enum member lookup on this path).
_MUST_FOLLOW = ErrorCode.MUST_FOLLOW_SUIT.value
_MUST_TRUMP = ErrorCode.MUST_PLAY_TRUMP.value
_NOT_YOUR_TURN = ErrorCode.NOT_YOUR_TURN.value
_WRONG_PHASE = ErrorCode.WRONG_PHASE.value
_MATCH_OVER = ErrorCode.MATCH_OVER.value
_SCART_FORBIDDEN = ErrorCode.SCART_FORBIDDEN_CARD.value
_VALUE = {code: code.value for code in ErrorCode}


def refusal(state: MatchState, seat: int, legal: list[str]) -> dict[str, Any] | None:
    """Why the cards of `seat`'s hand that `legal` (its legal cards) leaves out cannot be
    played now: `{"code", "cards", "suit"}`, or None when no card of the hand is refused.

    The code is the one `apply` would raise for such a card, in RULES §12's order: the phase
    (WRONG_PHASE, or MATCH_OVER), then the turn (NOT_YOUR_TURN), then the card's own check,
    which is `trick_legality`'s — the one rule that also gives `legal_actions` its legal cards,
    so the refusal can never disagree with them. In the Scart the dealer's cards are chosen,
    not played: the refused ones are those the room's rules keep out of the Scart
    (SCART_FORBIDDEN_CARD, naming them; `actions.scart_allowed` lists the others).

    `cards` are the cards the sentence names, all of them from this seat's own hand (RULES
    §13): the ones the rule asks for instead — the cards of the suit led (MUST_FOLLOW_SUIT),
    the trumps (MUST_PLAY_TRUMP), the called jack (BUOB_FORCED_JACK) — without the Narr, which
    is exempt and stays in `legal`. `suit` is the suit led for the first two codes, else None.
    """
    deal = state.deal
    assert deal is not None
    hand = deal.hands[seat]
    if not hand:
        return None
    phase = state.phase
    if phase is PLAY:
        trick = deal.current
        if deal.turn != seat or trick is None:
            return {"code": _NOT_YOUR_TURN, "cards": [], "suit": None}
        mask, code = trick_legality(hand, trick.led, trick.buob, seat)
        if mask == hand:
            return None
        # `legal` is `mask` as ids in canonical order, the Narr (if legal) last.
        named = legal[:-1] if mask & NARR_BIT else legal[:]
        suit = trick.led if code in (_MUST_FOLLOW, _MUST_TRUMP) else None
        return {"code": _VALUE[code], "cards": named, "suit": suit}
    if phase == SCART and seat == deal.dealer:
        kept = hand & forbidden_scart_mask(deal, state.options.scart_forbidden)
        if not kept:
            return None
        # The dealer's own cards that the room's rules keep out of the Scart (RULES §6).
        return {"code": _SCART_FORBIDDEN, "cards": ids_of(kept), "suit": None}
    return {"code": _MATCH_OVER if phase == MATCH_OVER else _WRONG_PHASE, "cards": [],
            "suit": None}


def shared_view(state: MatchState) -> dict[str, Any]:
    """Every key of a view but the SEAT_KEYS: public, the same for every audience."""
    deal = state.deal
    phase = state.phase
    over = _over(state)
    out: dict[str, Any] = {
        "phase": phase,
        "dealer": state.dealer,
        "first_dealer": state.first_dealer,
        "turn": None,
        "options": state.options.to_json(),
        "totals": by_team(state.totals),
        "deals_played": state.deals_played,
        "match_deals": state.options.match_deals,
        "winner": state.winner,
        "bock": {"enabled": state.options.bock, "pending": state.bock_pending,
                 "is_bock": bool(deal and deal.is_bock),
                 "multiplier": 2 if deal and deal.is_bock else 1},
        "deal_number": deal.number if deal else None,
        "hand_counts": [0, 0, 0, 0],
        "reveal": None,
        "scart_count": 0,
        "trick": None,
        "last_trick": None,
        "tricks_played": 0,
        "tricks_won": {"A": 0, "B": 0},
        "pile_counts": {"A": 0, "B": 0},
        "narr_debt": None,
        "review": None,
    }
    if deal is None:
        return out
    if phase == DEALING:
        out["turn"] = deal.dealer
    elif phase == PLAY:
        out["turn"] = deal.turn
    elif phase == SCART:
        out["turn"] = deal.dealer
    out["hand_counts"] = [h.bit_count() for h in deal.hands]
    if deal.reveal is not None and (phase == REVEAL or over or state.options.reveal_persist):
        out["reveal"] = by_seat(deal.reveal)
    if deal.scart is not None:
        out["scart_count"] = 2
    if deal.current is not None and deal.current.cards:
        out["trick"] = trick_view(deal.current)
    elif deal.current is not None:
        out["trick"] = {"number": deal.current.number, "leader": deal.current.leader,
                        "cards": [], "led": None, "winner": None, "buob": None}
    if deal.tricks:
        out["last_trick"] = trick_view(deal.tricks[-1])
    out["tricks_played"] = len(deal.tricks)
    out["tricks_won"] = by_team(tricks_won(deal))
    out["pile_counts"] = {"A": deal.piles[0].bit_count(), "B": deal.piles[1].bit_count()}
    if deal.narr_debt is not None:
        out["narr_debt"] = debt_view(deal.narr_debt, show_card=over)
    if over:
        assert deal.points is not None  # `over` means the deal is scored
        out["review"] = {
            "dealt_hands": {str(s): card_ids(h) for s, h in enumerate(dealt_hands(deal))},
            "tricks": [trick_view(t) for t in deal.tricks],
            "piles": {"A": ids_of(deal.piles[0]), "B": ids_of(deal.piles[1])},
            "points": by_team(deal.points),
            "bock_triggered": deal.bock_triggered,
            "multiplier": 2 if deal.is_bock else 1,
        }
    return out
