"""What the writer accepts: one command of a player (or a bot) at a table.

The websocket's parser (games/live/protocol.py), the HTTP API and the bots all build this type;
the writer knows nothing of frames, JSON or sockets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The command types are the engine's action table (games/engine/actions.py): a game command
# is a player action of TRANSCRIPT.md without `seat` (the server knows it) and `deck` (the
# server shuffles), or `rematch`; `start_round` is how the owner starts a match from the lobby.
from games.engine.actions import GAME_TYPES, LOBBY_TYPES


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
