"""How committed talk reaches the sockets, without games.talk importing the live layer: through
the one after-commit port (games/models/after_commit.py) — what is announced is always already
persisted, and talk of a transaction that rolls back is never announced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models.after_commit import on_commit


def said(code: str, audience: str, payload: dict[str, Any]) -> None:
    on_commit(lambda port: port.publish_talk(code, audience, payload))


def hidden(code: str, message_id: int) -> None:
    on_commit(lambda port: port.publish_talk_hidden(code, message_id))


def mutes_changed(user_id: int) -> None:
    """`user_id`'s readers' sets changed (a mute, a block, a friendship): their sockets read
    them again and resend the talk they may see."""
    on_commit(lambda port: port.publish_mutes(user_id))


def blocked(blocker_id: int, blocked_id: int) -> None:
    """After commit, tell the blocked player's sockets (in any process): those watching one of
    the blocker's private rooms close (issue #25 item 7)."""
    on_commit(lambda port: port.publish_block(blocker_id, blocked_id))


def notices_changed(user_id: int, unread: Callable[[], int]) -> None:
    """After commit, tell `user_id`'s site sockets their unread count (`unread`: a callable
    read then, so the count is the committed one)."""
    on_commit(lambda port: port.publish_notices(user_id, unread()))
