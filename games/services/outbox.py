"""What the writer announces after commit, and to whom it hands it.

The services never import the live layer (pyproject.toml's import contracts): the live layer
registers its announcer when the app is ready (games/apps.py), and the writer hands every
committed change to it through `transaction.on_commit` (ARCHITECTURE.md §6). Without one (a
management command that never registered it), nothing is announced and nothing is lost: every
client resyncs from the database.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from django.db import transaction

from games.services.snapshot import TableSnapshot


class Announcer(Protocol):
    def publish(self, snap: TableSnapshot) -> None: ...

    def publish_presence(self, code: str, frame: dict[str, Any]) -> None: ...


_announcer: Announcer | None = None


def register(announcer: Announcer) -> None:
    """Hand every committed table change and presence change to `announcer`."""
    global _announcer
    _announcer = announcer


def table_changed(snap: TableSnapshot,
                  after: Callable[[Callable[[], None]], None] = transaction.on_commit) -> None:
    """Announce `snap` to every audience once the transaction commits (`after`: how the
    writer runs work after its commit; games/services/announce.py `after_commit`)."""
    announcer = _announcer
    if announcer is not None:
        after(lambda: announcer.publish(snap))


def presence_changed(code: str, frame: Callable[[], dict[str, Any]]) -> None:
    """Announce who is at the table (the `presence` frame, read after commit) once the
    transaction commits."""
    announcer = _announcer
    if announcer is not None:
        transaction.on_commit(lambda: announcer.publish_presence(code, frame()))
