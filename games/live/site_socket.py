"""SiteConsumer: the per-user socket at /ws/me/ that every page of a signed-in player opens
(static/js/site_socket.js; docs/protocol.md "The site socket").

A thin door: it registers the tab's presence row (games/talk/online.py), refreshes it on each
`ping`, removes it on close, and forwards the user's unread-notification count whenever it
changes (games/talk/notifications.py, through broadcast.send_notices), and says `friends` when the
account's friends or blocks change (the room page's invite list reads them again). It reads no
other frame.
What it shares with the table's socket (close codes, the flood bucket in front of every frame,
the end of a sign-in) is games/live/socket_base.py; its database calls go through
games/live/socket_db.py.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from games.live import broadcast
from games.live.protocol import MAX_FRAME_BYTES, too_deep
from games.live.socket_base import LiveSocket, client_gone
from games.live.socket_db import SIGNED_OUT, db_call, if_signed_in
from games.models import QueueStatus
from games.services import matchmaking
from games.talk import notifications, online

log = logging.getLogger(__name__)

# Pings closer together than this are answered without a database write: a client pings every
# 30 s, and a flood of pings must not become a flood of UPDATEs.
TOUCH_EVERY = 5.0


class SiteConsumer(LiveSocket):
    # The groups it joins (broadcast.GROUP_MESSAGES): a handler for every type of each.
    GROUP_KINDS = ("notices", "user")

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
        await self.accept()
        self.accepted = True
        if not getattr(self.user, "is_authenticated", False):
            await self._shut("NOT_AUTHENTICATED")
            return
        refusal = await db_call(online.connect)(self.user, self.channel_name)
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

    async def _send_error(self, code: str, action_id: str | None) -> None:
        # The site socket's error frame carries the code alone (docs/protocol.md).
        await self.send(text_data=json.dumps({"type": "error", "code": code}))

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
        """Only `{"type": "ping"}` is read (the heartbeat, every 30 s); anything else, or a
        frame is ignored; a ping after the sign-in ended closes the socket."""
        if self._closing() or not self._admit():
            return
        # A ping is 15 bytes: anything large or nested is not one (and is not decoded).
        if (text_data is None or len(text_data.encode()) > MAX_FRAME_BYTES
                or too_deep(text_data)):
            return
        try:
            frame = json.loads(text_data)
        except (ValueError, RecursionError):
            return
        if not isinstance(frame, dict) or frame.get("type") != "ping":
            return
        now = time.monotonic()
        if now - self.last_touch >= TOUCH_EVERY:
            self.last_touch = now
            if await db_call(if_signed_in)(self.auth, online.touch,
                                           self.channel_name) is SIGNED_OUT:
                await self._shut("NOT_AUTHENTICATED")
                return
        await self.send(text_data=broadcast.encode({"type": "pong"}))

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

    async def layer_resync(self, event: dict[str, Any]) -> None:
        """The channel layer may have missed publications (games/live/channel_layer.py): the
        unread count and the queue as they are now, in case a change of them was among them,
        and a word to read the friends again."""
        if not self._closing():
            await self._send_unread()
            await self._send_queue()
            await self.send(text_data=broadcast.encode({"type": "friends"}))
