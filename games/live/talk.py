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

import asyncio
import logging
import time
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
# A socket refilters its talk at most once per this many seconds, however many mutes, blocks
# or friendships of its user change meanwhile: a storm of them costs one frame per window.
REFILTER_WAIT = 0.25
# The talk payloads a socket keeps to refilter from: its history and what arrived since, the
# muted speakers' included (an unmute shows them again without a read).
_KEPT = 2 * frames.HISTORY_LENGTH
# A refilter that must read the filter and the history from the database.
_READ = object()


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
    """`user_id`'s mutes, blocks or friends changed (after commit): their new filter, read once
    here, goes to every socket of the account, which refilters the talk it holds instead of
    reading its talk history again (issue #25 item 5). `at` orders two changes published by
    different processes: a socket keeps the filter read last."""
    try:
        message = {"type": "talk.mutes", "hidden": sorted(readers.hidden_speakers(user_id)),
                   "trusted": sorted(readers.trusted_speakers(user_id)), "at": time.time()}
        async_to_sync(_send_all)([user_group_name(user_id)], message)
    except Exception:
        log.exception("mute update of user %s failed", user_id)


def publish_block(blocker_id: int, blocked_id: int) -> None:
    """`blocker_id` blocked `blocked_id` (after commit): every socket of the blocked account,
    in any process, hears it; a table socket at one of the blocker's private rooms closes
    (RoomConsumer.talk_blocked)."""
    try:
        async_to_sync(_send_all)([user_group_name(blocked_id)],
                                 {"type": "talk.blocked", "owner": blocker_id})
    except Exception:
        log.exception("block of user %s's sockets failed", blocked_id)


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


def _history(code: str, seat: int | None, user_id: int) -> dict[str, Any]:
    hidden = readers.hidden_speakers(user_id)
    trusted = readers.trusted_speakers(user_id)
    match, payloads = frames.history_payloads(code, seat, hidden)
    return {"hidden": hidden, "trusted": trusted, "match": match, "payloads": payloads,
            "at": time.time()}


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
        when a change of this user's filter shows a speaker it holds no talk of). A socket
        that has not been sent any talk yet gets no frame for an empty list: a table without
        talk sends what it always sent."""
        got = await db_call(_history)(self.code, self.seat, self.user_id)
        self.talk_muted: set[int] = got["hidden"]
        self.talk_trusted: set[int] = got["trusted"]
        # What the payloads were read under: a filter that hides no one of these more than
        # these shows nothing the socket lacks.
        self.talk_base_hidden: set[int] = set(got["hidden"])
        self.talk_filter_at: float = got["at"]
        self.talk_match: int | None = got["match"]
        self.talk_kept: deque[dict[str, Any]] = deque(got["payloads"], maxlen=_KEPT)
        await self._send_talk_history(always)

    async def _send_talk_history(self, always: bool) -> None:
        frame = frames.history_frame(self.talk_kept, self.language, self.talk_muted,
                                     self.talk_trusted)
        if frame["messages"] or always or getattr(self, "talk_synced", False):
            self.talk_synced = True
            await self.send(text_data=encode(frame))

    def talk_match_now(self, match: int | None) -> None:
        """The table's current match, from a table update: a new match starts a new talk
        history (the old match's talk is not refiltered back in)."""
        if "talk_kept" in self.__dict__ and match != self.talk_match:
            self.talk_match = match
            self.talk_kept.clear()

    async def talk_message(self, event: dict[str, Any]) -> None:
        if self._closing():
            return
        payload = event["payload"]
        if payload["audience"] == TalkAudience.SPECTATORS and self.seat is not None:
            return  # a seat never reads the spectators' chat
        if "talk_kept" in self.__dict__:
            if payload["match"] != self.talk_match:
                self.talk_match_now(payload["match"])
            # A history read that raced this message may already hold it: kept once.
            if all(p["id"] != payload["id"] for p in self.talk_kept):
                self.talk_kept.append(payload)
        if payload["author"] in getattr(self, "talk_muted", ()):
            return
        self.talk_synced = True
        await self.send(text_data=encode(
            {"type": "talk", "message": frames.for_reader(payload, self.language,
                                                          getattr(self, "talk_trusted", set()))}))

    async def talk_hidden(self, event: dict[str, Any]) -> None:
        if self._closing():
            return
        kept = self.__dict__.get("talk_kept")
        if kept is not None:
            remaining = [p for p in kept if p["id"] != event["id"]]
            kept.clear()
            kept.extend(remaining)
        await self.send(text_data=encode({"type": "talk_hidden", "id": event["id"]}))

    async def talk_mutes(self, event: dict[str, Any]) -> None:
        """This user's filter changed (publish_mutes): kept, and the talk refiltered once
        REFILTER_WAIT later, whatever else changes meanwhile."""
        if self._closing():
            return
        if "hidden" not in event:
            self.__dict__["talk_next"] = _READ  # no filter given: read it
        elif event["at"] < getattr(self, "talk_filter_at", 0.0):
            return  # read before the filter this socket holds: nothing new
        else:
            self.talk_filter_at = event["at"]
            if self.__dict__.get("talk_next") is not _READ:
                self.__dict__["talk_next"] = (set(event["hidden"]), set(event["trusted"]))
        if not self.__dict__.get("talk_refilter_armed"):
            self.talk_refilter_armed = True
            asyncio.get_running_loop().call_later(REFILTER_WAIT, self._arm_refilter)

    def _arm_refilter(self) -> None:
        # On the loop, outside the handlers: asks for `talk_refilter` through the socket's own
        # channel, so it runs in turn with the talk and table messages.
        if not self._closing():
            asyncio.get_running_loop().create_task(
                self.channel_layer.send(self.channel_name, {"type": "talk.refilter"}))
        else:
            self.talk_refilter_armed = False

    async def talk_refilter(self, event: dict[str, Any]) -> None:
        self.talk_refilter_armed = False
        if self._closing():
            return
        pending = self.__dict__.pop("talk_next", _READ)
        if pending is _READ or "talk_kept" not in self.__dict__:
            await self.talk_resync(always=True)
            return
        hidden, trusted = pending
        self.talk_muted, self.talk_trusted = hidden, trusted
        if not hidden >= self.talk_base_hidden:
            # Someone hidden when the history was read is shown now: their talk is not here.
            await self.talk_resync(always=True)
            return
        await self._send_talk_history(always=True)
