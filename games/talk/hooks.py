"""How committed talk reaches the sockets, without games.talk importing the live layer.

Like games/services/outbox.py: the live layer registers its announcer when the app is ready
(games/apps.py), and talk hands it every stored message, hidden message and changed mute list
through `transaction.on_commit` — what is announced is always already persisted.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.db import transaction


class TalkAnnouncer(Protocol):
    def publish_talk(self, code: str, audience: str, payload: dict[str, Any]) -> None: ...

    def publish_talk_hidden(self, code: str, message_id: int) -> None: ...

    def publish_mutes(self, user_id: int) -> None: ...

    def publish_notices(self, user_id: int, unread: int) -> None: ...


_announcer: TalkAnnouncer | None = None


def register(announcer: TalkAnnouncer) -> None:
    global _announcer
    _announcer = announcer


def said(code: str, audience: str, payload: dict[str, Any]) -> None:
    announcer = _announcer
    if announcer is not None:
        transaction.on_commit(lambda: announcer.publish_talk(code, audience, payload))


def hidden(code: str, message_id: int) -> None:
    announcer = _announcer
    if announcer is not None:
        transaction.on_commit(lambda: announcer.publish_talk_hidden(code, message_id))


def mutes_changed(user_id: int) -> None:
    """`user_id`'s readers' sets changed (a mute, a block, a friendship): their sockets read
    them again and resend the talk they may see."""
    announcer = _announcer
    if announcer is not None:
        transaction.on_commit(lambda: announcer.publish_mutes(user_id))


def notices_changed(user_id: int, unread: Any) -> None:
    """After commit, tell `user_id`'s site sockets their unread count (`unread`: a callable
    read then, so the count is the committed one)."""
    announcer = _announcer
    if announcer is not None:
        transaction.on_commit(lambda: announcer.publish_notices(user_id, unread()))
