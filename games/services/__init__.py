"""The only writer of game rows (ARCHITECTURE.md §5, §6, §9).

Doors (consumers, views, the API, tasks, the admin, bots) call what this package exports:

- `submit` — a player's command (games/services/writer.py, lobby commands in lobby.py);
  `submit_move` — the same sent over a table's socket (written from its event loop when it can);
- `wake`, `fire_deadline`, `sweep_deadlines` — the timers (deadlines.py: `wake` is what a
  deal's wake-up calls);
- `connect`, `disconnect`, `touch`, `connected_users`, `may_watch`, `purge_stale_connections`
  — presence (presence.py); `away_seats` — which seats' players are away and since when (the
  hook for a stand-in bot);
- `create_room`, `create_seated_room` (a tournament table; rooms.py), `staff_close_room`,
  `staff_end_match` (the admin's actions);
- `table_snapshot` — a read-only picture of a table for a sync;
- `play_bot_turn`, `wake_bot`, `sweep_bot_turns`, `create_practice_table` — bots at the table
  (bots/turns.py); `wake_bot` is what a runner calls, at the budget bots/budget.py allows;
- `director_pause`, `director_resume`, `substitute_seat` — a tournament director's hand on a
  running match (pause.py);
- `sweep_idle_matches` — end the matches nobody is at (idle.py; a practice table's pause is
  presence's, pause.py).
"""

from games.services.bots.turns import (
    create_practice_table,
    play_bot_turn,
    sweep_bot_turns,
    wake_bot,
)
from games.services.commands import Command
from games.services.deadlines import fire_deadline, sweep_deadlines, wake
from games.services.errors import ServiceError
from games.services.idle import sweep_idle_matches
from games.services.lobby import club_outsider, owner_blocked, staff_close_room, staff_end_match
from games.services.pause import director_pause, director_resume, substitute_seat
from games.services.presence import (
    PRESENCE_TIMEOUT,
    away_seats,
    blocked_out,
    connect,
    connected_users,
    disconnect,
    may_watch,
    purge_stale_connections,
    seat_of_user,
    touch,
)
from games.services.rooms import create_room, create_seated_room, open_room
from games.services.tables import rules_of
from games.services.writer import (
    Outcome,
    key_of,
    shuffled_deck,
    submit,
    submit_move,
    table_snapshot,
)

__all__ = [
    "PRESENCE_TIMEOUT", "Command", "Outcome", "ServiceError", "away_seats", "blocked_out",
    "club_outsider",
    "connect", "director_pause", "director_resume", "substitute_seat",
    "connected_users",
    "create_practice_table", "create_room", "create_seated_room", "disconnect",
    "fire_deadline", "wake", "key_of",
    "open_room",
    "may_watch", "owner_blocked", "play_bot_turn", "sweep_bot_turns", "wake_bot",
    "purge_stale_connections", "rules_of",
    "seat_of_user", "shuffled_deck", "staff_close_room", "staff_end_match", "submit",
    "submit_move", "sweep_deadlines", "sweep_idle_matches", "table_snapshot", "touch",
]
