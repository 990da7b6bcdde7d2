"""What a table looks like to each audience: the engine's view plus the room around it.

Built inside the writer's transaction from rows it already holds, sent after commit. The cards
in it come only from `engine.view(state, seat)` (ARCHITECTURE.md §3): this module adds room,
seat and timer information, all of it public.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from games.engine import MATCH_OVER, ROUND_OVER, MatchState, events_for, new_match_state, view
from games.engine.options import Options
from games.engine.views import seat_view, shared_view
from games.models import MatchStatus, Room
from games.services.bots import stand_ins
from games.services.match_sheet import deals_of
from games.services.sql import SeatRow
from games.services.tables import Table, rules_of, seats_of


@dataclass
class SeatInfo:
    index: int
    team: str
    user_id: int
    name: str
    joined: str
    # Without a live socket: since when (None: connected, or unknown). See presence.away_seats.
    away_since: datetime | None = None
    # The seat's own bot's level ("" for a person), and whether a bot stands in for the
    # person now (games/services/bots/stand_ins.py).
    bot_level: str = ""
    stand_in: bool = False


@dataclass
class TableSnapshot:
    code: str
    version: int
    room: dict[str, Any]
    seats: list[SeatInfo]
    connected: set[int]
    state: MatchState
    match: dict[str, Any] | None
    deadline: datetime | None
    deadline_kind: str
    events: list[Any] = field(default_factory=list)

    def seat_of(self, user_id: int | None) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.index
        return None

    def seats_json(self) -> list[dict[str, Any]]:
        return [
            {"index": s.index, "team": s.team,
             "player": {"id": s.user_id, "name": s.name, "bot": s.bot_level or None},
             "stand_in": s.stand_in,
             "connected": s.user_id in self.connected,
             "away_since": (s.away_since.timestamp()
                            if s.away_since is not None and s.user_id not in self.connected
                            else None),
             "is_owner": s.user_id == self.room["owner"]["id"]}
            for s in sorted(self.seats, key=lambda s: s.index)
        ]

    def _room_part(self, out: dict[str, Any]) -> dict[str, Any]:
        out["room"] = self.room
        out["seats"] = self.seats_json()
        out["match"] = self.match
        out["deadline"] = self.deadline.timestamp() if self.deadline else None
        out["deadline_kind"] = self.deadline_kind or None
        return out

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """The whole `view` object for one audience (seat 0–3, or None for spectators)."""
        return self._room_part(view(self.state, seat))

    def shared_view(self) -> dict[str, Any]:
        """The part of every audience's view that is the same for all: the engine's public
        keys and the room around them (a broadcast encodes it once, not five times)."""
        return self._room_part(shared_view(self.state))

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        """The rest of one audience's view (engine.views.SEAT_KEYS): with `shared_view`,
        exactly `view_for(seat)`."""
        return seat_view(self.state, seat)

    def events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """This change's events as one audience may receive them."""
        return events_for(self.events, seat)

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """A `state` frame without events: a welcome, a `sync`, the API's answer."""
        return {"type": "state", "version": self.version, "view": self.view_for(seat)}


def lobby_state(options: Options, owner_seat: int | None) -> MatchState:
    """The engine's picture of a table between matches: phase LOBBY, the owner dealing first."""
    return new_match_state(options, owner_seat if owner_seat is not None else 0)


def display_name(user: Any) -> str:
    """The name the table's view, the pages and the API show: "Former player" for a deleted
    account (User.public_name)."""
    return str(user.public_name)


# The table-talk modes in which the seats may not write to each other: there a name is the one
# text a player still chooses, so the names the table shows are fixed when the match starts.
NAMES_FROZEN_IN = ("silent", "phrases")


def frozen_names(options: Any, by_index: dict[int | None, SeatRow], owner_id: int,
                 t: Table) -> dict[str, str]:
    """The names a `silent` or `phrases` table shows for the whole match (issue #25 item 9),
    by user id: the four players' and the room owner's; {} in a room that talks. By user, not
    seat, so an owner handed on mid-match shows the name they had at the start."""
    if options.table_talk not in NAMES_FROZEN_IN:
        return {}
    names = {str(s.user_id): s.name for s in by_index.values()}
    if str(owner_id) not in names:
        names[str(owner_id)] = display_name(t.room.owner)
    return names


def shown_name(match: Any, user_id: int, live: str) -> str:
    """The name `user_id` shows at the match's table: fixed at the match's start at a table
    that may not talk (`frozen_names`), else `live`."""
    names = getattr(match, "seat_names", None) or {}
    return str(names.get(str(user_id), live))


def room_json(room: Room, owner_name: str | None = None) -> dict[str, Any]:
    """A room as every audience may see it, the one builder of its shape: the table's `room`
    (which adds whether it is closed) and the API's (which adds its counts and links, for rooms
    that are open). `owner_name`: the owner's name as already read (the table's seats), else
    the owner's row is read."""
    return {
        "code": room.code,
        "name": room.name,
        "owner": {"id": room.owner_id,
                  "name": owner_name if owner_name is not None else display_name(room.owner)},
        "visibility": room.visibility,
        "allow_spectators": room.allow_spectators,
        "options": room.options,
    }


def snapshot(t: Table, seats: list[SeatRow] | None = None) -> TableSnapshot:
    """Everything every audience of the table may be shown, as of this transaction."""
    room = t.room
    seats = seats_of(t) if seats is None else seats
    owner = next((s for s in seats if s.user_id == room.owner_id), None)
    owner_name = owner.name if owner is not None else None
    if (t.match is not None and t.match.status == MatchStatus.RUNNING
            and t.match.seat_names):
        # A table that may not talk shows the names of the match's start (issue #25 item 9).
        seats = [replace(s, name=shown_name(t.match, s.user_id, s.name)) for s in seats]
        owner = next((s for s in seats if s.user_id == room.owner_id), None)
        owner_name = shown_name(t.match, room.owner_id, owner.name if owner is not None
                                else display_name(room.owner))
    owner_seat = owner.index if owner is not None else None
    state = t.state if t.state is not None else lobby_state(rules_of(room), owner_seat)
    practice = stand_ins.practice_person(seats) is not None
    match = None
    if t.match is not None:
        match = {"id": t.match.pk, "number": t.match.number, "status": t.match.status,
                 # A practice table (only bots besides one person) waits for its person:
                 # paused since then while they are away (issue #24 item 2).
                 "practice": practice,
                 "paused_at": (t.match.paused_at.timestamp()
                               if t.match.paused_at is not None else None)}
        if t.match.resigned_by_id is not None:
            # Who gave the match up ("Anna resigned"): public, like the seat they held.
            quitter = next((s for s in seats if s.user_id == t.match.resigned_by_id), None)
            match["resigned"] = ({"seat": quitter.index, "name": quitter.name}
                                 if quitter is not None else None)
        if state.phase in (ROUND_OVER, MATCH_OVER):
            # The score sheet's deal list: public once a deal is scored, and only read then
            # (not on the hot path of the cards played), from the rows: the deal's own row,
            # scored by this command, is written first.
            t.write_deferred()
            match["deals"] = deals_of(t.match)
    running = t.match is not None and t.match.status == MatchStatus.RUNNING
    return TableSnapshot(
        code=room.code,
        version=room.version,
        room={**room_json(room, owner_name),
              "closed": room.closed is not None},
        seats=[SeatInfo(s.index, s.team, s.user_id, s.name, s.joined.isoformat(), s.away_since,
                        s.bot_level if s.is_bot else "",
                        running and not practice and stand_ins.stands_in(s, state, t.now))
               for s in seats if s.index is not None],
        connected={s.user_id for s in seats if s.online},
        state=state,
        match=match,
        deadline=t.round.deadline if t.round is not None else None,
        deadline_kind=t.round.deadline_kind if t.round is not None else "",
        events=t.events,
    )
