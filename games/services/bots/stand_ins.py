"""Which seat a bot plays now: a bot's own seat, or the seat of a player away longer than the
room's grace period (`stand_in_seconds`), whom a bot stands in for until they return.

Pure decisions on rows the writer already holds (the table's state and its SeatRows), so the
writer can ask after every action whether a bot is to act, without a query of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from games.engine import DEALING, PLAY, ROUND_OVER, SCART, MatchState
from games.services.sql import SeatRow

# The level of a bot that stands in for an away player: it plays for a person's team.
STAND_IN_LEVEL = "strong"


@dataclass(frozen=True)
class BotTurn:
    """A seat a bot is to act for now: `level` decides; `stand_in_for` is the away player's
    user id when the seat is a person's (the bot then acts through its own account)."""

    seat: int
    user_id: int
    level: str
    stand_in_for: int | None = None


def practice_person(rows: list[SeatRow]) -> int | None:
    """The one person of a practice table — four seats, every one but theirs a bot (Play
    now makes them; a room seated so by hand is the same) — or None for any other table.
    Such a table waits for its person: no stand-in plays for them, and the match pauses
    while they are away (games/services/pause.py, issue #24 item 2)."""
    seated = [r for r in rows if r.index is not None]
    people = [r for r in seated if not r.is_bot]
    return people[0].user_id if len(seated) == 4 and len(people) == 1 else None


def stand_in_due(row: SeatRow, state: MatchState) -> datetime | None:
    """When a bot may stand in for this seat's player: the moment they went away plus the
    grace period. None for a bot's own seat, a player at the table, one whose away time is
    unknown (never came), or a room where bots never stand in (0)."""
    grace = state.options.stand_in_seconds
    if row.is_bot or row.online or row.away_since is None or grace == 0:
        return None
    return row.away_since + timedelta(seconds=grace)


def stands_in(row: SeatRow, state: MatchState, now: datetime) -> bool:
    """Whether a bot plays this person's seat now (never before the grace period ends)."""
    due = stand_in_due(row, state)
    return due is not None and now >= due


def _actor(state: MatchState, seats: dict[int, SeatRow]) -> int | None:
    """The seat whose action the table waits for, or None (a timer's, or nobody's)."""
    deal = state.deal
    if deal is None:
        return None
    if state.phase in (DEALING, SCART):
        return deal.dealer
    if state.phase == PLAY:
        return deal.turn
    return None


def _turn(row: SeatRow, state: MatchState, now: datetime, practice: bool
          ) -> tuple[BotTurn | None, datetime | None]:
    assert row.index is not None
    if row.is_bot:
        return BotTurn(row.index, row.user_id, row.bot_level), None
    # A practice table waits for its person: nobody plays in their name (issue #24 item 2).
    due = None if practice else stand_in_due(row, state)
    if due is None:
        return None, None
    if now < due:
        return None, due
    return BotTurn(row.index, row.user_id, STAND_IN_LEVEL, stand_in_for=row.user_id), None


def pending_turn(state: MatchState | None, rows: list[SeatRow], owner_id: int | None,
                 now: datetime, *, paused: bool = False,
                 anyone_here: Callable[[], bool] | None = None
                 ) -> tuple[BotTurn | None, datetime | None]:
    """The bot to act now, if any; else when a stand-in may act (wake the table then).

    Nobody acts at a paused match (Match.paused_at: a practice table whose person is away).
    After a scored deal (ROUND_OVER) bots start the next one only when every seat is played
    by a bot: people start it themselves. With `regame_by` "owner" that is the owner's seat.
    Stand-ins start it only while a person is connected to the room (`anyone_here`, seated
    or watching; None: nobody): a table everyone left never deals on by itself (issue #25
    item 1)."""
    if state is None or paused:
        return None, None
    seats = {r.index: r for r in rows if r.index is not None}
    if len(seats) != 4:
        return None, None
    practice = practice_person(rows) is not None
    if state.phase == ROUND_OVER:
        turns = [_turn(seats[i], state, now, practice) for i in range(4)]
        if any(turn is None and due is None for turn, due in turns):
            return None, None
        dues = [due for turn, due in turns if due is not None]
        if dues:
            return None, max(dues)
        standing_in = any(turn is not None and turn.stand_in_for is not None
                          for turn, _due in turns)
        if standing_in and (anyone_here is None or not anyone_here()):
            return None, None
        index = 0
        if state.options.regame_by == "owner":
            owner = next((i for i, r in seats.items() if r.user_id == owner_id), None)
            if owner is None:
                return None, None
            index = owner
        return turns[index][0], None
    actor = _actor(state, seats)
    if actor is None:
        return None, None
    return _turn(seats[actor], state, now, practice)
