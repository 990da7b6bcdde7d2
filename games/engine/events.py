"""Typed events: what an accepted action did, for animation and history.

Every event knows who may see which of its fields (RULES.md §13): `for_seat(seat)` returns the
JSON form for one seat (None = a spectator). Cards that the receiver may not see are left out.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import CARD_IDS


def _cid(c: int | None) -> str | None:
    return None if c is None else CARD_IDS[c]


class RoundStarted(NamedTuple):
    number: int
    dealer: int
    is_bock: bool
    kind = "round_started"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "number": self.number, "dealer": self.dealer,
                "is_bock": self.is_bock}


class PassDealt(NamedTuple):
    pass_number: int  # 1, 2 or 3
    counts: tuple[int, int, int, int]
    auto: bool = False
    kind = "pass_dealt"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        # The cards themselves reach each seat only through its own view.
        return {"type": self.kind, "pass": self.pass_number, "counts": list(self.counts),
                "auto": self.auto}


class RevealShown(NamedTuple):
    reveal: tuple[int, int, int, int]
    kind = "reveal_shown"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "reveal": {str(s): CARD_IDS[c] for s, c in
                                              enumerate(self.reveal)}}


class RevealEnded(NamedTuple):
    kind = "reveal_ended"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind}


class ScartDiscarded(NamedTuple):
    dealer: int
    cards: tuple[int, int]
    auto: bool = False
    kind = "scart_discarded"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "dealer": self.dealer, "count": 2,
                               "auto": self.auto}
        if seat == self.dealer:
            out["cards"] = [CARD_IDS[c] for c in self.cards]
        return out


class CardPlayed(NamedTuple):
    seat: int
    card: int
    trick: int
    auto: bool = False
    kind = "card_played"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "card": CARD_IDS[self.card],
                "trick": self.trick, "auto": self.auto}


class BuobCalled(NamedTuple):
    caller: int
    suit: str
    target: int
    mode: str
    trick: int
    kind = "buob_called"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "caller": self.caller, "suit": self.suit,
                "target": self.target, "mode": self.mode, "trick": self.trick}


class BuobResolved(NamedTuple):
    target: int
    returned_card: int | None  # it was face up on the table, so it is public
    jack: int
    trick: int
    kind = "buob_resolved"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "target": self.target,
                "returned_card": _cid(self.returned_card), "jack": CARD_IDS[self.jack],
                "trick": self.trick}


class TrickWon(NamedTuple):
    trick: int
    winner: int
    team: str
    cards: tuple[tuple[int, int], ...]
    kind = "trick_won"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "trick": self.trick, "winner": self.winner,
                "team": self.team, "cards": [[s, CARD_IDS[c]] for s, c in self.cards]}


class NarrDebtCreated(NamedTuple):
    trick: int
    debtor: str
    creditor: str
    kind = "narr_debt_created"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "trick": self.trick, "debtor": self.debtor,
                "creditor": self.creditor}


class NarrDebtSettled(NamedTuple):
    debtor: str
    creditor: str
    settled_at: int | str
    card: int
    kind = "narr_debt_settled"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "debtor": self.debtor,
                               "creditor": self.creditor, "settled_at": self.settled_at}
        # RULES §13: the paid card is shown only after the deal; the deal-end fallback is.
        if self.settled_at == "end":
            out["card"] = CARD_IDS[self.card]
        return out


class DealScored(NamedTuple):
    number: int
    points: tuple[int, int]
    multiplier: int
    totals: tuple[int, int]
    tricks_won: tuple[int, int]
    bock_triggered: bool
    triggers: tuple[str, ...]
    kind = "deal_scored"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "number": self.number,
                "points": {"A": self.points[0], "B": self.points[1]},
                "multiplier": self.multiplier,
                "totals": {"A": self.totals[0], "B": self.totals[1]},
                "tricks_won": {"A": self.tricks_won[0], "B": self.tricks_won[1]},
                "bock_triggered": self.bock_triggered, "triggers": list(self.triggers)}


class MatchOver(NamedTuple):
    winner: str
    totals: tuple[int, int]
    kind = "match_over"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind, "winner": self.winner,
                "totals": {"A": self.totals[0], "B": self.totals[1]}}


class MatchReset(NamedTuple):
    kind = "match_reset"

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {"type": self.kind}


Event = (RoundStarted | PassDealt | RevealShown | RevealEnded | ScartDiscarded | CardPlayed
         | BuobCalled | BuobResolved | TrickWon | NarrDebtCreated | NarrDebtSettled | DealScored
         | MatchOver | MatchReset)


def events_for(events: list[Event] | tuple[Event, ...], seat: int | None) -> list[dict[str, Any]]:
    """The JSON events one seat (or a spectator, None) may receive."""
    return [e.for_seat(seat) for e in events]


def event_to_json(event: Event) -> dict[str, Any]:
    """Full-information form, for the server's own history (never sent to a client)."""
    out: dict[str, Any] = {"type": event.kind}
    for key, value in event._asdict().items():
        out[key] = value
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
