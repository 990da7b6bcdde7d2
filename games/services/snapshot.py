"""What a table looks like to each audience: the engine's view plus the room around it.

Built inside the writer's transaction from rows it already holds, sent after commit. The cards
in it come only from `engine.view(state, seat)` (ARCHITECTURE.md §3): this module adds room,
seat and timer information, all of it public.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.engine import MatchState, events_for, new_match_state, view
from games.engine.options import Options
from games.engine.views import seat_view, shared_view


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
    # person now (games/services/bot_seats.py).
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
