"""One table's rows as the writer reads them: loaded in one statement, locked or not.

Shared by the writer (players' commands), the lobby commands, the deadlines and the bots: the
room, its match, its current deal and its seats in one statement (games/services/sql.py), as a
`Table` the command then changes in memory; what it changed is written by
games/services/record.py (ARCHITECTURE.md §5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.engine import MatchState, from_json
from games.engine.options import Options
from games.models import Match, Room, Round
from games.models.presence import PRESENCE_TIMEOUT
from games.services import sql
from games.services.errors import ServiceError
from games.services.sql import SeatRow

__all__ = ["PRESENCE_TIMEOUT", "Table", "load_code", "lock_code", "room_fields",
           "rules_of", "seats_of", "table_of", "timer_of"]


@dataclass
class Table:
    """The rows of one table, loaded under the lock."""

    room: Room
    match: Match | None
    round: Round | None
    state: MatchState | None
    version_before: int
    now: datetime
    events: list[Any] = field(default_factory=list)
    changed: bool = False
    # The room's seats, read once per transaction (the game commands and the snapshot both
    # need them); None again after a lobby command changed them.
    seats: list[SeatRow] | None = None
    # The room's own columns as loaded: the version compare-and-set writes the others only
    # when a command changed them (most actions change the version alone).
    room_was: tuple[Any, ...] = ()
    # The deal's wake-up as loaded, (round id, wakeup_at): `record.finish` arms a new one only when
    # the command moved it (`timers.aim_wakeup`).
    timer_was: tuple[Any, ...] | None = None
    # Set when the engine refused the action publicly (`record.apply_engine`): the refusal is stored
    # and announced like an action, and the sender is still answered with this code.
    refusal: str | None = None
    # Writes of this transaction not sent yet (the deal's row, the log row): `record.finish` sends
    # them with the version's compare-and-set as one statement (games/services/sql.py).
    deferred: list[tuple[str, list[Any]]] = field(default_factory=list)
    # Read without the room's lock (sql.unlocked_block): `record.finish` writes with one
    # compare-and-set statement, and raises sql.NeedsLock if the table moved meanwhile.
    optimistic: bool = False
    # On the sockets' event loop (games/services/writer.py `submit_move`): what is to happen
    # after the write is collected here, (work, whether it may run on the loop), instead of
    # being handed to a transaction's commit.
    hooks: list[tuple[Callable[[], None], bool]] | None = None

    def later(self, statement: tuple[str, list[Any]]) -> None:
        """Write this with the version's compare-and-set (nothing reads it before)."""
        self.deferred.append(statement)

    def write_deferred(self) -> None:
        """Send the deferred writes now (before a statement that reads what they write)."""
        if self.deferred:
            sql.write_all(self.deferred)
            self.deferred.clear()


# The Room columns a command may change besides the version (see `record.finish`).
_ROOM_FIELDS = ("owner", "current_match", "closed", "options", "visibility",
                "allow_spectators", "name")


def _room_fields(room: Room) -> tuple[Any, ...]:
    return (room.owner_id, room.current_match_id, room.closed, room.options, room.visibility,
            room.allow_spectators, room.name)


# The Room columns a command may change besides the version (see `record.finish`).
ROOM_FIELDS = ("owner", "current_match", "closed", "options", "visibility",
               "allow_spectators", "name")


def room_fields(room: Room) -> tuple[Any, ...]:
    return (room.owner_id, room.current_match_id, room.closed, room.options, room.visibility,
            room.allow_spectators, room.name)


def rules_of(room: Room) -> Options:
    """The room's house rules as the engine's frozen dataclass (defaults filled in)."""
    return Options.from_json(room.options)


# --- reading -----------------------------------------------------------------------------

def _table(room: Room, match: Match | None, rnd: Round | None, now: datetime,
           seats: list[SeatRow] | None = None) -> Table:
    state = from_json(rnd.engine_state) if rnd is not None else None
    return Table(room, match, rnd, state, room.version, now, room_was=room_fields(room),
                 timer_was=timer_of(rnd), seats=seats)


def timer_of(rnd: Round | None) -> tuple[Any, ...] | None:
    return None if rnd is None else (rnd.pk, rnd.wakeup_at)


def load_code(code: str, *, lock: bool) -> Table:
    """The table of a room code: its room (locked if `lock`), match and current deal in one
    statement (games/services/sql.py)."""
    rows = sql.load_table(code, lock=lock)
    if rows is None:
        raise Room.DoesNotExist(code)
    return _table(*rows, timezone.now())


def lock_code(code: str) -> Table:
    """The table of a room code, locked for this transaction, with its seats; ROOM_NOT_FOUND
    if none (the lobby commands, the timers; a move is read by games/services/writer.py)."""
    now = timezone.now()
    loaded, _ = sql.load_table_with(code, online_since=now - PRESENCE_TIMEOUT)
    if loaded is None:
        raise ServiceError("ROOM_NOT_FOUND")
    return table_of(loaded, now, optimistic=False)


def table_of(loaded: sql.LoadedTable, now: datetime, *, optimistic: bool) -> Table:
    """The table as `sql.load_table_with` read it at `now`."""
    t = _table(loaded.room, loaded.match, loaded.round, now, loaded.seats)
    t.optimistic = optimistic
    return t


def _seats(room: Room, now: datetime) -> list[SeatRow]:
    """The room's seats with their players' names, each marked `online` (a live socket within
    PRESENCE_TIMEOUT): one statement, since every broadcast needs both (bench/ws_load.py)."""
    return sql.seat_rows(room.pk, now - PRESENCE_TIMEOUT)


def seats_of(t: Table) -> list[SeatRow]:
    if t.seats is None:
        t.seats = _seats(t.room, t.now)
    return t.seats
