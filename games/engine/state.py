"""Immutable match and deal state (RULES.md §3–§11), and its exact JSON form.

States are NamedTuples: immutable, cheap to copy with `_replace`, compared by value. Inside, cards
are ints and hands and piles are bitmasks (see cards.py); `to_json` / `from_json` translate to
card ids, so the stored form is readable in the admin and stable across versions.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import CARD_IDS, INDEX, cards_of, ids_of, mask_of
from .options import Options

LOBBY = "LOBBY"
DEALING = "DEALING"
REVEAL = "REVEAL"
SCART = "SCART"
PLAY = "PLAY"
ROUND_OVER = "ROUND_OVER"
MATCH_OVER = "MATCH_OVER"
PHASES = (LOBBY, DEALING, REVEAL, SCART, PLAY, ROUND_OVER, MATCH_OVER)

TEAMS = ("A", "B")
TRICKS_PER_DEAL = 19


def team_of(seat: int) -> str:
    """Team A sits on the even seats, team B on the odd ones (RULES §3)."""
    return "A" if seat % 2 == 0 else "B"


def next_seat(seat: int) -> int:
    return (seat + 1) % 4


class Buob(NamedTuple):
    """An accepted BUOB call in a trick (RULES §8)."""

    caller: int
    suit: str
    target: int
    mode: str  # "forced" | "deferred" | "self"
    king_seat: int  # who played the called king: wins if the exchange removed every card of L
    returned_card: int | None = None  # set when the trick completes


class Trick(NamedTuple):
    number: int  # 1–19
    leader: int
    cards: tuple[tuple[int, int], ...]  # (seat, card) in play order
    led: str | None  # the led suit L, set by the first non-Narr card
    buob: Buob | None = None
    winner: int | None = None


class NarrDebt(NamedTuple):
    debtor: str  # team
    creditor: str
    trick: int
    status: str  # "pending" | "settled"
    paid_card: int | None = None
    settled_at: int | str | None = None  # trick number, or "end" for the deal-end fallback


class Deal(NamedTuple):
    number: int  # 1-based inside the match
    dealer: int
    deck: tuple[int, ...]
    passes: int  # passes dealt so far, 0–3
    hands: tuple[int, int, int, int]  # bitmasks
    reveal: tuple[int, int, int, int] | None
    scart: tuple[int, int] | None
    is_bock: bool
    tricks: tuple[Trick, ...]  # completed tricks
    current: Trick | None  # the trick being played (PLAY only)
    turn: int | None  # seat on turn in PLAY
    led_suits: str  # suits led in completed tricks, e.g. "CS"
    piles: tuple[int, int]  # bitmasks of team A's and team B's won cards
    narr_debt: NarrDebt | None
    points: tuple[int, int] | None
    bock_triggered: bool


class MatchState(NamedTuple):
    options: Options
    first_dealer: int
    phase: str
    dealer: int  # dealer of the current deal, or of the next one in the lobby
    totals: tuple[int, int]
    deals_played: int  # completed deals in this match
    bock_pending: int
    deal: Deal | None
    winner: str | None  # "A" | "B" | "draw" once MATCH_OVER


def new_match_state(options: Options | None = None, first_dealer: int = 0) -> MatchState:
    """A table in its lobby, before the first deal: the owner's seat deals first (RULES §3)."""
    if first_dealer not in (0, 1, 2, 3):
        raise ValueError("first_dealer must be 0–3")
    return MatchState(
        options=options or Options(),
        first_dealer=first_dealer,
        phase=LOBBY,
        dealer=first_dealer,
        totals=(0, 0),
        deals_played=0,
        bock_pending=0,
        deal=None,
        winner=None,
    )


# --- JSON -------------------------------------------------------------------------------------

def _card(c: int | None) -> str | None:
    return None if c is None else CARD_IDS[c]


def _uncard(c: str | None) -> int | None:
    return None if c is None else INDEX[c]


def _buob_to_json(b: Buob | None) -> dict[str, Any] | None:
    if b is None:
        return None
    return {"caller": b.caller, "suit": b.suit, "target": b.target, "mode": b.mode,
            "king_seat": b.king_seat, "returned_card": _card(b.returned_card)}


def _buob_from_json(d: dict[str, Any] | None) -> Buob | None:
    if d is None:
        return None
    return Buob(d["caller"], d["suit"], d["target"], d["mode"], d["king_seat"],
                _uncard(d["returned_card"]))


def _trick_to_json(t: Trick | None) -> dict[str, Any] | None:
    if t is None:
        return None
    return {"number": t.number, "leader": t.leader,
            "cards": [[s, CARD_IDS[c]] for s, c in t.cards], "led": t.led,
            "buob": _buob_to_json(t.buob), "winner": t.winner}


def _trick_from_json(d: dict[str, Any] | None) -> Trick | None:
    if d is None:
        return None
    return Trick(d["number"], d["leader"], tuple((s, INDEX[c]) for s, c in d["cards"]),
                 d["led"], _buob_from_json(d["buob"]), d["winner"])


def _debt_to_json(n: NarrDebt | None) -> dict[str, Any] | None:
    if n is None:
        return None
    return {"debtor": n.debtor, "creditor": n.creditor, "trick": n.trick, "status": n.status,
            "paid_card": _card(n.paid_card), "settled_at": n.settled_at}


def _debt_from_json(d: dict[str, Any] | None) -> NarrDebt | None:
    if d is None:
        return None
    return NarrDebt(d["debtor"], d["creditor"], d["trick"], d["status"],
                    _uncard(d["paid_card"]), d["settled_at"])


def deal_to_json(deal: Deal | None) -> dict[str, Any] | None:
    if deal is None:
        return None
    return {
        "number": deal.number,
        "dealer": deal.dealer,
        "deck": [CARD_IDS[c] for c in deal.deck],
        "passes": deal.passes,
        "hands": [ids_of(h) for h in deal.hands],
        "reveal": None if deal.reveal is None else [CARD_IDS[c] for c in deal.reveal],
        "scart": None if deal.scart is None else [CARD_IDS[c] for c in deal.scart],
        "is_bock": deal.is_bock,
        "tricks": [_trick_to_json(t) for t in deal.tricks],
        "current": _trick_to_json(deal.current),
        "turn": deal.turn,
        "led_suits": deal.led_suits,
        "piles": {"A": ids_of(deal.piles[0]), "B": ids_of(deal.piles[1])},
        "narr_debt": _debt_to_json(deal.narr_debt),
        "points": None if deal.points is None else {"A": deal.points[0], "B": deal.points[1]},
        "bock_triggered": deal.bock_triggered,
    }


def deal_from_json(d: dict[str, Any] | None) -> Deal | None:
    if d is None:
        return None
    hands = tuple(mask_of([INDEX[c] for c in h]) for h in d["hands"])
    return Deal(
        number=d["number"],
        dealer=d["dealer"],
        deck=tuple(INDEX[c] for c in d["deck"]),
        passes=d["passes"],
        hands=hands,  # type: ignore[arg-type]
        reveal=None if d["reveal"] is None else tuple(INDEX[c] for c in d["reveal"]),  # type: ignore[arg-type]
        scart=None if d["scart"] is None else tuple(INDEX[c] for c in d["scart"]),  # type: ignore[arg-type]
        is_bock=d["is_bock"],
        tricks=tuple(_trick_from_json(t) for t in d["tricks"]),  # type: ignore[misc]
        current=_trick_from_json(d["current"]),
        turn=d["turn"],
        led_suits=d["led_suits"],
        piles=(mask_of([INDEX[c] for c in d["piles"]["A"]]),
               mask_of([INDEX[c] for c in d["piles"]["B"]])),
        narr_debt=_debt_from_json(d["narr_debt"]),
        points=None if d["points"] is None else (d["points"]["A"], d["points"]["B"]),
        bock_triggered=d["bock_triggered"],
    )


STATE_FORMAT = "troccas-state/1"


def to_json(state: MatchState) -> dict[str, Any]:
    """The whole state as plain JSON data; `from_json(to_json(s)) == s` exactly."""
    return {
        "format": STATE_FORMAT,
        "options": state.options.to_json(),
        "first_dealer": state.first_dealer,
        "phase": state.phase,
        "dealer": state.dealer,
        "totals": {"A": state.totals[0], "B": state.totals[1]},
        "deals_played": state.deals_played,
        "bock_pending": state.bock_pending,
        "deal": deal_to_json(state.deal),
        "winner": state.winner,
    }


def from_json(data: dict[str, Any]) -> MatchState:
    if data.get("format") != STATE_FORMAT:
        raise ValueError("not a troccas-state/1 document")
    return MatchState(
        options=Options.from_json(data["options"]),
        first_dealer=data["first_dealer"],
        phase=data["phase"],
        dealer=data["dealer"],
        totals=(data["totals"]["A"], data["totals"]["B"]),
        deals_played=data["deals_played"],
        bock_pending=data["bock_pending"],
        deal=deal_from_json(data["deal"]),
        winner=data["winner"],
    )


def dealt_hands(deal: Deal) -> list[list[int]]:
    """The four hands exactly as dealt (before the scart), rebuilt from the stored deck."""
    hands: list[list[int]] = [[], [], [], []]
    order = [(deal.dealer + k) % 4 for k in (1, 2, 3, 4)]
    pos = 0
    for size_for in ((6, 6), (6, 6), (7, 9)):
        for s in order:
            n = size_for[1] if s == deal.dealer else size_for[0]
            hands[s].extend(deal.deck[pos:pos + n])
            pos += n
    return [sorted(h) for h in hands]


__all__ = [
    "Buob", "Trick", "NarrDebt", "Deal", "MatchState", "new_match_state", "to_json", "from_json",
    "team_of", "next_seat", "dealt_hands", "cards_of",
]
