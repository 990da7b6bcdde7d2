"""The people of the tests, named once (ARCHITECTURE.md convention 10).

A full table, A-B-A-B (RULES.md §3: partners sit opposite each other):

    seat 0  owner     team A   opened the room; the first dealer of a room's first match
    seat 1  anna      team B   leads trick 1 when the owner deals
    seat 2  benedetg  team A
    seat 3  curdin    team B

and two people without a seat: the outsider, who never sat down, and the spectator, who looks
on. The engine tests (tests/engine/helpers.py) call the seats by these names; the web tests
get the same people as users from the fixtures in tests/conftest.py, seated by
tests/support/tables.py in exactly this order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Persona:
    name: str  # the username stem (tests/conftest.py `make_user` makes it unique)
    seat: int | None = None  # 0-3 at a full table; None for someone without a seat
    team: str | None = None  # "A" (even seats) or "B" (odd seats)


OWNER = Persona("owner", 0, "A")
ANNA = Persona("anna", 1, "B")
BENEDETG = Persona("benedetg", 2, "A")
CURDIN = Persona("curdin", 3, "B")
OUTSIDER = Persona("outsider")
SPECTATOR = Persona("spectator")

SEATED = (OWNER, ANNA, BENEDETG, CURDIN)  # by seat
PLAYERS = (ANNA, BENEDETG, CURDIN)  # the three who join the owner's room
for _index, _persona in enumerate(SEATED):
    assert _persona.seat == _index and _persona.team == "AB"[_index % 2], _persona


def by_seat(owner: T, players: Sequence[T]) -> dict[int, T]:
    """The owner and the three players (in PLAYERS order) by their seat index."""
    assert len(players) == len(PLAYERS), players
    return dict(enumerate([owner, *players]))
