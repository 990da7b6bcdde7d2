"""Builds complete game rows for tests: a room with four seated players, a running match, a
deal with a trick, a Narr debt and logged actions."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from games.models import Match, NarrDebt, Room, Round, RoundAction, Seat, Trick


@dataclass
class Table:
    room: Room
    seats: list[Seat]
    match: Match
    round: Round
    trick: Trick
    debt: NarrDebt
    action: RoundAction


ENGINE_STATE = {
    "phase": "PLAY",
    "dealer": 0,
    "hands": [["C1", "RK"], ["SJ", "T21"], ["B7", "NARR"], ["CK", "T1"]],
}


def seat_four(room: Room, users: list[Any]) -> list[Seat]:
    return [
        Seat.objects.create(room=room, user=user, team="AB"[i % 2], index=i)
        for i, user in enumerate(users)
    ]


def full_table(owner: Any, players: list[Any], **room_fields: Any) -> Table:
    room = Room.objects.create(owner=owner, name=room_fields.pop("name", "Stiva"), **room_fields)
    users = [owner, *players]
    seats = seat_four(room, users)
    match = Match.objects.create(
        room=room, number=1, player_0=users[0], player_1=users[1], player_2=users[2],
        player_3=users[3],
    )
    deal = Round.objects.create(
        match=match, number=1, dealer=0, deck=["C1"], engine_state=ENGINE_STATE, phase="PLAY",
        version=3,
    )
    trick = Trick.objects.create(
        round=deal, number=1, leader=1, cards=[{"seat": 1, "card": "SJ"}], winner=None,
    )
    debt = NarrDebt.objects.create(round=deal, debtor="A", creditor="B", trick=trick)
    action = RoundAction.objects.create(
        room=room, round=deal, version=1, sequence=1, actor=users[1], actor_seat=1,
        kind="PLAY_CARD",
        payload={"card": "SJ"}, action_id=str(uuid.uuid4()),
    )
    return Table(room, seats, match, deal, trick, debt, action)
