"""The one projection: `view(state, seat | None)` (RULES.md §13).

Everything a socket, page, log line or error may show about a table is built here. A seat sees
its own hand and what is public; a spectator (seat None) sees only what is public. Once a deal is
over, everything of that deal is public for review.
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_IDS, ids_of
from .rules import legal_actions
from .state import (
    DEALING,
    MATCH_OVER,
    PLAY,
    REVEAL,
    ROUND_OVER,
    Buob,
    MatchState,
    Trick,
    dealt_hands,
    team_of,
)


def _trick_json(trick: Trick) -> dict[str, Any]:
    return {
        "number": trick.number,
        "leader": trick.leader,
        "cards": [[s, CARD_IDS[c]] for s, c in trick.cards],
        "led": trick.led,
        "winner": trick.winner,
        "buob": _buob_json(trick.buob, done=trick.winner is not None),
    }


def _buob_json(b: Buob | None, done: bool) -> dict[str, Any] | None:
    if b is None:
        return None
    out: dict[str, Any] = {"caller": b.caller, "suit": b.suit, "target": b.target,
                           "mode": b.mode}
    if done:
        out["returned_card"] = None if b.returned_card is None else CARD_IDS[b.returned_card]
    return out


def view(state: MatchState, seat: int | None) -> dict[str, Any]:
    """The table as `seat` (0–3) or a spectator (None) may see it; JSON-ready."""
    deal = state.deal
    phase = state.phase
    over = phase in (ROUND_OVER, MATCH_OVER) and deal is not None and deal.points is not None
    out: dict[str, Any] = {
        "phase": phase,
        "seat": seat,
        "team": None if seat is None else team_of(seat),
        "dealer": state.dealer,
        "first_dealer": state.first_dealer,
        "turn": None,
        "options": state.options.to_json(),
        "totals": {"A": state.totals[0], "B": state.totals[1]},
        "deals_played": state.deals_played,
        "match_deals": state.options.match_deals,
        "winner": state.winner,
        "bock": {"enabled": state.options.bock, "pending": state.bock_pending,
                 "is_bock": bool(deal and deal.is_bock),
                 "multiplier": 2 if deal and deal.is_bock else 1},
        "deal_number": deal.number if deal else None,
        "hand": [],
        "hand_counts": [0, 0, 0, 0],
        "legal_cards": [],
        "actions": legal_actions(state, seat),
        "reveal": None,
        "scart": None,
        "scart_count": 0,
        "trick": None,
        "last_trick": None,
        "tricks_played": 0,
        "tricks_won": {"A": 0, "B": 0},
        "pile_counts": {"A": 0, "B": 0},
        "buob": None,
        "narr_debt": None,
        "review": None,
    }
    out["legal_cards"] = out["actions"]["legal_cards"]
    if deal is None:
        return out
    if phase == DEALING:
        out["turn"] = deal.dealer
    elif phase == PLAY:
        out["turn"] = deal.turn
    elif phase == "SCART":
        out["turn"] = deal.dealer
    if seat is not None and not over:
        out["hand"] = ids_of(deal.hands[seat])
    out["hand_counts"] = [h.bit_count() for h in deal.hands]
    if deal.reveal is not None and (phase == REVEAL or over or state.options.reveal_persist):
        out["reveal"] = {str(s): CARD_IDS[c] for s, c in enumerate(deal.reveal)}
    if deal.scart is not None:
        out["scart_count"] = 2
        if over or seat == deal.dealer:
            out["scart"] = [CARD_IDS[c] for c in deal.scart]
    if deal.current is not None and deal.current.cards:
        out["trick"] = _trick_json(deal.current)
    elif deal.current is not None:
        out["trick"] = {"number": deal.current.number, "leader": deal.current.leader,
                        "cards": [], "led": None, "winner": None, "buob": None}
    if deal.tricks:
        out["last_trick"] = _trick_json(deal.tricks[-1])
    out["tricks_played"] = len(deal.tricks)
    won = [0, 0]
    for t in deal.tricks:
        won[t.winner % 2] += 1  # type: ignore[operator]
    out["tricks_won"] = {"A": won[0], "B": won[1]}
    out["pile_counts"] = {"A": deal.piles[0].bit_count(), "B": deal.piles[1].bit_count()}
    if phase == PLAY and deal.current is not None:
        out["buob"] = {
            "call": _buob_json(deal.current.buob, done=False),
            "suits": out["actions"]["buob_suits"],
        }
    if deal.narr_debt is not None:
        d = deal.narr_debt
        out["narr_debt"] = {"debtor": d.debtor, "creditor": d.creditor, "trick": d.trick,
                            "status": d.status, "settled_at": d.settled_at,
                            "paid_card": CARD_IDS[d.paid_card]
                            if over and d.paid_card is not None else None}
    if over:
        out["review"] = {
            "dealt_hands": {str(s): [CARD_IDS[c] for c in h]
                            for s, h in enumerate(dealt_hands(deal))},
            "tricks": [_trick_json(t) for t in deal.tricks],
            "piles": {"A": ids_of(deal.piles[0]), "B": ids_of(deal.piles[1])},
            "points": {"A": deal.points[0], "B": deal.points[1]},  # type: ignore[index]
            "bock_triggered": deal.bock_triggered,
            "multiplier": 2 if deal.is_bock else 1,
        }
    return out
