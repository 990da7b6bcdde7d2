"""Hypothetical tables: a full-information MatchState built from one seat's view and a guess.

A bot that searches (games/bots/strong.py) never sees the true state. It guesses where the
cards it cannot see lie (a *determinization*) and needs a real MatchState for that guess, so
that `apply` and the playouts run the one rules implementation on it. This module builds that
state from the seat's view (everything public about the deal and the trick) and the guess (the
four hands, the scart and the two piles). Nothing here reads a true state.

The hypothetical deal's `deck` is the canonical order: it is never dealt from again and only a
review of the deal (which a hypothesis never reaches) would read it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import INDEX, NARR, NARR_BIT, NUM_CARDS, ONE_POINT_MASK
from .options import Options
from .state import PLAY, Buob, BuobMode, Deal, MatchState, NarrDebt, Phase, Team, Trick


def _buob_of(raw: Mapping[str, Any] | None, cards: Sequence[tuple[int, int]]) -> Buob | None:
    """The open trick's call from its public form; `king_seat` is the player of that king."""
    if raw is None:
        return None
    suit = raw["suit"]
    king = INDEX[suit + "K"]
    king_seat = next((s for s, c in cards if c == king), raw["caller"])
    return Buob(raw["caller"], suit, raw["target"], BuobMode(raw["mode"]), king_seat)


def open_trick(raw: Mapping[str, Any]) -> Trick:
    """The open trick of a view (`view["trick"]`) as an engine Trick."""
    cards = tuple((int(s), INDEX[c]) for s, c in raw["cards"])
    return Trick(raw["number"], raw["leader"], cards, raw["led"], _buob_of(raw["buob"], cards))


def piles_after(tricks: Sequence[Trick]) -> tuple[int, int]:
    """The two teams' piles after these completed tricks, as RULES §7 and §9 build them.

    The Narr of tricks 1–18 goes to its owner's team; a debt it leaves is paid at once, or at
    the first later trick, with the debtor's lowest 1-point card. Every input is public (the
    tricks' final cards and winners), so anyone may rebuild the piles this way.
    """
    piles = [0, 0]
    debtor: int | None = None  # the team that owes a card, while its debt is pending
    for t in tricks:
        assert t.winner is not None
        wteam = t.winner % 2
        for s, c in t.cards:
            if c == NARR and t.number < 19:
                piles[s % 2] |= NARR_BIT
                if s % 2 != wteam:
                    debtor = s % 2
            else:
                piles[wteam] |= 1 << c
        if debtor is not None:
            payable = piles[debtor] & ONE_POINT_MASK
            if payable:
                paid = payable & -payable
                piles[debtor] &= ~paid
                piles[1 - debtor] |= paid
                debtor = None
    return piles[0], piles[1]


def _debt_of(raw: Mapping[str, Any] | None) -> NarrDebt | None:
    if raw is None:
        return None
    return NarrDebt(Team(raw["debtor"]), Team(raw["creditor"]), raw["trick"], raw["status"],
                    None, raw.get("settled_at"))


def hypothetical_state(view: Mapping[str, Any], hands: Sequence[int], scart: tuple[int, int],
                       piles: tuple[int, int], tricks: Sequence[Trick],
                       led_suits: str) -> MatchState:
    """The table in PLAY as `view` shows it, with the guessed hands (four bitmasks), scart,
    piles and completed tricks filled in.

    `view` must be a seat's view in the PLAY phase. `tricks` are the completed tricks (only
    their number and winners matter to the rest of the deal: the Bock trigger counts them);
    `led_suits` the suits led in them, which BUOB eligibility reads.
    """
    if view["phase"] != PLAY or view["trick"] is None:
        raise ValueError("a hypothetical table is built in the PLAY phase only")
    options = Options.from_json(view["options"])
    bock = view["bock"]
    deal = Deal(
        number=view["deal_number"], dealer=view["dealer"], deck=tuple(range(NUM_CARDS)),
        passes=3, hands=(hands[0], hands[1], hands[2], hands[3]), reveal=None,
        scart=(min(scart), max(scart)), is_bock=bool(bock["is_bock"]), tricks=tuple(tricks),
        current=open_trick(view["trick"]), turn=view["turn"], led_suits=led_suits,
        piles=piles, narr_debt=_debt_of(view["narr_debt"]), points=None, bock_triggered=False,
    )
    totals = view["totals"]
    return MatchState(options=options, first_dealer=view["first_dealer"], phase=Phase.PLAY,
                      dealer=view["dealer"], totals=(totals["A"], totals["B"]),
                      deals_played=view["deals_played"], bock_pending=bock["pending"],
                      deal=deal, winner=None)


__all__ = ["hypothetical_state", "open_trick", "piles_after"]
