"""SiteConsumer: the per-user socket at /ws/me/ that every page of a signed-in player opens
(static/js/site_socket.js; docs/protocol.md "The site socket").

A thin door: it registers the tab's presence row (games/talk/online.py), refreshes it on each
`ping`, removes it on close, and forwards the user's unread-notification count whenever it
changes (games/talk/notifications.py, through broadcast.send_notices), and says `friends` when the
account's friends or blocks change (the room page's invite list reads them again). A page of a
tournament asks it to `watch` that tournament (one at a time): once the viewer may see it
(games/clubs/tournaments.py may_watch) the socket joins the tournament's group and passes on its
`tournament` frames (games/clubs/push.py). It reads no other frame.
What it shares with the table's socket (close codes, the flood bucket in front of every frame,
the end of a sign-in) is games/live/socket_base.py; its database calls go through
games/live/socket_db.py.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from django.core.cache import cache

from games.clubs import push, tournaments
from games.live import broadcast, flood
from games.live.protocol import too_deep
from games.live.socket_base import CLOSE_CODES, LiveSocket, client_gone
from games.live.socket_db import SIGNED_OUT, db_call, if_signed_in
from games.models import QueueStatus
from games.services import matchmaking
from games.talk import notifications, online

log = logging.getLogger(__name__)

# Pings closer together than this are answered without a database write: a client pings every
# 30 s, and a flood of pings must not become a flood of UPDATEs.
TOUCH_EVERY = 5.0
# The site socket's frames are small (a ping is 15 bytes): a larger frame is refused unread,
# MESSAGE_TOO_LARGE, well below the table socket's 4 KiB (protocol.MAX_FRAME_BYTES).
MAX_SITE_FRAME_BYTES = 1024
# After one of an account's site sockets was closed for flooding, its new site sockets are
# refused (RATE_LIMITED, 4429) for this long, before anything is read or written: a client
# that reconnects at once to flood again costs a handshake, not a presence row, two group
# joins and two reads (bench/site_socket_flood.py --reconnect; issue #25 item 3). On the
# cache, so every process of the distributed mode sees it.
FLOOD_COOLDOWN = flood.WINDOW
# A tournament's id is a row id (a 64-bit integer): anything else is refused unread.
MAX_ROW_ID = 2**63 - 1


def _cooldown_key(user: Any) -> str:
    # The account's id and the instant it joined: an id a fresh database hands out again (a
    # test run, a restore) is another account, whose sockets the cache must not refuse.
    joined = getattr(user, "date_joined", None)
    return f"site-socket-flooded:{user.pk}:{joined.timestamp() if joined else 0}"


def _open(user: Any, channel_name: str) -> str | None:
    """The handshake's one thread hop: refused while the account cools down from a flood,
    else its presence row (games/talk/online.py)."""
    if cache.get(_cooldown_key(user)) is not None:
        return "RATE_LIMITED"
    return online.connect(user, channel_name)


def _flooded(user: Any) -> None:
    cache.set(_cooldown_key(user), 1, timeout=FLOOD_COOLDOWN)


class SiteConsumer(LiveSocket):
    # The groups it joins (broadcast.GROUP_MESSAGES): a handler for every type of each.
    GROUP_KINDS = ("notices", "user", "tournament")

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, but a frame sent to a browser that is closing meanwhile is no
        error: its disconnect follows (socket_base.client_gone)."""
        try:
            await super().dispatch(message)  # type: ignore[no-untyped-call]  # Channels ships no types
        except Exception as exc:
            if not client_gone(exc):
                raise

    async def connect(self) -> None:
        self._sign_in()
        self.last_touch = 0.0
        self.groups_joined: list[str] = []
        # The tournament this socket's page watches (a `watch` frame), if any.
        self.watching: int | None = None
        await self.accept()
        self.accepted = True
        if not getattr(self.user, "is_authenticated", False):
            await self._shut("NOT_AUTHENTICATED")
            return
        refusal = await db_call(_open)(self.user, self.channel_name)
        if refusal is not None:
            await self._shut(refusal)
            return
        self.registered = True
        for group in (broadcast.notice_group_name(self.user_id),
                      broadcast.user_group_name(self.user_id)):
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        await self._send_unread()
        await self._send_queue()

    async def _close_flooder(self) -> None:
        await db_call(_flooded)(self.user)
        await self._send_error("RATE_LIMITED", None)
        await self.close(code=CLOSE_CODES["RATE_LIMITED"])

    async def disconnect(self, code: int) -> None:
        await self._cleanup()

    async def _cleanup(self) -> None:
        for group in getattr(self, "groups_joined", []):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # the membership expires with the group
                log.exception("group_discard of %s failed", group)
        self.groups_joined = []
        if self.registered:
            self.registered = False
            await db_call(online.disconnect)(self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None
                      ) -> None:
        """Only `{"type": "ping"}` (the heartbeat, every 30 s) and `{"type": "watch",
        "tournament": <id>}` are read; a frame over MAX_SITE_FRAME_BYTES is refused
        (MESSAGE_TOO_LARGE), anything else ignored; a ping or a watch after the sign-in ended
        closes the socket. The flood bucket comes first, so the refusals are bounded as the
        pongs are."""
        if self._closing() or not self._admit():
            return
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > MAX_SITE_FRAME_BYTES:
            await self._send_error("MESSAGE_TOO_LARGE", None)
            return
        # A ping is 15 bytes: anything nested is not one (and is not decoded).
        if text_data is None or too_deep(text_data):
            return
        try:
            frame = json.loads(text_data)
        except (ValueError, RecursionError):
            return
        if not isinstance(frame, dict):
            return
        if frame.get("type") == "watch":
            await self._watch(frame.get("tournament"))
            return
        if frame.get("type") != "ping":
            return
        now = time.monotonic()
        if now - self.last_touch >= TOUCH_EVERY:
            self.last_touch = now
            if await db_call(if_signed_in)(self.auth, online.touch,
                                           self.channel_name) is SIGNED_OUT:
                await self._shut("NOT_AUTHENTICATED")
                return
        await self.send(text_data=broadcast.encode({"type": "pong"}))

    async def _watch(self, tournament: Any) -> None:
        """Follow one tournament's changes (the page's; a second watch replaces the first):
        INVALID_FIELD for anything but a row id, TOURNAMENT_NOT_FOUND for a tournament the
        viewer may not see (a club's, to a non-member) or that does not exist, and the socket
        stays as it was. Accepted, the socket is sent `{"type": "tournament", ...,
        "changed": "watch"}`: the page reads again what it may have missed meanwhile."""
        if (not isinstance(tournament, int) or isinstance(tournament, bool)
                or not 0 < tournament <= MAX_ROW_ID):
            await self._send_error("INVALID_FIELD", None)
            return
        allowed = await db_call(if_signed_in)(self.auth, tournaments.may_watch, self.user,
                                              tournament)
        if allowed is SIGNED_OUT:
            await self._shut("NOT_AUTHENTICATED")
            return
        if not allowed:
            await self._send_error("TOURNAMENT_NOT_FOUND", None)
            return
        if self.watching != tournament:
            if self.watching is not None:
                old = broadcast.tournament_group_name(self.watching)
                await self.channel_layer.group_discard(old, self.channel_name)
                self.groups_joined.remove(old)
            group = broadcast.tournament_group_name(tournament)
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
            self.watching = tournament
        await self.send(text_data=broadcast.encode(push.frame(tournament, "watch")))

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        """A change of the watched tournament (broadcast.send_tournament_frame), encoded once
        for every watcher."""
        if not self._closing():
            await self.send(text_data=event["frame"])

    async def _send_unread(self) -> None:
        unread = await db_call(notifications.unread_count)(self.user_id)
        await self.send(text_data=broadcast.encode({"type": "notices", "unread": unread}))

    async def notices_changed(self, event: dict[str, Any]) -> None:
        if not self._closing():
            await self.send(text_data=event["frame"])

    async def site_frame(self, event: dict[str, Any]) -> None:
        """A frame for this user's pages (Find a game: `queue`, `queue_table`, `queue_left`),
        encoded once by broadcast.send_site_frame."""
        if not self._closing():
            await self.send(text_data=event["frame"])

    async def _send_queue(self) -> None:
        view = await db_call(matchmaking.view_of)(self.user)
        if view is not None and view.status == QueueStatus.WAITING:
            await self.send(text_data=broadcast.encode(view.frame()))

    async def talk_mutes(self, event: dict[str, Any]) -> None:
        """This account's friends, blocks or mutes changed (games/talk/hooks.mutes_changed,
        sent to every socket of the account; the table sockets re-read their talk). A page
        that lists friends (the room's "Invite a friend") reads them again when it hears
        `friends`; the frame carries nothing, so it tells no one anything about anybody."""
        if not self._closing():
            await self.send(text_data=broadcast.encode({"type": "friends"}))

    async def talk_blocked(self, event: dict[str, Any]) -> None:
        """A block of this account (RoomConsumer.talk_blocked closes a table socket at the
        blocker's private room); the site socket watches no room, and `talk.mutes` has said
        `friends` already."""

    async def layer_resync(self, event: dict[str, Any]) -> None:
        """The channel layer may have missed publications (games/live/channel_layer.py): the
        unread count and the queue as they are now, in case a change of them was among them,
        and a word to read the friends, and the watched tournament, again."""
        if not self._closing():
            await self._send_unread()
            await self._send_queue()
            await self.send(text_data=broadcast.encode({"type": "friends"}))
            if self.watching is not None:
                await self.send(text_data=broadcast.encode(
                    push.frame(self.watching, "resync")))
