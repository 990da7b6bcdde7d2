"""What the two sockets share (RoomConsumer at /ws/rooms/<code>/, SiteConsumer at /ws/me/): the
close codes, the cleanup however a socket ends, the handshake's session, the end of a sign-in
(`auth_revoke`) and the flood bucket (games/live/flood.py) in front of every frame.

A socket subclasses `LiveSocket` and provides `_cleanup` (idempotent) and, if it has more
reasons to stop reading than these, `_closing`. Both send the same error frame (`_send_error`:
the code, its sentence in the user's language, the action_id), flood answers included.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from accounts.models import User
from accounts.sessions import session_tag
from games.live import broadcast, flood
from games.live.socket_db import Auth, db_call, signed_in
from games.text.errors import message_for

# Close codes (4000–4999 are the application's): the client shows why and does not retry.
# TOO_MANY_SOCKETS shares 4429 ("too many") with flooding: both mean "not now, not automatically".
# PROTOCOL_OUTDATED: 4426, after HTTP's 426 Upgrade Required (reload the page to get a client
# of the server's version).
CLOSE_CODES: Final[Mapping[str, int]] = {
    "NOT_AUTHENTICATED": 4401, "SPECTATORS_NOT_ALLOWED": 4403, "BLOCKED_FROM_ROOM": 4403,
    "ROOM_NOT_FOUND": 4404, "RATE_LIMITED": 4429, "TOO_MANY_SOCKETS": 4429,
    "PROTOCOL_OUTDATED": 4426, "BLOCKED_BY_OWNER": 4403,
    "CLUB_TABLE_MEMBERS_ONLY": 4403}
# A refusal without a close code of its own.
CLOSE_REFUSED: Final = 4400
# A handler that failed unexpectedly: the socket is closed as "internal error" (RFC 6455).
CLOSE_SERVER_ERROR: Final = 1011

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class _TypedWebsocketConsumer(AsyncWebsocketConsumer):
    """AsyncWebsocketConsumer as the sockets call it: Channels carries no annotations, so the
    signatures of the methods used are declared for the type checker
    (channels/generic/websocket.py and channels/consumer.py, 4.x); at run time this class adds
    nothing."""

    if TYPE_CHECKING:
        scope: Scope
        channel_name: str
        channel_layer: Any  # the configured layer: ours, or one of Channels' in the tests

        @classmethod
        def as_asgi(cls, **initkwargs: Any) -> Callable[[Scope, Receive, Send],
                                                         Awaitable[None]]: ...

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...

        async def accept(self, subprotocol: str | None = None,
                         headers: list[tuple[bytes, bytes]] | None = None) -> None: ...

        async def send(self, text_data: str | None = None, bytes_data: bytes | None = None,
                       close: bool = False) -> None: ...

        async def close(self, code: int | None = None, reason: str | None = None
                        ) -> None: ...


def client_gone(exc: BaseException) -> bool:
    """Whether `exc` is the server saying the client has already gone (uvicorn's
    ClientDisconnected when a frame is sent to a socket the browser is closing): the socket's
    disconnect follows and cleans up, so it is no error (issue #24 item 12: the log holds only
    real ones). Matched by name: the tests run the consumers under Daphne's testing stack."""
    return type(exc).__name__ == "ClientDisconnected"


class LiveSocket(_TypedWebsocketConsumer):
    # What stops a socket reading its frames and events. Set once, never reset.
    registered = False    # its Connection row (or presence row) exists
    shut = False          # refused from now on (`_shut`)
    flood_closed = False  # closed for flooding
    failed = False        # a handler failed (RoomConsumer.dispatch)
    accepted = False      # the handshake completed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # However the socket ends (a close, a crash, the server cancelling it), its rows and
        # group memberships go with it: `_cleanup` is idempotent.
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._cleanup()

    def _sign_in(self) -> None:
        """Read the handshake's user and session (before anything else in `connect`)."""
        # A User once the services let the socket in (AnonymousUser is refused), read as the
        # services read it.
        user = self.scope.get("user")
        self.user: User | AnonymousUser = AnonymousUser() if user is None else user
        session = self.scope.get("session")
        session_key = getattr(session, "session_key", None)
        self.session_tag = session_tag(session_key)
        # What the handshake's session is checked against (accounts/sessions.py).
        # 0 for the anonymous user, whom the services refuse before anything else.
        self.user_id: int = self.user.pk or 0
        self.auth: Auth = (self.user_id, getattr(self.user, "password", ""), session_key)
        self.flood = flood.Bucket()
        self.language = self._language()

    def _language(self) -> str:
        """The language of this socket's sentences: the user's choice, else the site's
        language cookie, else the site's default."""
        pref = getattr(self.user, "preferred_language", "")
        if pref:
            return str(pref)
        cookies = self.scope.get("cookies") or {}
        lang = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
        codes = {code for code, _ in settings.LANGUAGES}
        return str(lang) if lang in codes else str(settings.LANGUAGE_CODE)

    async def _cleanup(self) -> None:
        raise NotImplementedError

    async def _send_error(self, code: str, action_id: str | None) -> None:
        """One error frame: the stable code and its sentence in this socket's language."""
        with translation.override(self.language):
            message = message_for(code)
        await self.send(text_data=broadcast.encode(
            {"type": "error", "code": code, "message": message, "action_id": action_id}))

    def _closing(self) -> bool:
        return not self.registered or self.shut or self.flood_closed or self.failed

    async def _shut(self, code: str) -> None:
        """Refuse this socket from now on: one error frame, then the close code of `code`.
        Frames that still arrive are dropped unread."""
        if self.shut:
            return
        self.shut = True
        await self._send_error(code, None)
        await self.close(code=CLOSE_CODES.get(code, CLOSE_REFUSED))

    def _admit(self) -> bool:
        """Whether a frame that arrived is read: the flood bucket's verdict, and its answer.
        The answers are fire and forget: reading must not wait on a client that floods."""
        verdict = self.flood.take()
        if verdict is flood.Verdict.READ:
            return True
        loop = asyncio.get_running_loop()
        if verdict is flood.Verdict.CLOSE:
            # From now on the socket's frames are dropped unread (no second close).
            self.flood_closed = True
            loop.create_task(self._close_flooder())
        elif verdict is flood.Verdict.ANSWER:
            loop.create_task(self._send_error("RATE_LIMITED", None))
        return False

    async def _close_flooder(self) -> None:
        await self._send_error("RATE_LIMITED", None)
        await self.close(code=CLOSE_CODES["RATE_LIMITED"])

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
        if not await db_call(signed_in)(self.auth):
            await self._shut("NOT_AUTHENTICATED")
