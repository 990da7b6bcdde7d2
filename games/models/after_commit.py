"""The one after-commit port: what a committed change sets off outside the database.

The services and table talk never import the live layer (the layers, pyproject.toml's import
contracts); the live layer registers one implementation here when the app is ready
(games/apps.py), and everything a transaction is to send — a table's snapshot, who is at a
table, a deal's wake-up in the embedded mode, a bot's turn, talk said or hidden, changed mute
lists, unread notices, a tournament's change — is handed to it by `on_commit`, after the
commit (ARCHITECTURE.md §6; Zulip's send_event_on_commit is the model). Nothing is sent from
inside a transaction, and a transaction that rolls back sends nothing. Without a registration
(a management command), nothing is sent and nothing is lost: every client resyncs from the
database.

Beside the models, the lowest layer both the services and talk stand on: it imports only
Django's transaction, and the types of what it carries stay the callers' (`Any` here).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction

__all__ = ["Effects", "effects", "on_commit", "register"]


@dataclass(frozen=True)
class Effects:
    """The live layer's implementation of every after-commit effect."""

    # A table's snapshot (games/services/snapshot.py TableSnapshot), to every audience.
    publish: Callable[[Any], None]
    # A table's `presence` frame.
    publish_presence: Callable[[str, dict[str, Any]], None]
    # The embedded mode's in-process timer: wake (round, when). The distributed mode sends a
    # Celery task by name instead (games/services/wakeups.py).
    schedule_wakeup: Callable[[int, datetime], None]
    # The embedded mode's bot pool: (round, version, delay in seconds, due time in seconds
    # since the epoch); the distributed mode sends a Celery task (services/bots/wakeups.py).
    bot_turn: Callable[[int, int, float, float], None]
    # Table talk (games/talk/hooks.py).
    publish_talk: Callable[[str, str, dict[str, Any]], None]
    publish_talk_hidden: Callable[[str, int], None]
    publish_mutes: Callable[[int], None]
    # A block (blocker, blocked): the blocked player's sockets at the blocker's private rooms.
    publish_block: Callable[[int, int], None]
    publish_notices: Callable[[int, int], None]
    # Find a game (services/matchmaking.py): one frame to one user's site sockets (/ws/me/).
    publish_queue: Callable[[int, dict[str, Any]], None]
    # Many such frames, (user, frame) in order, in one go (a tournament round's "your table
    # is ready" to every player).
    publish_site_frames: Callable[[list[tuple[int, dict[str, Any]]]], None]
    # A tournament changed (games/clubs/push.py): one frame to the site sockets watching it.
    publish_tournament: Callable[[int, dict[str, Any]], None]
    # The embedded mode's bot threads: a deal's review to work out (games/teaching/reviews.py;
    # the distributed mode sends a Celery task by name instead).
    run_review: Callable[[int], None] | None = None


_effects: Effects | None = None


def register(implementation: Effects | None) -> None:
    """The one registration (games/apps.py); None takes it back (a test's)."""
    global _effects
    _effects = implementation


def effects() -> Effects | None:
    """The registered implementation, None if there is none."""
    return _effects


def on_commit(work: Callable[[Effects], None]) -> None:
    """Run `work` with the implementation once the current transaction commits (at once
    outside one); never if it rolls back, nor when nothing is registered. The implementation
    is the one registered at commit."""

    def run() -> None:
        implementation = _effects
        if implementation is not None:
            work(implementation)

    transaction.on_commit(run)
