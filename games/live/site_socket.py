"""SiteConsumer: the per-user socket at /ws/me/ that every page of a signed-in player opens
(static/js/site_socket.js; docs/protocol.md "The site socket").

A thin door: it registers the tab's presence row (games/talk/online.py), refreshes it on each
`ping`, removes it on close, and forwards the user's unread-notification count whenever it
changes (games/talk/notifications.py, through broadcast.send_notices). It reads no other frame.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sessions import session_tag, still_signed_in
from games.live import broadcast
from games.live.consumers import _SIGNED_OUT, CLOSE_CODES, _db, _if_signed_in
from games.talk import notifications, online

log = logging.getLogger(__name__)

# Pings closer together than this are answered without a database write: a client pings every
# 30 s, and a flood of pings must not become a flood of UPDATEs.
TOUCH_EVERY = 5.0


class SiteConsumer(AsyncWebsocketConsumer):
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._cleanup()

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.registered = False
        self.last_touch = 0.0
        self.groups_joined: list[str] = []
        session = self.scope.get("session")
        session_key = getattr(session, "session_key", None)
        self.session_tag = session_tag(session_key)
        self.auth = (getattr(self.user, "pk", 0), getattr(self.user, "password", ""),
                     session_key)
        await self.accept()
        if not getattr(self.user, "is_authenticated", False):
            await self._refuse("NOT_AUTHENTICATED")
            return
        refusal = await _db(online.connect)(self.user, self.channel_name)
        if refusal is not None:
            await self._refuse(refusal)
            return
        self.registered = True
        for group in (broadcast.notice_group_name(self.user.pk),
                      broadcast.user_group_name(self.user.pk)):
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        unread = await _db(notifications.unread_count)(self.user.pk)
        await self.send(text_data=broadcast.encode({"type": "notices", "unread": unread}))

    async def _refuse(self, code: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code}))
        await self.close(code=CLOSE_CODES.get(code, 4400))

    async def disconnect(self, code: int) -> None:
        await self._cleanup()

    async def _cleanup(self) -> None:
        for group in getattr(self, "groups_joined", []):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # noqa: BLE001 - the membership expires with the group
                log.exception("group_discard of %s failed", group)
        self.groups_joined = []
        if getattr(self, "registered", False):
            self.registered = False
            await _db(online.disconnect)(self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None
                      ) -> None:
        """Only `{"type": "ping"}` is read (the heartbeat, every 30 s); anything else, or a
        frame is ignored; a ping after the sign-in ended closes the socket."""
        if not self.registered:
            return
        try:
            frame = json.loads(text_data or "")
        except ValueError:
            return
        if not isinstance(frame, dict) or frame.get("type") != "ping":
            return
        now = time.monotonic()
        if now - self.last_touch >= TOUCH_EVERY:
            self.last_touch = now
            if await _db(_if_signed_in)(self.auth, online.touch,
                                        self.channel_name) is _SIGNED_OUT:
                await self._refuse("NOT_AUTHENTICATED")
                return
        await self.send(text_data=broadcast.encode({"type": "pong"}))

    async def notices_changed(self, event: dict[str, Any]) -> None:
        if self.registered:
            await self.send(text_data=event["frame"])

    async def layer_resync(self, event: dict[str, Any]) -> None:
        """The channel layer may have missed publications (games/live/channel_layer.py): the
        unread count as it is now, in case a change of it was among them."""
        if self.registered:
            unread = await _db(notifications.unread_count)(self.user.pk)
            await self.send(text_data=broadcast.encode({"type": "notices", "unread": unread}))

    async def auth_revoke(self, event: dict[str, Any]) -> None:
        """A sign-in of this user ended: close this socket if it was its session's."""
        if not self.registered:
            return
        tag = event.get("session")
        if tag is not None:
            if tag == self.session_tag:
                await self._refuse("NOT_AUTHENTICATED")
            return
        if not await _db(still_signed_in)(*self.auth):
            await self._refuse("NOT_AUTHENTICATED")
