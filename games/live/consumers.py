"""RoomConsumer: one websocket per tab at /ws/rooms/<code>/ (docs/protocol.md).

A thin door (ARCHITECTURE.md §9): authenticate, join the audience group of the user's seat,
parse frames, call the services, and send. It forwards a broadcast only if the broadcast was
built for the seat this user holds at that version, so a socket never carries another seat's
cards, even while it is changing groups.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation

from accounts.sessions import session_tag, signed_in_statement, still_signed_in
from games import services
from games.live import bot_pool, broadcast, timer_loop
from games.live.protocol import (
    PROTOCOL_VERSION,
    TALK_TYPES,
    ProtocolError,
    client_protocol,
    parse,
)
from games.live.talk import TalkMixin
from games.text.errors import message_for

log = logging.getLogger(__name__)

# Close codes (4000–4999 are the application's): the client shows why and does not retry.
# TOO_MANY_SOCKETS shares 4429 ("too many") with flooding: both mean "not now, not automatically".
# PROTOCOL_OUTDATED: 4426, after HTTP's 426 Upgrade Required (reload the page to get a client
# of the server's version).
CLOSE_CODES = {"NOT_AUTHENTICATED": 4401, "SPECTATORS_NOT_ALLOWED": 4403,
               "BLOCKED_FROM_ROOM": 4403,
               "ROOM_NOT_FOUND": 4404, "RATE_LIMITED": 4429, "TOO_MANY_SOCKETS": 4429,
               "PROTOCOL_OUTDATED": 4426}
# A handler that failed unexpectedly: the socket is closed as "internal error" (RFC 6455).
CLOSE_SERVER_ERROR = 1011
_SIGNED_OUT = object()

# Flood control: a token bucket per socket. A burst of RATE_BURST frames is fine, then
# RATE_PER_SECOND; frames beyond are refused with RATE_LIMITED, and a socket that keeps
# flooding (FLOOD_CLOSE refusals within FLOOD_WINDOW seconds) is closed.
RATE_PER_SECOND = 10.0
RATE_BURST = 20.0
FLOOD_CLOSE = 40
FLOOD_WINDOW = 10.0

# Table updates reach a socket in version order (docs/protocol.md §4). Two processes' updates of
# one table can arrive out of order: a process reaches its own sockets from memory at once and
# the others through Redis, a bot on a Celery worker publishes on its own, and a resync reads a
# version whose update is still on its way. An update ahead of the next expected version is
# held until the missing ones arrive; after GAP_WAIT seconds without them the socket resyncs
# from the database instead (a publication lost with a Redis connection, a full inbox).
GAP_WAIT = 0.5
# The most updates a socket holds back; more than that and it resyncs at once.
GAP_HELD = 64


# On PostgreSQL, service calls run in the thread pool, not on Channels' default single thread:
# with one thread every table of the process waited for every other table's database round trips
# (bench/ws_load.py found 1 s medians at 25 actions/s while the process used a third of a core).
# One room's writes still run one at a time in this process, in arrival order (`_room_lock`), so
# its after-commit broadcasts leave in version order as before; other rooms proceed in parallel.
# Each pool thread has its own database connection (kept between calls with DB_CONN_MAX_AGE).
# SQLite keeps the single thread: it has one writer anyway, and its shared-cache in-memory test
# database refuses concurrent connections ("database table is locked") instead of waiting.
_room_locks: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = (
    weakref.WeakValueDictionary())


def _room_lock(code: str) -> asyncio.Lock:
    key = (id(asyncio.get_running_loop()), code)
    lock = _room_locks.get(key)
    if lock is None:
        lock = asyncio.Lock()
        _room_locks[key] = lock
    return lock


def _db(func: Callable[..., Any]) -> Callable[..., Any]:
    sqlite = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    return database_sync_to_async(func, thread_sensitive=sqlite)


def _if_signed_in(auth: tuple[int, str, str | None], func: Callable[..., Any], *args: Any
                  ) -> Any:
    """`func(*args)` if the socket's session still holds (accounts/sessions.py), else
    _SIGNED_OUT: the check rides the thread hop the frame needs anyway, one indexed query."""
    if not still_signed_in(*auth):
        return _SIGNED_OUT
    return func(*args)


def _touch_signed_in(auth: tuple[int, str, str | None], channel_name: str) -> bool:
    """The heartbeat, and whether the session still holds (one round trip)."""
    statement = signed_in_statement(*auth)
    if statement is None:
        return _if_signed_in(auth, services.touch, channel_name) is not _SIGNED_OUT
    return bool(services.touch(channel_name, session=statement))


class RoomConsumer(TalkMixin, AsyncWebsocketConsumer):
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        # However the socket ends (a close, a crash, the server cancelling it), its Connection
        # row and group memberships go with it: `_cleanup` is idempotent.
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._cleanup()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Call the handler of a message, without Channels' per-message connection cleanup.

        Channels 4.2+ runs `close_old_connections` on its one sync thread before *every*
        message, table updates included: a thread hop per frame that the handlers here do not
        need (they reach the database only through `_db`, whose thread does that cleanup
        itself). bench/ws_load.py: a good part of a process's CPU at a few hundred sockets.

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
        except Exception:
            log.exception("socket handler %s failed in room %s", message["type"],
                          getattr(self, "code", "?"))
            await self._fail()

    async def _fail(self) -> None:
        if getattr(self, "failed", False):
            return
        self.failed = True
        try:
            if getattr(self, "accepted", False):
                await self._send_error("SERVER_ERROR", None)
                await self.close(code=CLOSE_SERVER_ERROR)
            else:
                await self.close()  # before the handshake completed: refused (HTTP 403)
        except Exception:  # noqa: BLE001 - the client is gone already
            pass
        await self._cleanup()

    async def connect(self) -> None:
        self.code: str = self.scope["url_route"]["kwargs"]["code"]
        self.user = self.scope.get("user")
        self.seat: int | None = None
        self.group: str | None = None
        self.user_group: str | None = None
        self.registered = False
        # The version of the last `state` frame sent (-1: none yet), the updates held back
        # until the versions before them have been sent (`table_update`), and whether a gap
        # check is already armed.
        self.sent_version = -1
        self.held: dict[int, dict[str, Any]] = {}
        self.gap_armed = False
        session = self.scope.get("session")
        session_key = getattr(session, "session_key", None)
        self.session_tag = session_tag(session_key)
        # What the handshake's session was checked against (accounts/sessions.py).
        self.auth = (getattr(self.user, "pk", 0), getattr(self.user, "password", ""),
                     session_key)
        self.tokens = RATE_BURST
        self.last_refill = time.monotonic()
        self.refusals: list[float] = []
        self.language = self._language()
        self.room_lock = _room_lock(self.code)  # held by reference while the socket lives
        if client_protocol(self.scope.get("query_string", b"")) != PROTOCOL_VERSION:
            # An old page (or client): it would wait for frames of a shape it no longer gets.
            # Told so in its language, before anything else is looked up.
            await self.accept()
            self.accepted = True
            await self._shut("PROTOCOL_OUTDATED")
            return
        refusal = await _db(services.may_watch)(self.code, self.user)
        await self.accept()
        self.accepted = True
        if refusal is not None:
            await self._send_error(refusal, None)
            await self.close(code=CLOSE_CODES.get(refusal, 4400))
            return
        if settings.TROCCAS_MODE == "embedded":
            timer_loop.embedded.ensure_started()
            bot_pool.embedded.ensure_started()
        async with self.room_lock:
            refusal = await _db(services.connect)(self.code, self.user, self.channel_name)
        if refusal is not None:
            await self._send_error(refusal, None)
            await self.close(code=CLOSE_CODES.get(refusal, 4400))
            return
        self.registered = True
        # Told when this sign-in ends (a log-out, a new password, a deleted account).
        self.user_group = broadcast.user_group_name(self.user.pk)
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
                except Exception:  # noqa: BLE001 - the membership expires with the group
                    log.exception("group_discard of %s failed", group)
        if getattr(self, "registered", False):
            self.registered = False
            async with self.room_lock:
                await _db(services.disconnect)(self.code, self.channel_name)

    def _closing(self) -> bool:
        return (not getattr(self, "registered", False) or getattr(self, "flood_closed", False)
                or getattr(self, "shut", False) or getattr(self, "failed", False))

    async def _shut(self, code: str) -> None:
        """Refuse this socket from now on: one error frame, then the close code of `code`.
        Frames that still arrive are dropped unread."""
        if getattr(self, "shut", False):
            return
        self.shut = True
        await self._send_error(code, None)
        await self.close(code=CLOSE_CODES[code])

    # --- incoming --------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None
                      ) -> None:
        if self._closing():
            # A refused socket (not signed in, no such room, spectators not allowed, too many
            # sockets), one being closed (flooding, signed out): its frames are never read.
            return
        if not self._take_token():
            return
        try:
            cmd = parse(text_data if text_data is not None else bytes_data)
        except ProtocolError as exc:
            await self._send_error(exc.code, exc.action_id)
            return
        # Every frame re-checks the session (docs/protocol.md §3), in the same thread hop.
        if cmd.type == "ping":
            if not await _db(_touch_signed_in)(self.auth, self.channel_name):
                await self._shut("NOT_AUTHENTICATED")
                return
            await self.send(text_data=broadcast.encode({"type": "pong"}))
            return
        if cmd.type == "sync":
            if await _db(still_signed_in)(*self.auth):
                await self._resync()
            else:
                await self._shut("NOT_AUTHENTICATED")
            return
        if cmd.type in TALK_TYPES:
            # Talk never changes the table: no room lock, its own handler (games/live/talk.py).
            await self.talk_command(cmd)
            return
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

    def _take_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.last_refill) * RATE_PER_SECOND)
        self.last_refill = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refusals = [t for t in self.refusals if now - t < FLOOD_WINDOW]
        self.refusals.append(now)
        if len(self.refusals) >= FLOOD_CLOSE:
            # Fire and forget: closing must not wait on a client that is flooding us. From
            # now on the socket's frames are dropped unread (no second close, no service).
            self.flood_closed = True
            self.refusals.clear()
            asyncio.get_running_loop().create_task(self._close_flooder())
        elif len(self.refusals) == 1 or len(self.refusals) % 10 == 0:
            asyncio.get_running_loop().create_task(self._send_error("RATE_LIMITED", None))
        return False

    async def _close_flooder(self) -> None:
        await self._send_error("RATE_LIMITED", None)
        await self.close(code=CLOSE_CODES["RATE_LIMITED"])

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
        seat = await _db(services.seat_of_user)(self.code, self.user.pk)
        await self._join(seat)
        snap = await _db(services.table_snapshot)(self.code)
        actual = snap.seat_of(self.user.pk)
        if actual is None and broadcast.spectators_refused(snap):
            await self._shut("SPECTATORS_NOT_ALLOWED")
            return
        if actual != seat:
            await self._join(actual)
        await self.send(text_data=broadcast.encode(snap.state_message(actual)))
        self.sent_version = max(self.sent_version, snap.version)
        await self.talk_resync()
        await self._release_held()

    async def table_update(self, event: dict[str, Any]) -> None:
        """A table update for this socket's audience: sent in version order. One older than
        the last frame sent is dropped (a resync sent a newer view already); one ahead of the
        next version is held until the versions before it came (`_release_held`)."""
        if self._closing():
            return
        version = event["version"]
        if self.sent_version >= 0 and version > self.sent_version + 1:
            self.held[version] = event
            if len(self.held) > GAP_HELD:
                self.held.clear()
                await self._resync()
            elif not self.gap_armed:
                self.gap_armed = True
                asyncio.get_running_loop().call_later(GAP_WAIT, self._gap_check)
            return
        await self._forward(event)
        await self._release_held()

    async def _release_held(self) -> None:
        """Send the held updates that are next in line; forget those a resync made stale."""
        while self.held and not self._closing():
            for version in [v for v in self.held if v <= self.sent_version]:
                del self.held[version]
            event = self.held.pop(self.sent_version + 1, None)
            if event is None:
                return
            await self._forward(event)

    def _gap_check(self) -> None:
        # On the loop, outside the consumer's handlers: asks for `table_gap` through the
        # socket's own channel, so it runs in turn with the updates.
        self.gap_armed = False
        if self.held and not self._closing():
            asyncio.get_running_loop().create_task(
                self.channel_layer.send(self.channel_name, {"type": "table.gap"}))

    async def table_gap(self, event: dict[str, Any]) -> None:
        """GAP_WAIT after an update was held, the versions before it still missing: they
        are not coming (a lost publication); the view as it is now replaces them."""
        if self.held and not self._closing():
            self.held.clear()
            await self._resync()

    async def _forward(self, event: dict[str, Any]) -> None:
        if event["version"] < self.sent_version:
            return
        mine = event["seat_map"].get(str(self.user.pk))
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
        self.sent_version = max(self.sent_version, event["version"])

    async def auth_revoke(self, event: dict[str, Any]) -> None:
        """A sign-in of this user ended (broadcast.sign_out): this session's (a log-out), or
        possibly any (a new password, a deleted account: re-check this socket's own)."""
        if self._closing():
            return
        tag = event.get("session")
        if tag is not None:
            if tag == self.session_tag:
                await self._shut("NOT_AUTHENTICATED")
            return
        if not await _db(still_signed_in)(*self.auth):
            await self._shut("NOT_AUTHENTICATED")

    async def layer_resync(self, event: dict[str, Any]) -> None:
        """The channel layer may have missed publications while its connection to Redis was
        lost (games/live/channel_layer.py): this socket's view and talk as they are now."""
        if not self._closing():
            await self._resync()

    async def table_presence(self, event: dict[str, Any]) -> None:
        if not self._closing():
            await self.send(text_data=event["frame"])

    async def _send_error(self, code: str, action_id: str | None) -> None:
        with translation.override(self.language):
            message = message_for(code)
        await self.send(text_data=broadcast.encode(
            {"type": "error", "code": code, "message": message, "action_id": action_id}))

    def _language(self) -> str:
        user = self.user
        pref = getattr(user, "preferred_language", "") if user is not None else ""
        if pref:
            return pref
        cookies = self.scope.get("cookies") or {}
        lang = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
        codes = {code for code, _ in settings.LANGUAGES}
        return lang if lang in codes else settings.LANGUAGE_CODE
