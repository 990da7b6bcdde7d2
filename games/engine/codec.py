"""The JSON forms of the engine's values: the one place that encodes or decodes a BUOB call, a
trick, a Narr debt, a deal or a whole match state.

Inside the engine a card is an int and a hand a bitmask (cards.py); every JSON form below names
cards by their ids. Two families:

* The stored form, `to_json` / `from_json` (a Round row's `engine_state`): every field, and
  `from_json(to_json(s)) == s` exactly.
* The shown forms, each for one reader: a seat's view (views.py), a transcript's result
  (transcript.py, TRANSCRIPT.md), a replay frame (games/history/replay.py) and a Trick row
  (games/services/record.py). Key order is part of each form: the transcript tests compare the
  emitted JSON byte for byte.

A BUOB call shows `caller`, `suit`, `target`, `mode` and, once its trick is complete,
`returned_card` (the card the exchange sent back to a hand, or null); `king_seat` is stored only.
The open trick's publicly refused BUOB suits (`refused`, RULES §8) are stored only, and only when
there are some: no shown form carries them (a view leaves those suits out of `buob.suits`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from .cards import CARD_IDS, INDEX, ids_of, mask_of
from .options import Options
from .state import Buob, BuobMode, Deal, MatchState, NarrDebt, Phase, Team, Trick

STATE_FORMAT = "troccas-state/1"

JSON = dict[str, Any]
_T = TypeVar("_T")


# --- cards ------------------------------------------------------------------------------------

def card_id(c: int | None) -> str | None:
    return None if c is None else CARD_IDS[c]


def card_index(c: str | None) -> int | None:
    return None if c is None else INDEX[c]


def card_ids(cards: Iterable[int]) -> list[str]:
    """The ids of cards in the order given."""
    return [CARD_IDS[c] for c in cards]


def played_cards(cards: Iterable[tuple[int, int]]) -> list[list[int | str]]:
    """A trick's (seat, card) pairs as [[seat, id], ...] in play order."""
    return [[s, CARD_IDS[c]] for s, c in cards]


def by_team(pair: tuple[_T, _T] | list[_T]) -> dict[str, _T]:
    """Team A's and team B's values as {"A": a, "B": b}."""
    return {"A": pair[0], "B": pair[1]}


def by_seat(cards: Iterable[int]) -> dict[str, str]:
    """One card per seat (the reveal) as {"0": id, "1": id, ...}."""
    return {str(s): CARD_IDS[c] for s, c in enumerate(cards)}


# --- a BUOB call ------------------------------------------------------------------------------

def buob_to_json(b: Buob | None) -> JSON | None:
    """Stored form."""
    if b is None:
        return None
    return {"caller": b.caller, "suit": b.suit, "target": b.target, "mode": b.mode,
            "king_seat": b.king_seat, "returned_card": card_id(b.returned_card)}


def buob_from_json(d: JSON | None) -> Buob | None:
    if d is None:
        return None
    return Buob(d["caller"], d["suit"], d["target"], BuobMode(d["mode"]), d["king_seat"],
                card_index(d["returned_card"]))


def buob_public(b: Buob | None, *, resolved: bool = True) -> JSON | None:
    """Shown form: the call, with `returned_card` once `resolved` (its trick is complete)."""
    if b is None:
        return None
    out: JSON = {"caller": b.caller, "suit": b.suit, "target": b.target, "mode": b.mode}
    if resolved:
        out["returned_card"] = card_id(b.returned_card)
    return out


# --- a trick ----------------------------------------------------------------------------------

def trick_to_json(t: Trick | None) -> JSON | None:
    """Stored form."""
    if t is None:
        return None
    out: JSON = {"number": t.number, "leader": t.leader, "cards": played_cards(t.cards),
                 "led": t.led, "buob": buob_to_json(t.buob), "winner": t.winner}
    if t.refused:
        out["refused"] = t.refused  # only while refused BUOB suits are recorded (RULES §8)
    return out


def _trick_from_json(d: JSON) -> Trick:
    return Trick(d["number"], d["leader"], tuple((s, INDEX[c]) for s, c in d["cards"]),
                 d["led"], buob_from_json(d["buob"]), d["winner"], d.get("refused", ""))


def trick_from_json(d: JSON | None) -> Trick | None:
    return None if d is None else _trick_from_json(d)


def trick_view(t: Trick) -> JSON:
    """A trick in a seat's view (the current one, the last one, the review's)."""
    return {"number": t.number, "leader": t.leader, "cards": played_cards(t.cards), "led": t.led,
            "winner": t.winner, "buob": buob_public(t.buob, resolved=t.winner is not None)}


def trick_result(t: Trick) -> JSON:
    """A trick in a transcript result's deal (TRANSCRIPT.md)."""
    return {"leader": t.leader, "cards": played_cards(t.cards), "winner": t.winner,
            "buob": buob_public(t.buob)}


def trick_frame(t: Trick | None) -> JSON | None:
    """A trick in a replay frame."""
    if t is None:
        return None
    return {"number": t.number, "leader": t.leader, "cards": played_cards(t.cards),
            "winner": t.winner, "buob": buob_public(t.buob)}


def trick_row_cards(t: Trick) -> list[JSON]:
    """A completed trick's cards as a Trick row holds them: [{"seat": s, "card": id}, ...]."""
    return [{"seat": s, "card": CARD_IDS[c]} for s, c in t.cards]


# --- a Narr debt ------------------------------------------------------------------------------

def debt_to_json(n: NarrDebt | None) -> JSON | None:
    """Stored form, also a transcript result's `narr_debt`."""
    if n is None:
        return None
    return {"debtor": n.debtor, "creditor": n.creditor, "trick": n.trick, "status": n.status,
            "paid_card": card_id(n.paid_card), "settled_at": n.settled_at}


def debt_from_json(d: JSON | None) -> NarrDebt | None:
    if d is None:
        return None
    return NarrDebt(Team(d["debtor"]), Team(d["creditor"]), d["trick"], d["status"],
                    card_index(d["paid_card"]), d["settled_at"])


def debt_view(n: NarrDebt, *, show_card: bool) -> JSON:
    """The debt in a seat's view; the paid card only when `show_card` (RULES §13)."""
    return {"debtor": n.debtor, "creditor": n.creditor, "trick": n.trick, "status": n.status,
            "settled_at": n.settled_at,
            "paid_card": card_id(n.paid_card) if show_card else None}


def debt_frame(n: NarrDebt | None) -> JSON | None:
    """The debt in a replay frame."""
    if n is None:
        return None
    return {"debtor": n.debtor, "creditor": n.creditor, "status": n.status,
            "paid": card_id(n.paid_card)}


# --- a deal -----------------------------------------------------------------------------------

def deal_to_json(deal: Deal | None) -> JSON | None:
    """Stored form."""
    if deal is None:
        return None
    return {
        "number": deal.number,
        "dealer": deal.dealer,
        "deck": card_ids(deal.deck),
        "passes": deal.passes,
        "hands": [ids_of(h) for h in deal.hands],
        "reveal": None if deal.reveal is None else card_ids(deal.reveal),
        "scart": None if deal.scart is None else card_ids(deal.scart),
        "is_bock": deal.is_bock,
        "tricks": [trick_to_json(t) for t in deal.tricks],
        "current": trick_to_json(deal.current),
        "turn": deal.turn,
        "led_suits": deal.led_suits,
        "piles": by_team((ids_of(deal.piles[0]), ids_of(deal.piles[1]))),
        "narr_debt": debt_to_json(deal.narr_debt),
        "points": None if deal.points is None else by_team(deal.points),
        "bock_triggered": deal.bock_triggered,
    }


def _mask(ids: Iterable[str]) -> int:
    return mask_of([INDEX[c] for c in ids])


def _four(values: list[_T]) -> tuple[_T, _T, _T, _T]:
    a, b, c, d = values
    return a, b, c, d


def _two(values: list[_T]) -> tuple[_T, _T]:
    a, b = values
    return a, b


def deal_from_json(d: JSON | None) -> Deal | None:
    if d is None:
        return None
    return Deal(
        number=d["number"],
        dealer=d["dealer"],
        deck=tuple(INDEX[c] for c in d["deck"]),
        passes=d["passes"],
        hands=_four([_mask(h) for h in d["hands"]]),
        reveal=None if d["reveal"] is None else _four([INDEX[c] for c in d["reveal"]]),
        scart=None if d["scart"] is None else _two([INDEX[c] for c in d["scart"]]),
        is_bock=d["is_bock"],
        tricks=tuple(_trick_from_json(t) for t in d["tricks"]),
        current=trick_from_json(d["current"]),
        turn=d["turn"],
        led_suits=d["led_suits"],
        piles=(_mask(d["piles"]["A"]), _mask(d["piles"]["B"])),
        narr_debt=debt_from_json(d["narr_debt"]),
        points=None if d["points"] is None else (d["points"]["A"], d["points"]["B"]),
        bock_triggered=d["bock_triggered"],
    )


def deal_result(deal: Deal) -> JSON:
    """One entry of a transcript result's `deals` (full information; TRANSCRIPT.md)."""
    tricks = [trick_result(t) for t in deal.tricks]
    if deal.current is not None and deal.current.cards:
        tricks.append(trick_result(deal.current))
    return {
        "dealer": deal.dealer,
        "is_bock": deal.is_bock,
        "reveal": None if deal.reveal is None else by_seat(deal.reveal),
        "scart": None if deal.scart is None else sorted(card_ids(deal.scart),
                                                        key=CARD_IDS.index),
        "tricks": tricks,
        "narr_debt": debt_to_json(deal.narr_debt),
        "piles": by_team((ids_of(deal.piles[0]), ids_of(deal.piles[1]))),
        "points": None if deal.points is None else by_team(deal.points),
        "bock_triggered": deal.bock_triggered,
    }


# --- the match state --------------------------------------------------------------------------

def to_json(state: MatchState) -> JSON:
    """The whole state as plain JSON data; `from_json(to_json(s)) == s` exactly."""
    return {
        "format": STATE_FORMAT,
        "options": state.options.to_json(),
        "first_dealer": state.first_dealer,
        "phase": state.phase,
        "dealer": state.dealer,
        "totals": by_team(state.totals),
        "deals_played": state.deals_played,
        "bock_pending": state.bock_pending,
        "deal": deal_to_json(state.deal),
        "winner": state.winner,
    }


def from_json(data: JSON) -> MatchState:
    if data.get("format") != STATE_FORMAT:
        raise ValueError("not a troccas-state/1 document")
    return MatchState(
        options=Options.from_json(data["options"]),
        first_dealer=data["first_dealer"],
        phase=Phase(data["phase"]),
        dealer=data["dealer"],
        totals=(data["totals"]["A"], data["totals"]["B"]),
        deals_played=data["deals_played"],
        bock_pending=data["bock_pending"],
        deal=deal_from_json(data["deal"]),
        winner=data["winner"],
    )


__all__ = [
    "STATE_FORMAT", "buob_from_json", "buob_public", "buob_to_json", "by_seat", "by_team",
    "card_id", "card_ids", "card_index", "deal_from_json", "deal_result", "deal_to_json",
    "debt_frame", "debt_from_json", "debt_to_json", "debt_view", "from_json", "played_cards",
    "trick_frame", "trick_from_json", "trick_result", "trick_row_cards", "trick_to_json",
    "trick_view", "to_json",
]
