"""RoomConsumer: one websocket per tab at /ws/rooms/<code>/ (docs/protocol.md).

A thin door (ARCHITECTURE.md §9): authenticate, join the audience group of the user's seat,
parse frames, call the services, and send. It forwards a broadcast only if the broadcast was
built for the seat this user holds at that version, so a socket never carries another seat's
cards, even while it is changing groups.

What it shares with the site socket (close codes, the flood bucket, the end of a sign-in) is
games/live/socket_base.py; its database calls go through games/live/socket_db.py; the order of
its table updates is games/live/version_buffer.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Any

from channels.consumer import get_handler_name
from django.conf import settings

from accounts.sessions import signed_in_statement
from games import services
from games.live import bot_pool, broadcast, timer_loop
from games.live.protocol import (
    PROTOCOL_VERSION,
    TALK_TYPES,
    TEACHING_TYPES,
    ProtocolError,
    client_protocol,
    parse,
)
from games.live.socket_base import (
    CLOSE_CODES,
    CLOSE_REFUSED,
    CLOSE_SERVER_ERROR,
    LiveSocket,
    client_gone,
)
from games.live.socket_db import SIGNED_OUT as _SIGNED_OUT
from games.live.socket_db import Auth, SignedOut, db_call, if_signed_in, signed_in
from games.live.talk import TalkMixin
from games.live.version_buffer import GAP_WAIT, Arrival, VersionBuffer
from games.services.errors import ServiceError
from games.services.writer import Outcome
from games.teaching import hints

log = logging.getLogger(__name__)

__all__ = ["CLOSE_CODES", "CLOSE_SERVER_ERROR", "GAP_WAIT", "HINT_PENDING_S", "RoomConsumer"]

# A hint not answered within this many seconds no longer blocks the next (a lost task).
HINT_PENDING_S = 10.0

# One room's writes run one at a time in this process, in arrival order, so its after-commit
# broadcasts leave in version order (games/live/socket_db.py says why the calls themselves run
# on a thread pool); other rooms proceed in parallel.
_room_locks: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = (
    weakref.WeakValueDictionary())


def _room_lock(code: str) -> asyncio.Lock:
    key = (id(asyncio.get_running_loop()), code)
    lock = _room_locks.get(key)
    if lock is None:
        lock = asyncio.Lock()
        _room_locks[key] = lock
    return lock


def _touch_signed_in(auth: Auth, channel_name: str) -> bool:
    """The heartbeat, and whether the session still holds (one round trip)."""
    statement = signed_in_statement(*auth)
    if statement is None:
        return if_signed_in(auth, services.touch, channel_name) is not _SIGNED_OUT
    return bool(services.touch(channel_name, session=statement))


class RoomConsumer(TalkMixin, LiveSocket):
    # The groups it joins (broadcast.GROUP_MESSAGES): a handler for every type of each.
    GROUP_KINDS = ("table", "user")
    # When this socket's hint was asked for (the loop's clock), until its answer came.
    hint_pending: float | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Call the handler of a message, without Channels' per-message connection cleanup.

        Channels 4.2+ runs `close_old_connections` on its one sync thread before *every*
        message, table updates included: a thread hop per frame that the handlers here do not
        need (they reach the database only through `socket_db.db_call`, whose thread does that
        cleanup itself). bench/ws_load.py: a good part of a process's CPU at a few hundred sockets.

        A handler that raises does not take the socket down silently: the error is logged
        once, the client gets SERVER_ERROR and a close (1011), and the socket's row goes."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if message["type"] == "websocket.disconnect":
            await handler(message)
            return
        try:
            await handler(message)
        except Exception as exc:
            if client_gone(exc):
                return  # the browser closed meanwhile: its disconnect cleans up
            log.exception("socket handler %s failed in room %s", message["type"],
                          getattr(self, "code", "?"))
            await self._fail()

    async def _fail(self) -> None:
        if self.failed:
            return
        self.failed = True
        with contextlib.suppress(Exception):  # the client is gone already
            if self.accepted:
                await self._send_error("SERVER_ERROR", None)
                await self.close(code=CLOSE_SERVER_ERROR)
            else:
                await self.close()  # before the handshake completed: refused (HTTP 403)
        await self._cleanup()

    async def connect(self) -> None:
        self.code: str = self.scope["url_route"]["kwargs"]["code"]
        self._sign_in()
        self.seat: int | None = None
        self.group: str | None = None
        self.user_group: str | None = None
        # The version of the last `state` frame sent and the updates held back until the
        # versions before them have been sent (`table_update`).
        self.versions: VersionBuffer[dict[str, Any]] = VersionBuffer()
        self.room_lock = _room_lock(self.code)  # held by reference while the socket lives
        if client_protocol(self.scope.get("query_string", b"")) != PROTOCOL_VERSION:
            # An old page (or client): it would wait for frames of a shape it no longer gets.
            # Told so in its language, before anything else is looked up.
            await self.accept()
            self.accepted = True
            await self._shut("PROTOCOL_OUTDATED")
            return
        refusal = await db_call(services.may_watch)(self.code, self.user)
        await self.accept()
        self.accepted = True
        if refusal is not None:
            await self._send_error(refusal, None)
            await self.close(code=CLOSE_CODES.get(refusal, CLOSE_REFUSED))
            return
        if settings.TROCCAS_MODE == "embedded":
            timer_loop.embedded.ensure_started()
            bot_pool.embedded.ensure_started()
        async with self.room_lock:
            refusal = await db_call(services.connect)(self.code, self.user, self.channel_name)
        if refusal is not None:
            await self._send_error(refusal, None)
            await self.close(code=CLOSE_CODES.get(refusal, CLOSE_REFUSED))
            return
        self.registered = True
        # Told when this sign-in ends (a log-out, a new password, a deleted account).
        self.user_group = broadcast.user_group_name(self.user_id)
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        await self._resync()

    async def disconnect(self, code: int) -> None:
        await self._cleanup()

    async def _cleanup(self) -> None:
        for attr in ("group", "user_group"):
            group = getattr(self, attr, None)
            if group is not None:
                setattr(self, attr, None)
                try:
                    await self.channel_layer.group_discard(group, self.channel_name)
                except Exception:  # the membership expires with the group
                    log.exception("group_discard of %s failed", group)
        if self.registered:
            self.registered = False
            async with self.room_lock:
                await db_call(services.disconnect)(self.code, self.channel_name)

    # --- incoming --------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None
                      ) -> None:
        if self._closing():
            # A refused socket (not signed in, no such room, spectators not allowed, too many
            # sockets), one being closed (flooding, signed out): its frames are never read.
            return
        if not self._admit():  # the flood bucket (games/live/flood.py)
            return
        try:
            cmd = parse(text_data if text_data is not None else bytes_data)
        except ProtocolError as exc:
            await self._send_error(exc.code, exc.action_id)
            return
        # Every frame re-checks the session (docs/protocol.md §3), in the same thread hop.
        if cmd.type == "ping":
            if not await db_call(_touch_signed_in)(self.auth, self.channel_name):
                await self._shut("NOT_AUTHENTICATED")
                return
            await self.send(text_data=broadcast.encode({"type": "pong"}))
            return
        if cmd.type == "sync":
            if await db_call(signed_in)(self.auth):
                await self._resync()
            else:
                await self._shut("NOT_AUTHENTICATED")
            return
        if cmd.type in TALK_TYPES:
            # Talk never changes the table: no room lock, its own handler (games/live/talk.py).
            await self.talk_command(cmd)
            return
        if cmd.type in TEACHING_TYPES:
            await self._hint(cmd.action_id)
            return
        outcome: Outcome | SignedOut
        try:
            async with self.room_lock:
                # Written from this loop when it can be (PostgreSQL), else on a database
                # thread: games/services/writer.py decides.
                outcome = await services.submit_move(self.code, self.user, cmd, self.auth)
                if outcome.code == "NOT_AUTHENTICATED":
                    outcome = _SIGNED_OUT
        except Exception:
            log.exception("service error in room %s (%s)", self.code, cmd.type)
            await self._send_error("SERVER_ERROR", cmd.action_id)
            return
        if outcome is _SIGNED_OUT:
            await self._shut("NOT_AUTHENTICATED")
            return
        if not outcome.ok:
            await self._send_error(outcome.code or "SERVER_ERROR", cmd.action_id)
            if outcome.code == "STALE_VERSION":
                await self._resync()
            return
        await self.send(text_data=broadcast.encode(
            {"type": "ack", "action_id": cmd.action_id, "version": outcome.version,
             "duplicate": outcome.duplicate}))
        if outcome.duplicate:
            await self._resync()

    # --- outgoing --------------------------------------------------------------------------

    async def _join(self, seat: int | None) -> None:
        group = broadcast.group_name(self.code, seat)
        if group == self.group:
            # Already a member - as far as this process knows. Group membership lives in the
            # channel layer (Redis), which may have lost it (a Redis restart, bench/chaos.py):
            # a resync re-adds it (idempotent), or the socket would never hear of the table
            # again while its client kept asking for syncs.
            await self.channel_layer.group_add(group, self.channel_name)
            return
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.channel_layer.group_add(group, self.channel_name)
        self.group = group
        self.seat = seat

    async def _resync(self) -> None:
        """Join the group of the user's current seat and send the full current view."""
        seat = await db_call(services.seat_of_user)(self.code, self.user_id)
        await self._join(seat)
        snap = await db_call(services.table_snapshot)(self.code)
        actual = snap.seat_of(self.user_id)
        if actual is None and broadcast.spectators_refused(snap):
            await self._shut("SPECTATORS_NOT_ALLOWED")
            return
        if actual != seat:
            await self._join(actual)
        await self.send(text_data=broadcast.encode(snap.state_message(actual)))
        self.versions.sent_version(snap.version)
        await self.talk_resync()
        await self._release_held()

    async def table_update(self, event: dict[str, Any]) -> None:
        """A table update for this socket's audience: sent in version order
        (games/live/version_buffer.py)."""
        if self._closing():
            return
        arrival = self.versions.arrive(event["version"], event)
        if arrival is Arrival.FORWARD:
            await self._forward(event)
            await self._release_held()
        elif arrival is Arrival.RESYNC:
            await self._resync()
        elif arrival is Arrival.ARM:
            asyncio.get_running_loop().call_later(GAP_WAIT, self._gap_check)

    async def _release_held(self) -> None:
        """Send the held updates that are next in line."""
        while not self._closing():
            event = self.versions.next_ready()
            if event is None:
                return
            await self._forward(event)

    def _gap_check(self) -> None:
        # On the loop, outside the consumer's handlers: asks for `table_gap` through the
        # socket's own channel, so it runs in turn with the updates.
        if self.versions.gap_armed_fired() and not self._closing():
            asyncio.get_running_loop().create_task(
                self.channel_layer.send(self.channel_name, {"type": "table.gap"}))

    async def table_gap(self, event: dict[str, Any]) -> None:
        """GAP_WAIT after an update was held, the versions before it still missing: they
        are not coming (a lost publication); the view as it is now replaces them."""
        if not self._closing() and self.versions.give_up():
            await self._resync()

    async def _forward(self, event: dict[str, Any]) -> None:
        if self.versions.is_stale(event["version"]):
            return
        mine = event["seat_map"].get(str(self.user_id))
        if mine != event["seat"]:
            # This update was built for another audience than the one this user now belongs
            # to (a seat was taken, left or moved): never forward it; resync our own view.
            if mine != self.seat:
                await self._resync()
            return
        if event.get("spectators_refused"):
            # The owner forbade spectators while a match runs: the audience without a seat
            # is closed, as its handshake would be refused now (services.may_watch).
            await self._shut("SPECTATORS_NOT_ALLOWED")
            return
        await self.send(text_data=event["frame"])
        self.versions.sent_version(event["version"])
        if "match" in event:
            self.talk_match_now(event["match"])

    async def _hint(self, action_id: str | None) -> None:
        """A hint (games/teaching/hints.py): checked here, computed by a bot runner, answered
        to this socket alone (`teaching_hint`). One at a time per socket: a search is CPU."""
        if self.hint_pending is not None and (
                asyncio.get_running_loop().time() - self.hint_pending < HINT_PENDING_S):
            await self._send_error("HINT_PENDING", action_id)
            return
        try:
            job = await db_call(hints.check)(self.code, self.user)
        except ServiceError as exc:
            await self._send_error(str(exc.code), action_id)
            return
        self.hint_pending = asyncio.get_running_loop().time()
        if settings.TROCCAS_MODE == "distributed":
            try:
                hints.enqueue(job, self.channel_name, action_id)
            except Exception:
                log.exception("could not send the hint task of room %s", self.code)
                self.hint_pending = None
                await self._send_error("SERVER_ERROR", action_id)
        elif not bot_pool.embedded.hint(job, self.channel_name, action_id):
            self.hint_pending = None
            await self._send_error("SERVER_ERROR", action_id)

    async def teaching_hint(self, event: dict[str, Any]) -> None:
        """A runner's answer to this socket's hint: the `hint` frame, or the refusal's code."""
        self.hint_pending = None
        if self._closing():
            return
        if "error" in event:
            await self._send_error(event["error"], event.get("action_id"))
            return
        await self.send(text_data=broadcast.encode(
            {**event["frame"], "action_id": event.get("action_id")}))

    async def layer_resync(self, event: dict[str, Any]) -> None:
        """The channel layer may have missed publications while its connection to Redis was
        lost (games/live/channel_layer.py): this socket's view and talk as they are now."""
        if not self._closing():
            await self._resync()

    async def talk_blocked(self, event: dict[str, Any]) -> None:
        """This user was blocked by `owner` (games/talk/blocks.py, after commit): a socket
        watching one of the owner's private rooms closes (BLOCKED_BY_OWNER, 4403), unless the
        user holds a seat in the match running there: then it stays until the match ends, and
        the talk between the two stays hidden (talk.mutes). Issue #25 item 7."""
        if self._closing():
            return
        if await db_call(services.blocked_out)(self.code, self.user_id, event["owner"]):
            await self._shut("BLOCKED_BY_OWNER")

    async def table_presence(self, event: dict[str, Any]) -> None:
        if not self._closing():
            await self.send(text_data=event["frame"])
