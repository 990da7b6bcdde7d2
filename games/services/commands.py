"""What the writer accepts: one command of a player (or a bot) at a table.

The websocket's parser (games/live/protocol.py), the HTTP API and the bots all build this type;
the writer knows nothing of frames, JSON or sockets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Player actions of TRANSCRIPT.md, without `seat` (the server knows it) and `deck` (the server
# shuffles). `start_round` is how the owner starts a match from the lobby.
GAME_TYPES = frozenset({
    "start_round", "deal_next_pass", "discard_scart", "play_card", "call_buob", "regame",
    "end_match", "new_match", "rematch",
})
LOBBY_TYPES = frozenset({
    "take_seat", "leave_seat", "move_player", "kick", "transfer_owner", "set_options",
    "close_room", "seat_bot", "remove_bot",
})


@dataclass(frozen=True)
class Command:
    """One command: its type, the client's idempotency key and the version it acted on."""

    type: str
    action_id: str | None
    expected_version: int | None
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def is_game(self) -> bool:
        return self.type in GAME_TYPES

    @property
    def is_lobby(self) -> bool:
        return self.type in LOBBY_TYPES
