"""Table talk on the live layer (issue #17): the fan-out of committed talk through the channel
layer, and the consumer's talk handlers (a mixin of RoomConsumer, kept apart from the table's
framing in consumers.py).

Who receives what: the seated players' talk goes to every audience group of the room (the four
seats and the spectators); the spectators' chat only to the spectators' group, and a socket
that holds a seat drops it even if it arrives (a group change in flight). Each socket renders a
quick phrase in its reader's language and drops the talk of speakers its user muted
(games.talk.readers.hidden_speakers, refreshed when a mute changes on any of their sockets).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.engine.errors import TroccasError
from games.live import broadcast
from games.live.broadcast import AUDIENCES, encode, group_name, user_group_name
from games.live.socket_base import LiveSocket
from games.live.socket_db import SIGNED_OUT, Auth, SignedOut, db_call, if_signed_in
from games.models import TalkAudience
from games.services.commands import Command
from games.talk import frames, moderation, readers, speech

log = logging.getLogger(__name__)

# How many recent action_ids a socket remembers, so a resent `say` is said once.
_SEEN_IDS = 32


def _groups(code: str, audience: str) -> list[str]:
    if audience == TalkAudience.SPECTATORS:
        return [group_name(code, None)]
    return [group_name(code, seat) for seat in AUDIENCES]


async def _send_all(groups: list[str], message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group in groups:
        await layer.group_send(group, message)


def publish_talk(code: str, audience: str, payload: dict[str, Any]) -> None:
    try:
        async_to_sync(_send_all)(_groups(code, audience),
                                 {"type": "talk.message", "payload": payload})
    except Exception:  # the message is stored; a resync shows it
        log.exception("talk broadcast in table %s failed", code)


def publish_talk_hidden(code: str, message_id: int) -> None:
    try:
        async_to_sync(_send_all)(_groups(code, TalkAudience.TABLE),
                                 {"type": "talk.hidden", "id": message_id})
    except Exception:
        log.exception("talk hide in table %s failed", code)


def publish_notices(user_id: int, unread: int) -> None:
    """A user's notification count changed: their site sockets (/ws/me/) hear it."""
    broadcast.send_notices(user_id, unread)


def publish_mutes(user_id: int) -> None:
    try:
        async_to_sync(_send_all)([user_group_name(user_id)], {"type": "talk.mutes"})
    except Exception:
        log.exception("mute update of user %s failed", user_id)


def _signed_in_call(auth: Auth, func: Callable[..., int], *args: Any
                    ) -> int | SignedOut | TroccasError:
    """`func(*args)`, or SIGNED_OUT if the socket's session ended (the frame's session re-check
    rides the same thread hop); a refusal comes back as its TroccasError."""
    try:
        return if_signed_in(auth, func, *args)
    except TroccasError as exc:
        return exc


def _say(code: str, user: Any, fields: dict[str, Any]) -> int:
    message: int = speech.say(code, user, text=fields.get("text"),
                              phrase=fields.get("phrase")).pk
    return message


def _mute(user: Any, fields: dict[str, Any]) -> int:
    player: int = fields["player"]
    moderation.set_mute(user, player, fields["muted"])
    return player


def _report(code: str, user: Any, seat: int | None, fields: dict[str, Any]) -> int:
    return moderation.report(user, code, fields["message"], seat,
                             reason=fields["reason"], note=fields.get("note")).pk


def _history(code: str, seat: int | None, user_id: int, language: str) -> dict[str, Any]:
    hidden = readers.hidden_speakers(user_id)
    trusted = readers.trusted_speakers(user_id)
    return {"hidden": hidden, "trusted": trusted,
            "frame": frames.history(code, seat, language, hidden, trusted)}


class TalkMixin(LiveSocket):
    """RoomConsumer's talk: the `say`, `mute` and `report` commands and the talk events."""

    # Provided by RoomConsumer.
    code: str
    seat: int | None
    language: str

    async def talk_command(self, cmd: Command) -> None:
        """One talk command: refused with its code, or acked (`talk_ack`) once stored."""
        seen: deque[str | None] = self.__dict__.setdefault("talk_seen", deque(maxlen=_SEEN_IDS))
        if cmd.action_id in seen:
            await self.send(text_data=encode(
                {"type": "talk_ack", "action_id": cmd.action_id, "duplicate": True}))
            return
        if cmd.type == "say":
            call: tuple[Any, ...] = (_say, self.code, self.user, cmd.fields)
        elif cmd.type == "mute":
            call = (_mute, self.user, cmd.fields)
        else:
            call = (_report, self.code, self.user, self.seat, cmd.fields)
        result = await db_call(_signed_in_call)(self.auth, *call)
        if result is SIGNED_OUT:
            await self._shut("NOT_AUTHENTICATED")
            return
        if isinstance(result, TroccasError):
            await self._send_error(result.code, cmd.action_id)
            return
        seen.append(cmd.action_id)
        await self.send(text_data=encode(
            {"type": "talk_ack", "action_id": cmd.action_id, "id": result,
             "duplicate": False}))

    async def talk_resync(self, always: bool = False) -> None:
        """Send the talk of the current match this socket may read (connect, resync, and
        whenever this user's mutes change). A socket that has not been sent any talk yet gets
        no frame for an empty list: a table without talk sends what it always sent."""
        got = await db_call(_history)(self.code, self.seat, self.user_id, self.language)
        self.talk_muted: set[int] = got["hidden"]
        self.talk_trusted: set[int] = got["trusted"]
        if got["frame"]["messages"] or always or getattr(self, "talk_synced", False):
            self.talk_synced = True
            await self.send(text_data=encode(got["frame"]))

    async def talk_message(self, event: dict[str, Any]) -> None:
        if self._closing():
            return
        payload = event["payload"]
        if payload["audience"] == TalkAudience.SPECTATORS and self.seat is not None:
            return  # a seat never reads the spectators' chat
        if payload["author"] in getattr(self, "talk_muted", ()):
            return
        self.talk_synced = True
        await self.send(text_data=encode(
            {"type": "talk", "message": frames.for_reader(payload, self.language,
                                                          getattr(self, "talk_trusted", set()))}))

    async def talk_hidden(self, event: dict[str, Any]) -> None:
        if not self._closing():
            await self.send(text_data=encode({"type": "talk_hidden", "id": event["id"]}))

    async def talk_mutes(self, event: dict[str, Any]) -> None:
        if not self._closing():
            await self.talk_resync(always=True)
