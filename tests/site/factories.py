"""A complete table for the page, admin and account tests, built the way players build one:
through `games.services` (the only writer of game rows), never by hand.

The personas' room (tests/personas.py) is dealt a fixed deck; the owner deals, the reveal window
closes on its timer, the owner discards, and trick 1 is played: anna leads T21, benedetg throws
the Narr, which team B's trump takes. Team A owes B a card for it (RULES §9) and, with nothing
but the Narr in A's pile yet, cannot pay: the debt stays pending. Trick 2 is open, anna on lead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from unittest import mock

from games.engine import PLAY, legal_actions
from games.models import Match, NarrDebt, Room, Round, RoundAction, Seat, Trick
from tests import personas
from tests.engine.helpers import deck_for
from tests.support.tables import advance, must, seat_table, state


@dataclass
class Table:
    room: Room
    seats: list[Seat]
    match: Match
    round: Round
    trick: Trick  # trick 1, complete
    debt: NarrDebt  # team A's, for benedetg's Narr in trick 1, pending
    action: RoundAction  # the first card of the deal: anna's T21


# Anna (seat 1) holds the top trump, benedetg (seat 2) the Narr; the rest as deck_for lays it.
DECK = deck_for(personas.OWNER.seat, {personas.ANNA.seat: ["T21"],
                                      personas.BENEDETG.seat: ["NARR"]})


def full_table(owner: Any, players: list[Any], *, name: str = "Stiva",
               options: dict[str, Any] | None = None) -> Table:
    room = seat_table(owner, players, options, name=name)
    code = room.code
    by_seat = personas.by_seat(owner, players)
    with mock.patch("games.services.writer.shuffled_deck", return_value=list(DECK)):
        advance(code, by_seat, PLAY)  # start, deal, reveal (timer), scart
    anna, benedetg = by_seat[personas.ANNA.seat], by_seat[personas.BENEDETG.seat]
    must(code, anna, "play_card", card="T21")
    must(code, benedetg, "play_card", card="NARR")
    for seat in (personas.CURDIN.seat, personas.OWNER.seat):
        st = state(code)
        assert st is not None
        must(code, by_seat[seat], "play_card", card=legal_actions(st, seat)["legal_cards"][0])

    room.refresh_from_db()
    match = room.current_match
    assert match is not None
    deal = Round.objects.get(match=match, number=1)
    trick = Trick.objects.get(round=deal, number=1)
    assert trick.winner == personas.ANNA.seat
    debt = NarrDebt.objects.get(round=deal)
    assert (debt.debtor, debt.creditor, debt.trick_id, debt.status) == ("A", "B", trick.pk,
                                                                       "pending")
    action = RoundAction.objects.filter(round=deal, kind="play_card").order_by("version")[0]
    assert action.actor_id == anna.pk and action.actor_seat == personas.ANNA.seat
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    return Table(room, seats, match, deal, trick, debt, action)
