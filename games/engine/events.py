"""Typed events: what an accepted action did, for animation and history.

Each event is a frozen dataclass; its class attribute `kind` ("card_played", ...) is the `type`
of its JSON forms. Every event knows who may see which of its fields (RULES.md §13):
`for_seat(seat)` returns the JSON form for one seat (None = a spectator). Cards that the
receiver may not see are left out.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .cards import CARD_IDS
from .state import BuobMode, Team

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_D = TypeVar("_D", bound="DataclassInstance")


def _slot_init(cls: type[_D]) -> type[_D]:
    """Give a frozen, slotted dataclass an `__init__` that fills the slots through their
    descriptors: same signature and defaults as the generated one, at the cost of a NamedTuple.

    The generated `__init__` of a frozen dataclass calls `object.__setattr__` once per field,
    which doubles the cost of building an event; a CardPlayed is built for every card played,
    the hot path of every deal (bench/engine.py).
    """
    scope: dict[str, Any] = {}
    params, body = ["self"], []
    for f in fields(cls):
        scope[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__({', '.join(params)}) -> None:\n" + ("\n".join(body) or "    pass")
    exec(source, scope)  # noqa: S102 - built from the class' own field names, never from input
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - a method assignment mypy would refuse
    return cls


def _cid(c: int | None) -> str | None:
    return None if c is None else CARD_IDS[c]


@_slot_init
@dataclass(frozen=True, slots=True)
class RoundStarted:
    kind: ClassVar[str] = "round_started"
    number: int
    dealer: int
    is_bock: bool

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "number": self.number, "dealer": self.dealer,
                "is_bock": self.is_bock}


@_slot_init
@dataclass(frozen=True, slots=True)
class PassDealt:
    kind: ClassVar[str] = "pass_dealt"
    pass_number: int  # 1, 2 or 3
    counts: tuple[int, int, int, int]
    auto: bool = False

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        # The cards themselves reach each seat only through its own view.
        return {"type": self.kind, "pass": self.pass_number, "counts": list(self.counts),
                "auto": self.auto}


@_slot_init
@dataclass(frozen=True, slots=True)
class RevealShown:
    kind: ClassVar[str] = "reveal_shown"
    reveal: tuple[int, int, int, int]

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "reveal": {str(s): CARD_IDS[c] for s, c in
                                              enumerate(self.reveal)}}


@_slot_init
@dataclass(frozen=True, slots=True)
class RevealEnded:
    kind: ClassVar[str] = "reveal_ended"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind}


@_slot_init
@dataclass(frozen=True, slots=True)
class ScartDiscarded:
    kind: ClassVar[str] = "scart_discarded"
    dealer: int
    cards: tuple[int, int]
    auto: bool = False

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "dealer": self.dealer, "count": 2,
                               "auto": self.auto}
        if seat == self.dealer:
            out["cards"] = [CARD_IDS[c] for c in self.cards]
        return out


@_slot_init
@dataclass(frozen=True, slots=True)
class CardPlayed:
    kind: ClassVar[str] = "card_played"
    seat: int
    card: int
    trick: int
    auto: bool = False

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "card": CARD_IDS[self.card],
                "trick": self.trick, "auto": self.auto}


# A CardPlayed is built for every card of every deal, and it is a value: frozen, compared by
# field. There are at most 4 seats x 78 cards x 19 tricks x 2 (auto or not) of them, so each is
# built once and then shared; a dict look-up costs under half of building one.
CARD_PLAYED: dict[tuple[int, int, int, bool], CardPlayed] = {}


def card_played(seat: int, card: int, trick: int, auto: bool = False) -> CardPlayed:
    """The CardPlayed(seat, card, trick, auto), the same object every time it is asked for."""
    key = (seat, card, trick, auto)
    event = CARD_PLAYED.get(key)
    if event is None:
        event = CARD_PLAYED[key] = CardPlayed(seat, card, trick, auto)
    return event


@_slot_init
@dataclass(frozen=True, slots=True)
class BuobCalled:
    kind: ClassVar[str] = "buob_called"
    caller: int
    suit: str
    target: int
    mode: BuobMode
    trick: int

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "caller": self.caller, "suit": self.suit,
                "target": self.target, "mode": self.mode, "trick": self.trick}


@_slot_init
@dataclass(frozen=True, slots=True)
class BuobRefused:
    """A BUOB call refused because of where a jack lies (RULES §8): public, to every seat and
    the spectators alike. It names the caller, the suit as named (None: no suit) and the code,
    never a card."""

    kind: ClassVar[str] = "buob_refused"
    caller: int
    suit: str | None
    code: str
    trick: int

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "caller": self.caller, "suit": self.suit, "code": self.code,
                "trick": self.trick}


@_slot_init
@dataclass(frozen=True, slots=True)
class BuobResolved:
    kind: ClassVar[str] = "buob_resolved"
    target: int
    returned_card: int | None  # it was face up on the table, so it is public
    jack: int
    trick: int

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "target": self.target,
                "returned_card": _cid(self.returned_card), "jack": CARD_IDS[self.jack],
                "trick": self.trick}


@_slot_init
@dataclass(frozen=True, slots=True)
class TrickWon:
    kind: ClassVar[str] = "trick_won"
    trick: int
    winner: int
    team: Team
    cards: tuple[tuple[int, int], ...]

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "trick": self.trick, "winner": self.winner,
                "team": self.team, "cards": [[s, CARD_IDS[c]] for s, c in self.cards]}


@_slot_init
@dataclass(frozen=True, slots=True)
class NarrDebtCreated:
    kind: ClassVar[str] = "narr_debt_created"
    trick: int
    debtor: Team
    creditor: Team

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "trick": self.trick, "debtor": self.debtor,
                "creditor": self.creditor}


@_slot_init
@dataclass(frozen=True, slots=True)
class NarrDebtSettled:
    kind: ClassVar[str] = "narr_debt_settled"
    debtor: Team
    creditor: Team
    settled_at: int | str
    card: int

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "debtor": self.debtor,
                               "creditor": self.creditor, "settled_at": self.settled_at}
        # RULES §13: the paid card is shown only after the deal; the deal-end fallback is.
        if self.settled_at == "end":
            out["card"] = CARD_IDS[self.card]
        return out


@_slot_init
@dataclass(frozen=True, slots=True)
class DealScored:
    kind: ClassVar[str] = "deal_scored"
    number: int
    points: tuple[int, int]
    multiplier: int
    totals: tuple[int, int]
    tricks_won: tuple[int, int]
    bock_triggered: bool
    triggers: tuple[str, ...]

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "number": self.number,
                "points": {"A": self.points[0], "B": self.points[1]},
                "multiplier": self.multiplier,
                "totals": {"A": self.totals[0], "B": self.totals[1]},
                "tricks_won": {"A": self.tricks_won[0], "B": self.tricks_won[1]},
                "bock_triggered": self.bock_triggered, "triggers": list(self.triggers)}


@_slot_init
@dataclass(frozen=True, slots=True)
class MatchOver:
    kind: ClassVar[str] = "match_over"
    winner: str  # Team.A, Team.B or "draw"
    totals: tuple[int, int]

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "winner": self.winner,
                "totals": {"A": self.totals[0], "B": self.totals[1]}}


@_slot_init
@dataclass(frozen=True, slots=True)
class MatchReset:
    kind: ClassVar[str] = "match_reset"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind}


Event = (RoundStarted | PassDealt | RevealShown | RevealEnded | ScartDiscarded | CardPlayed
         | BuobCalled | BuobRefused | BuobResolved | TrickWon | NarrDebtCreated | NarrDebtSettled
         | DealScored | MatchOver | MatchReset)


def events_for(events: list[Event] | tuple[Event, ...], seat: int | None) -> list[dict[str, Any]]:
    """The JSON events one seat (or a spectator, None) may receive."""
    return [e.for_seat(seat) for e in events]


def event_to_json(event: Event) -> dict[str, Any]:
    """Full-information form, for the server's own history (never sent to a client)."""
    out: dict[str, Any] = {"type": event.kind}
    for f in fields(event):
        out[f.name] = getattr(event, f.name)
    for key in ("card", "jack", "returned_card"):
        if key in out and isinstance(out[key], int):
            out[key] = CARD_IDS[out[key]]
    if isinstance(event, ScartDiscarded | RevealShown):
        out["cards" if isinstance(event, ScartDiscarded) else "reveal"] = [
            CARD_IDS[c] for c in (event.cards if isinstance(event, ScartDiscarded)
                                  else event.reveal)]
    if isinstance(event, TrickWon):
        out["cards"] = [[s, CARD_IDS[c]] for s, c in event.cards]
    return out
